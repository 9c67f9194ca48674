// The command sandbox on Linux: the argument list for the system's bubblewrap (`bwrap`) that confines one shell
// command, and the probe that says whether bwrap can create namespaces here (docs/sandbox.md). The filesystem
// is the host's, read-only; only the given folders are writable; masked paths read as empty; /tmp and /run are
// private; /dev is a minimal devtmpfs of bwrap's own, so nothing inside can replace /dev/null. The command runs in
// its own user (root included: uid 0 stays uid 0, with every capability dropped and no_new_privs, so it cannot
// mount, unmount or remount anything), PID, IPC, UTS and cgroup namespaces, and in its own network namespace unless
// the network is on; a seccomp filter refuses Unix sockets (unixSockets.ts, seccompFilter.ts). It holds for root
// too: confinement is by mounts, namespaces and the filter, not by file permissions.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, realpathSync } from 'node:fs';
import { bridgeCommand } from './proxyBridge';
import { BRIDGE_CHANNEL_FD, SECCOMP_FD, type SandboxChannels } from './sandboxChannels';
import { seccompFilter } from './seccompFilter';
import { socketEnvArgs, socketFileArgs, socketFolderArgs, type UnixSocketPolicy } from './unixSockets';

/** `allowlist`: the network namespace stays closed; the only way out is the proxy's socket (proxyBridge.ts). */
export type SandboxNetwork = 'off' | 'on' | 'allowlist';

export interface BwrapPolicy {
  /** Folders (or files) the command may write: the workspace, the session's scratch folder, configured extras. */
  writable: readonly string[];
  /** Paths hidden from the command: folders become an empty tmpfs, files read as empty. */
  hidden: readonly string[];
  /** Paths that stay read-only even inside a writable folder (`.git/hooks`, `.git/config`). */
  readOnly: readonly string[];
  network: SandboxNetwork;
  /** What a hidden file reads as (default /dev/null: empty); a note saying the sandbox hid it is clearer. */
  maskFile?: string;
  /** Extra environment inside the sandbox. */
  env?: Readonly<Record<string, string>>;
  /** With network `allowlist`: the host path of the proxy's Unix socket (allowlistProxy.ts). */
  proxySocket?: string;
  /** Unix sockets (unixSockets.ts); absent: commands cannot create any, and none outside is reachable. */
  unixSockets?: UnixSocketPolicy;
}

const NO_UNIX_SOCKETS: UnixSocketPolicy = { rule: 'refuse', allowed: [], keepEnv: [] };

/** What the spawn hands bwrap besides the arguments: the seccomp filter, the bridge's proxy (sandboxChannels.ts). */
export function bwrapChannels(policy: BwrapPolicy): SandboxChannels {
  const seccomp = seccompFilter((policy.unixSockets ?? NO_UNIX_SOCKETS).rule);
  const proxySocket = policy.network === 'allowlist' ? policy.proxySocket : undefined;
  return { ...(seccomp ? { seccomp } : {}), ...(proxySocket ? { proxySocket } : {}) };
}

/**
 * The bwrap arguments that run `shell -c command` under `policy` (the caller adds nothing after them). The spawn must
 * hand in bwrapChannels(policy) (platform/processes.ts spawnShell does).
 */
