// The seccomp filter of the command sandbox (docs/sandbox.md#unix-sockets-and-seccomp): a classic BPF program,
// assembled here byte by byte and handed to bwrap with `--seccomp FD`, so nothing native is built or shipped. It
// refuses creating Unix-domain sockets (`socket(AF_UNIX, …)`: without one, no socket outside the sandbox can be
// connected to, whatever its path or abstract name; `socketpair`, which Node's child pipes and IPC use, stays
// allowed), refuses new user namespaces (`unshare`/`clone` with CLONE_NEWUSER; `clone3`, whose flags sit behind a
// pointer, answers ENOSYS so C libraries fall back to `clone`): inside one a command would hold every capability
// again, over what it creates there, and many kernel exploits start that way. It refuses io_uring (whose
// IORING_OP_SOCKET would create a socket without the `socket` system call), and every system call of an ABI it does
// not know (x32, or an architecture other than the host's and its 32-bit compat mode), so no second table of
// system-call numbers slips past the checks.

/** How Unix sockets are filtered: `refuse` (the default) or `allow` (the command may create its own). */
export type UnixSocketRule = 'refuse' | 'allow';

// seccomp_data: int nr; u32 arch; u64 instruction_pointer; u64 args[6] (little-endian on both hosts below).
const NR = 0;
const ARCH = 4;
/** The low 32 bits of args[0]: `socket`'s domain is an int, so the kernel ignores the upper half, and so do we. */
const ARG0_LOW = 16;

const BPF_LD_W_ABS = 0x20;
const BPF_JEQ_K = 0x15;
const BPF_JGE_K = 0x35;
const BPF_JSET_K = 0x45;
const BPF_RET_K = 0x06;

const RET_ALLOW = 0x7fff0000;
const RET_KILL_PROCESS = 0x80000000;
const RET_ERRNO = 0x00050000;
const EPERM = 1;
const ENOSYS = 38;

const AF_UNIX = 1;
/** socketcall(2)'s first argument for `socket`: the domain itself sits behind a pointer the filter cannot read. */
const SYS_SOCKET = 1;
/** io_uring_setup, io_uring_enter, io_uring_register: one number on every architecture since Linux 5.1. */
const IO_URING = [425, 426, 427];
const X32_SYSCALL_BIT = 0x40000000;
const CLONE_NEWUSER = 0x10000000;
/** clone3 has one number everywhere too (Linux 5.3). */
const CLONE3 = 435;

interface Abi {
  audit: number;
  socket: number;
  unshare: number;
  /** `clone`: its flags are the first argument on every ABI below. */
  clone: number;
  /** The multiplexed socket call of i386; absent where the ABI has none. */
  socketcall?: number;
  /** x86-64's x32 numbers share its audit architecture and are told apart by this bit of the number. */
  x32?: boolean;
}

/** The ABIs a process on each supported host can call the kernel with: the native one first, then the compat one. */
const HOST_ABIS: Readonly<Record<string, readonly Abi[]>> = {
  x64: [
    { audit: 0xc000003e, socket: 41, unshare: 272, clone: 56, x32: true },
    { audit: 0x40000003, socket: 359, unshare: 310, clone: 120, socketcall: 102 },
  ],
  arm64: [
    { audit: 0xc00000b7, socket: 198, unshare: 97, clone: 220 },
    { audit: 0x40000028, socket: 281, unshare: 337, clone: 120 },
  ],
};

/** Whether a filter is built for `arch` (Node's `process.arch`). */
export function seccompSupported(arch: string = process.arch): boolean {
  return arch in HOST_ABIS;
}

type Insn =
  | { op: 'ld'; offset: number }
  | { op: 'jeq' | 'jge' | 'jset'; k: number; then: string }
  | { op: 'ret'; k: number }
  | { op: 'label'; name: string };

