// The seccomp filter's bytes (src/platform/sandbox/seccompFilter.ts), run here by a small classic-BPF interpreter
// written from the kernel's documentation (Documentation/networking/filter.rst: 8-byte instructions; the seccomp_data
// layout nr, arch, instruction_pointer, args[6]), so each verdict is checked for every ABI of both hosts without a
// kernel: a Unix socket and a new user namespace are refused, however the argument is dressed up; everything else is
// allowed; clone3, io_uring, x32 and unknown architectures are refused. The kernel's own verdicts are tested live in sandboxHardening.*.test.ts.
import { describe, expect, it } from 'vitest';
import { seccompFilter, seccompSupported } from '../../../src/platform/sandbox/seccompFilter';

const ALLOW = 0x7fff0000;
const KILL_PROCESS = 0x80000000;
const EPERM = 0x00050000 | 1;
const ENOSYS = 0x00050000 | 38;

/** Runs `program` on one system call; returns the filter's verdict. Fails on anything but the four opcodes used. */
function run(program: Buffer, call: { arch: number; nr: number; args?: bigint[] }): number {
  const data = Buffer.alloc(64);
  data.writeInt32LE(call.nr | 0, 0);
  data.writeUInt32LE(call.arch, 4);
  (call.args ?? []).forEach((arg, i) => data.writeBigUInt64LE(arg, 16 + 8 * i));
  let acc = 0;
  for (let pc = 0; pc < program.length / 8; pc++) {
    const code = program.readUInt16LE(pc * 8);
    const jt = program.readUInt8(pc * 8 + 2);
    const jf = program.readUInt8(pc * 8 + 3);
    const k = program.readUInt32LE(pc * 8 + 4);
    if (code === 0x20) acc = data.readUInt32LE(k);
    else if (code === 0x15) pc += acc === k ? jt : jf;
    else if (code === 0x35) pc += acc >= k ? jt : jf;
    else if (code === 0x45) pc += (acc & k) !== 0 ? jt : jf;
    else if (code === 0x06) return k;
    else throw new Error(`unexpected opcode ${code.toString(16)} at ${pc}`);
  }
  throw new Error('the program ran off its end');
}

const X86_64 = 0xc000003e;
const I386 = 0x40000003;
const AARCH64 = 0xc00000b7;
const ARM = 0x40000028;

type Row = [string, { arch: number; nr: number; args?: bigint[] }, number];

const X64_ROWS: Row[] = [
  ['socket(AF_UNIX)', { arch: X86_64, nr: 41, args: [1n, 1n, 0n] }, EPERM],
  ['socket(AF_UNIX | SOCK_CLOEXEC type)', { arch: X86_64, nr: 41, args: [1n, 0x80001n, 0n] }, EPERM],
  ['socket(AF_UNIX) with the upper half of the domain set', { arch: X86_64, nr: 41, args: [0x1_00000001n] }, EPERM],
  ['socket(AF_UNIX) with every upper bit set', { arch: X86_64, nr: 41, args: [0xffffffff_00000001n] }, EPERM],
  ['socket(AF_INET)', { arch: X86_64, nr: 41, args: [2n, 1n, 0n] }, ALLOW],
  ['socket(AF_INET6)', { arch: X86_64, nr: 41, args: [10n, 1n, 0n] }, ALLOW],
  ['socket(AF_NETLINK)', { arch: X86_64, nr: 41, args: [16n, 3n, 0n] }, ALLOW],
  ['socketpair(AF_UNIX): Node pipes and IPC', { arch: X86_64, nr: 53, args: [1n, 1n, 0n] }, ALLOW],
  ['connect', { arch: X86_64, nr: 42 }, ALLOW],
  ['read', { arch: X86_64, nr: 0 }, ALLOW],
  ['clone of a thread', { arch: X86_64, nr: 56, args: [0x3d0f00n] }, ALLOW],
  ['clone(CLONE_NEWUSER)', { arch: X86_64, nr: 56, args: [0x10000000n | 0x11n] }, EPERM],
  [
    'clone(CLONE_NEWNS) alone: the kernel refuses it without capabilities',
    { arch: X86_64, nr: 56, args: [0x20000n] },
    ALLOW,
  ],
  ['unshare(CLONE_NEWUSER | CLONE_NEWNS)', { arch: X86_64, nr: 272, args: [0x10020000n] }, EPERM],
  ['unshare(CLONE_NEWUSER) with upper bits set', { arch: X86_64, nr: 272, args: [0xff_10000000n] }, EPERM],
  ['unshare(CLONE_FILES)', { arch: X86_64, nr: 272, args: [0x400n] }, ALLOW],
  ['clone3: its flags are behind a pointer', { arch: X86_64, nr: 435 }, ENOSYS],
  ['i386 clone(CLONE_NEWUSER)', { arch: I386, nr: 120, args: [0x10000000n] }, EPERM],
  ['i386 unshare(CLONE_NEWUSER)', { arch: I386, nr: 310, args: [0x10000000n] }, EPERM],
  ['i386 clone3', { arch: I386, nr: 435 }, ENOSYS],
  ['io_uring_setup', { arch: X86_64, nr: 425 }, ENOSYS],
  ['io_uring_enter', { arch: X86_64, nr: 426 }, ENOSYS],
  ['io_uring_register', { arch: X86_64, nr: 427 }, ENOSYS],
  ['x32 socket(AF_UNIX)', { arch: X86_64, nr: 0x40000000 + 41, args: [1n] }, ENOSYS],
  ['x32 read', { arch: X86_64, nr: 0x40000000 }, ENOSYS],
  ['i386 socket(AF_UNIX)', { arch: I386, nr: 359, args: [1n] }, EPERM],
  ['i386 socket(AF_INET)', { arch: I386, nr: 359, args: [2n] }, ALLOW],
  ['i386 socketcall(SYS_SOCKET): the domain is behind a pointer', { arch: I386, nr: 102, args: [1n, 0x1000n] }, EPERM],
  ['i386 socketcall(SYS_CONNECT)', { arch: I386, nr: 102, args: [3n, 0x1000n] }, ALLOW],
  ['i386 socketcall(SYS_SOCKETPAIR)', { arch: I386, nr: 102, args: [8n, 0x1000n] }, ALLOW],
  ['i386 io_uring_setup', { arch: I386, nr: 425 }, ENOSYS],
  ['i386 read', { arch: I386, nr: 3 }, ALLOW],
  ['an aarch64 call on an x86-64 host', { arch: AARCH64, nr: 198, args: [1n] }, KILL_PROCESS],
  ['an unknown architecture', { arch: 0x12345678, nr: 41, args: [1n] }, KILL_PROCESS],
];