export function bwrapArgs(policy: BwrapPolicy, shell: string, command: string): string[] {
  const sockets = policy.unixSockets ?? NO_UNIX_SOCKETS;
  const channels = bwrapChannels(policy);
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp'];
  // The socket folders of this process's environment and of the session's when that differs (an SDK query's env).
  const session = policy.unixSockets?.sessionEnv;
  args.push(...socketFolderArgs(session && session !== process.env ? [process.env, session] : [process.env]));
  // TMPDIR may name a folder the private /tmp does not have.
  args.push('--setenv', 'TMPDIR', '/tmp', ...socketEnvArgs(sockets), ...rootEnvArgs());
  args.push(...ISOLATION);
  for (const [name, value] of Object.entries(policy.env ?? {})) args.push('--setenv', name, value);
  if (policy.network === 'on') args.push('--share-net');
  // A command must not outlive Jarvis, nor reach the controlling terminal (TIOCSTI) through the session.
  args.push('--die-with-parent', '--new-session');
  if (channels.seccomp) args.push('--seccomp', String(SECCOMP_FD));
  // Hidden first, then the writable folders over them, then the read-only and hidden paths inside those:
  // a later mount wins where two cover one path. Hidden folders turn read-only last, once the mounts inside them
  // exist, so a write there fails loudly (EROFS) instead of vanishing with the tmpfs.
  // A hidden path inside a read-only one (`~/.config/git/credentials` in a readable `~/.config/git`) is masked after
  // it too.
  const emptied: string[] = [];
  const mounted = [...policy.writable, ...policy.readOnly];
  const hidden = hiddenTargets(policy.hidden, mounted);
  const mask = (h: HiddenTarget) => args.push(...hide(h, policy.maskFile, emptied));
  for (const h of hidden) if (!insideAny(h.path, mounted)) mask(h);
  for (const path of policy.writable) if (existsSync(path)) args.push('--bind', path, path);
  for (const path of policy.readOnly) if (existsSync(path)) args.push('--ro-bind', path, path);
  const late = hidden.filter((h) => insideAny(h.path, mounted));
  for (const h of late) mask(h);
  // A writable or read-only path inside a folder just hidden is bound again, then what is hidden inside it.
  const again = coveredByLateMasks(late, policy);
  for (const path of policy.writable) if (again.includes(path)) args.push('--bind', path, path);
  for (const path of policy.readOnly) if (again.includes(path)) args.push('--ro-bind', path, path);
  for (const h of late) if (insideAny(h.target, again)) mask(h);
  args.push(...socketFileArgs(sockets, emptied));
  for (const path of new Set(emptied)) args.push('--remount-ro', path);
  if (policy.network === 'allowlist') {
    if (!channels.proxySocket) throw new Error('network = "allowlist" needs the proxy socket (docs/sandbox.md)');
    return [...args, '--', ...bridgeCommand(shell, command, [SECCOMP_FD, BRIDGE_CHANNEL_FD])];
  }
  args.push('--', shell, '-c', command);
  return args;
}

/**
 * The namespaces, and no capabilities: `--unshare-user` is forced because bwrap run by root otherwise keeps every
 * capability inside (mount, umount and remount would undo the sandbox); root stays uid 0 in a user namespace of its
 * own, with the bounding set empty, so nothing inside (unshare, nsenter, a set-uid program) gets one back.
 */
const ISOLATION = ['--unshare-all', '--unshare-user', '--cap-drop', 'ALL'];

/**
 * For root, who keeps uid 0 without the capability to change a file's owner: GNU tar restores the owners recorded in
 * an archive when run as root and fails where it cannot, so extracting keeps the extractor as owner, as it does for
 * everyone else (a TAR_OPTIONS of the user's own still applies after it).
 */
function rootEnvArgs(): string[] {
  if (process.getuid?.() !== 0) return [];
  const own = process.env.TAR_OPTIONS?.trim();
  return ['--setenv', 'TAR_OPTIONS', own ? `--no-same-owner ${own}` : '--no-same-owner'];
}

/** A hidden path as bwrap mounts it: its real path (never through a link: a link to a secret hides the secret). */
interface HiddenTarget {
  path: string;
  target: string;
  isDir: boolean;
}

/**
 * The hidden paths to mount, each once. One inside a hidden folder with no writable or read-only folder bound between
 * them is emptied with that folder already, and is left out: masked first, it would be covered by the folder's tmpfs
 * and could then not be remounted read-only (`~/.claude` when JARVIS_CODE_HOME is the home folder).
 */
function hiddenTargets(paths: readonly string[], mounted: readonly string[]): HiddenTarget[] {
  const resolved = new Map<string, HiddenTarget>();
  for (const path of paths) {
    try {
      const target = realpathSync(path);
      if (!resolved.has(target)) resolved.set(target, { path, target, isDir: lstatSync(target).isDirectory() });
    } catch {
      // gone (or a dangling link) since it was listed: nothing left to hide
    }
  }
  const all = [...resolved.values()];
  const folders = all.filter((h) => h.isDir);
  const emptiedWith = (h: HiddenTarget, folder: HiddenTarget) =>
    folder.target !== h.target &&
    insideAny(h.target, [folder.target]) &&
    !mounted.some((m) => m !== folder.target && insideAny(m, [folder.target]) && insideAny(h.target, [m]));
  return all.filter((h) => !folders.some((folder) => emptiedWith(h, folder)));
}

/**
 * The writable paths inside a folder hidden after the mounts (the session's scratch folder inside JARVIS_CODE_HOME
 * when a writable folder holds JARVIS_CODE_HOME), and the read-only paths inside those: bound again over that folder's
 * tmpfs, so hiding a folder never takes away a deeper one the command was given to write.
 */
function coveredByLateMasks(late: readonly HiddenTarget[], policy: BwrapPolicy): string[] {
  const folders = late.filter((h) => h.isDir).map((h) => h.target);
  const covered = (path: string) => folders.some((f) => f !== path && insideAny(path, [f])) && existsSync(path);
  const writable = policy.writable.filter(covered);
  // A read-only path comes back only inside a writable one that did (a guarded .git/hooks): otherwise what the mask
  // hides stays hidden.
  return [...writable, ...policy.readOnly.filter((path) => covered(path) && insideAny(path, writable))];
}

