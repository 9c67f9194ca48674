// The command sandbox on Linux: the argument list for the system's bubblewrap (`bwrap`) that confines one shell
// command, and the probe that says whether bwrap can create namespaces here (docs/sandbox.md). The filesystem
// is the host's, read-only; only the given folders are writable; masked paths read as empty; /tmp is private;
// /dev is a minimal devtmpfs of bwrap's own, so nothing inside can replace /dev/null. The command runs in its own
// user, PID, IPC, UTS and cgroup namespaces, and in its own network namespace unless the network is on. It
// holds for root too: confinement is by mounts and namespaces, not by file permissions.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, realpathSync } from 'node:fs';
import { bridgeArgs } from './proxyBridge';

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
}

/** The bwrap arguments that run `shell -c command` under `policy` (the caller adds nothing after them). */
export function bwrapArgs(policy: BwrapPolicy, shell: string, command: string): string[] {
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp'];
  // TMPDIR may name a folder the private /tmp does not have.
  args.push('--setenv', 'TMPDIR', '/tmp', '--unshare-all');
  for (const [name, value] of Object.entries(policy.env ?? {})) args.push('--setenv', name, value);
  if (policy.network === 'on') args.push('--share-net');
  // A command must not outlive Jarvis, nor reach the controlling terminal (TIOCSTI) through the session.
  args.push('--die-with-parent', '--new-session');
  // Hidden first, then the writable folders over them, then the read-only and hidden paths inside those:
  // a later mount wins where two cover one path. Hidden folders turn read-only last, once the mounts inside them
  // exist, so a write there fails loudly (EROFS) instead of vanishing with the tmpfs.
  const emptied: string[] = [];
  const mask = (path: string) => args.push(...hide(path, policy.maskFile, emptied));
  for (const path of policy.hidden) if (!insideAny(path, policy.writable)) mask(path);
  for (const path of policy.writable) if (existsSync(path)) args.push('--bind', path, path);
  for (const path of policy.readOnly) if (existsSync(path)) args.push('--ro-bind', path, path);
  for (const path of policy.hidden) if (insideAny(path, policy.writable)) mask(path);
  for (const path of emptied) args.push('--remount-ro', path);
  if (policy.network === 'allowlist') {
    if (!policy.proxySocket) throw new Error('network = "allowlist" needs the proxy socket (docs/sandbox.md)');
    const bridge = bridgeArgs(policy.proxySocket, shell, command);
    return [...args, ...bridge.mounts, '--', ...bridge.run];
  }
  args.push('--', shell, '-c', command);
  return args;
}

function hide(path: string, maskFile: string | undefined, emptied: string[]): string[] {
  let target: string;
  let isDir: boolean;
  try {
    // bwrap mounts onto a real path, never through a link: a link to a secret hides the secret itself.
    target = realpathSync(path);
    isDir = lstatSync(target).isDirectory();
  } catch {
    return []; // gone (or a dangling link) since it was listed: nothing left to hide
  }
  if (!isDir) return ['--ro-bind', maskFile ?? '/dev/null', target];
  emptied.push(target);
  return ['--tmpfs', target];
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

/** The probe's arguments: `true` inside the same kind of sandbox the commands get. */
const PROBE_ARGS = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--unshare-all', '--die-with-parent'];

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
    const child = spawn(bwrap, [...PROBE_ARGS, '--', 'true'], { stdio: ['ignore', 'ignore', 'pipe'] });
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
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
  const run = spawnSync(bwrap, [...PROBE_ARGS, '--', 'true'], { encoding: 'utf8', timeout: 10_000, stdio: 'pipe' });
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
  return {
    ok: false,
    reason:
      `${bwrap} cannot create namespaces here (${said}); allow unprivileged user namespaces ` +
      '(sysctl kernel.unprivileged_userns_clone=1, or an AppArmor profile for bwrap) or run where they are allowed',
  };
}