const ARM64_ROWS: Row[] = [
  ['socket(AF_UNIX)', { arch: AARCH64, nr: 198, args: [1n, 1n, 0n] }, EPERM],
  ['socket(AF_UNIX) with the upper half of the domain set', { arch: AARCH64, nr: 198, args: [0x7_00000001n] }, EPERM],
  ['socket(AF_INET)', { arch: AARCH64, nr: 198, args: [2n] }, ALLOW],
  ['socketpair(AF_UNIX)', { arch: AARCH64, nr: 199, args: [1n] }, ALLOW],
  ['io_uring_setup', { arch: AARCH64, nr: 425 }, ENOSYS],
  ['clone(CLONE_NEWUSER)', { arch: AARCH64, nr: 220, args: [0x10000000n] }, EPERM],
  ['clone of a thread', { arch: AARCH64, nr: 220, args: [0x3d0f00n] }, ALLOW],
  ['unshare(CLONE_NEWUSER)', { arch: AARCH64, nr: 97, args: [0x10000000n] }, EPERM],
  ['clone3', { arch: AARCH64, nr: 435 }, ENOSYS],
  ['arm32 clone(CLONE_NEWUSER)', { arch: ARM, nr: 120, args: [0x10000000n] }, EPERM],
  ['arm32 unshare(CLONE_NEWUSER)', { arch: ARM, nr: 337, args: [0x10000000n] }, EPERM],
  ["a number past x32's bit is just a number here", { arch: AARCH64, nr: 0x40000000 }, ALLOW],
  ['arm32 socket(AF_UNIX)', { arch: ARM, nr: 281, args: [1n] }, EPERM],
  ['arm32 socket(AF_INET)', { arch: ARM, nr: 281, args: [2n] }, ALLOW],
  ['arm32 io_uring_setup', { arch: ARM, nr: 425 }, ENOSYS],
  ['an x86-64 call on an aarch64 host', { arch: X86_64, nr: 41, args: [1n] }, KILL_PROCESS],
];

describe('the seccomp filter', () => {
  it.each(X64_ROWS)('x86-64 host, rule "refuse": %s', (_name, call, verdict) => {
    expect(run(seccompFilter('refuse', 'x64')!, call)).toBe(verdict);
  });

  it.each(ARM64_ROWS)('aarch64 host, rule "refuse": %s', (_name, call, verdict) => {
    expect(run(seccompFilter('refuse', 'arm64')!, call)).toBe(verdict);
  });

  it.each([
    ['x64', X86_64, 41],
    ['arm64', AARCH64, 198],
  ] as const)(
    'rule "allow" on %s lets a command create its own Unix sockets, and still refuses io_uring',
    (arch, audit, nr) => {
      const program = seccompFilter('allow', arch)!;
      expect(run(program, { arch: audit, nr, args: [1n] })).toBe(ALLOW);
      expect(run(program, { arch: audit, nr: 425 })).toBe(ENOSYS);
      expect(run(program, { arch: 0x12345678, nr: 0 })).toBe(KILL_PROCESS);
    },
  );

  it('is built for x86-64 and aarch64 only; elsewhere there is none, and the caller says so', () => {
    expect(seccompSupported('x64')).toBe(true);
    expect(seccompSupported('arm64')).toBe(true);
    expect(seccompSupported('riscv64')).toBe(false);
    expect(seccompFilter('refuse', 'riscv64')).toBeUndefined();
  });

  it('is a short program of whole instructions', () => {
    for (const arch of ['x64', 'arm64']) {
      const program = seccompFilter('refuse', arch)!;
      expect(program.length % 8).toBe(0);
      expect(program.length / 8).toBeLessThan(64);
    }
  });
});