/** The filter program for `arch` as the bytes bwrap reads (`struct sock_filter[]`), or undefined if none is built. */
export function seccompFilter(rule: UnixSocketRule, arch: string = process.arch): Buffer | undefined {
  const abis = HOST_ABIS[arch];
  if (!abis) return undefined;
  const program: Insn[] = [{ op: 'ld', offset: ARCH }];
  abis.forEach((abi, i) => program.push({ op: 'jeq', k: abi.audit, then: `abi${i}` }));
  program.push({ op: 'ret', k: RET_KILL_PROCESS });
  abis.forEach((abi, i) => program.push(...abiChecks(abi, `abi${i}`, rule)));
  program.push(
    { op: 'label', name: 'domain' },
    { op: 'ld', offset: ARG0_LOW },
    { op: 'jeq', k: AF_UNIX, then: 'eperm' },
    { op: 'ret', k: RET_ALLOW },
    { op: 'label', name: 'socketcall' },
    { op: 'ld', offset: ARG0_LOW },
    { op: 'jeq', k: SYS_SOCKET, then: 'eperm' },
    { op: 'ret', k: RET_ALLOW },
    { op: 'label', name: 'newuser' },
    { op: 'ld', offset: ARG0_LOW },
    { op: 'jset', k: CLONE_NEWUSER, then: 'eperm' },
    { op: 'ret', k: RET_ALLOW },
    { op: 'label', name: 'eperm' },
    { op: 'ret', k: RET_ERRNO | EPERM },
    { op: 'label', name: 'enosys' },
    { op: 'ret', k: RET_ERRNO | ENOSYS },
  );
  return assemble(program);
}

function abiChecks(abi: Abi, label: string, rule: UnixSocketRule): Insn[] {
  const checks: Insn[] = [
    { op: 'label', name: label },
    { op: 'ld', offset: NR },
  ];
  if (abi.x32) checks.push({ op: 'jge', k: X32_SYSCALL_BIT, then: 'enosys' });
  if (rule === 'refuse') {
    checks.push({ op: 'jeq', k: abi.socket, then: 'domain' });
    if (abi.socketcall !== undefined) checks.push({ op: 'jeq', k: abi.socketcall, then: 'socketcall' });
  }
  checks.push({ op: 'jeq', k: abi.unshare, then: 'newuser' }, { op: 'jeq', k: abi.clone, then: 'newuser' });
  for (const nr of [CLONE3, ...IO_URING]) checks.push({ op: 'jeq', k: nr, then: 'enosys' });
  checks.push({ op: 'ret', k: RET_ALLOW });
  return checks;
}

const JUMPS = { jeq: BPF_JEQ_K, jge: BPF_JGE_K, jset: BPF_JSET_K } as const;

/**
 * Resolves labels to the forward offsets classic BPF jumps by (a false test falls through to the next instruction),
 * and packs each instruction into 8 bytes.
 */
function assemble(program: readonly Insn[]): Buffer {
  const at = new Map<string, number>();
  const code: Exclude<Insn, { op: 'label' }>[] = [];
  for (const insn of program) {
    if (insn.op === 'label') at.set(insn.name, code.length);
    else code.push(insn);
  }
  const out = Buffer.alloc(code.length * 8);
  code.forEach((insn, i) => {
    const jump = (label: string): number => {
      const target = at.get(label);
      const offset = target === undefined ? -1 : target - i - 1;
      if (offset < 0 || offset > 255) throw new Error(`seccomp filter: no forward jump to ${label} from ${i}`);
      return offset;
    };
    const [opcode, jt, jf, k] =
      insn.op === 'ld'
        ? [BPF_LD_W_ABS, 0, 0, insn.offset]
        : insn.op === 'ret'
          ? [BPF_RET_K, 0, 0, insn.k]
          : [JUMPS[insn.op], jump(insn.then), 0, insn.k];
    out.writeUInt16LE(opcode, i * 8);
    out.writeUInt8(jt, i * 8 + 2);
    out.writeUInt8(jf, i * 8 + 3);
    out.writeUInt32LE(k >>> 0, i * 8 + 4);
  });
  return out;
}