function hide(h: HiddenTarget, maskFile: string | undefined, emptied: string[]): string[] {
  if (!h.isDir) return ['--ro-bind', maskFile ?? '/dev/null', h.target];
  emptied.push(h.target);
  return ['--tmpfs', h.target];
}

function insideAny(path: string, folders: readonly string[]): boolean {
  return folders.some((f) => path === f || path.startsWith(f.endsWith('/') ? f : `${f}/`));
}

export type BwrapProbe = { ok: true; path: string } | { ok: false; reason: string };

const probes = new Map<string, BwrapProbe>();

/**
 * Whether `bwrap` runs and can create the namespaces the sandbox needs, checked once per path and process by
 * running `true` inside the same kind of sandbox. The reason says what to install or enable when it cannot.
 */
export function probeBwrap(bwrap = 'bwrap'): BwrapProbe {
  const known = probes.get(bwrap);
  if (known) return known;
  const probe = runProbe(bwrap);
  probes.set(bwrap, probe);
  return probe;
}

/**
 * The probe: `true` inside the same kind of sandbox the commands get — the namespaces, no capabilities, and the
 * seccomp filter, which bwrap reads from the probe's stdin (`true` needs no stdin).
 */
function probeRun(): { args: string[]; input?: Buffer } {
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', ...ISOLATION, '--die-with-parent'];
  const filter = seccompFilter('refuse');
  if (!filter) return { args: [...args, '--', 'true'] };
  return { args: [...args, '--seccomp', '0', '--', 'true'], input: filter };
}

/**
 * The same probe without blocking (start-up runs it beside its other work, docs/sandbox.md): the result is cached, so
 * the first command's `probeBwrap` finds it.
 */
export function probeBwrapInBackground(bwrap = 'bwrap'): Promise<BwrapProbe> {
  const known = probes.get(bwrap);
  if (known) return Promise.resolve(known);
  if (process.platform !== 'linux') return Promise.resolve(probeBwrap(bwrap));
  return new Promise((resolveProbe) => {
    let stderr = '';
    const { args, input } = probeRun();
    const child = spawn(bwrap, args, { stdio: [input ? 'pipe' : 'ignore', 'ignore', 'pipe'] });
    // A bwrap that exits before reading (not installed, no namespaces) is reported by its exit, not by this pipe.
    child.stdin?.on('error', () => child.stdin?.destroy());
    child.stdin?.end(input);
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const settle = (probe: BwrapProbe) => {
      clearTimeout(timer);
      if (!probes.has(bwrap)) probes.set(bwrap, probe);
      resolveProbe(probes.get(bwrap)!);
    };
    child.on('error', (error) => settle(probeFailure(bwrap, error, '', null)));
    child.on('close', (status, signal) =>
      settle(status === 0 ? { ok: true, path: bwrap } : probeFailure(bwrap, undefined, stderr, status ?? signal)),
    );
  });
}

function runProbe(bwrap: string): BwrapProbe {
  if (process.platform !== 'linux') {
    return { ok: false, reason: `the command sandbox is built for Linux only (this is ${process.platform})` };
  }
  const { args, input } = probeRun();
  const run = spawnSync(bwrap, args, { encoding: 'utf8', timeout: 10_000, stdio: 'pipe', ...(input ? { input } : {}) });
  if (!run.error && run.status === 0) return { ok: true, path: bwrap };
  return probeFailure(bwrap, run.error, run.stderr || '', run.status ?? run.signal);
}

function probeFailure(bwrap: string, error: Error | undefined, stderr: string, exit: unknown): BwrapProbe {
  if (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') {
      return { ok: false, reason: `${bwrap} is not installed (install the distribution's bubblewrap package)` };
    }
    return { ok: false, reason: `${bwrap} could not be run: ${error.message}` };
  }
  const said = stderr.trim().split('\n')[0] || `exit ${String(exit)}`;
  if (/seccomp/i.test(said)) {
    return {
      ok: false,
      reason: `${bwrap} cannot load the sandbox's seccomp filter here (${said}); the kernel needs seccomp filters`,
    };
  }
  return {
    ok: false,
    reason:
      `${bwrap} cannot create namespaces here (${said}); allow unprivileged user namespaces ` +
      '(sysctl kernel.unprivileged_userns_clone=1, or an AppArmor profile for bwrap) or run where they are allowed',
  };
}
