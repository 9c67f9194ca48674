// Unix sockets outside the command sandbox (docs/sandbox.md#unix-sockets-and-seccomp). By default the seccomp filter
// (seccompFilter.ts) refuses creating a Unix socket at all, which closes every path and abstract socket at once;
// on top of that, and alone when the user lets commands create their own (`[sandbox] unix_sockets = "sandbox"`) or
// names sockets to reach (`allow_unix_sockets`), the places sockets live are hidden: /run (so /var/run, /run/user/*,
// XDG_RUNTIME_DIR, the D-Bus system bus, docker.sock, …), a /var/run or XDG_RUNTIME_DIR of its own, every socket file
// the host's network namespace has bound (/proc/net/unix) where commands could see it, and the variables that point
// at sockets. Only the sockets the user named are bound back in.
import { lstatSync, readdirSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute } from 'node:path';
import type { UnixSocketRule } from './seccompFilter';

export interface UnixSocketPolicy {
  /** `refuse`: commands cannot create Unix sockets (the seccomp filter); `allow`: they can create their own. */
  rule: UnixSocketRule;
  /** Sockets outside that stay reachable, each bound in at this path ([sandbox] allow_unix_sockets). */
  allowed: readonly string[];
  /** Variables naming a socket that is allowed: they stay set inside (`SSH_AUTH_SOCK` for an allowed agent). */
  keepEnv: readonly string[];
  /**
   * The environment commands start from when it is not the process's own (an SDK query's `env`: tools/sessionEnv.ts):
   * its XDG_RUNTIME_DIR is hidden as well as the process's.
   */
  sessionEnv?: Readonly<NodeJS.ProcessEnv>;
}

/** Variables that point at sockets or their folder outside; unset inside unless `keepEnv` names them. */
export const SOCKET_ENV: readonly string[] = [
  'SSH_AUTH_SOCK',
  'GPG_AGENT_INFO',
  'DBUS_SESSION_BUS_ADDRESS',
  'DBUS_SYSTEM_BUS_ADDRESS',
  'XDG_RUNTIME_DIR',
  'WAYLAND_DISPLAY',
  'DOCKER_HOST',
];

/**
 * The socket path a variable's value names: `unix:path=…` (D-Bus), `unix://…` (Docker), else the value itself when
 * absolute. Undefined for abstract addresses, TCP and the rest.
 */
export function socketPathIn(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const path = /^unix:path=([^,;]+)/.exec(value)?.[1] ?? /^unix:\/\/(\/.*)$/.exec(value)?.[1] ?? value;
  return isAbsolute(path) ? path : undefined;
}

/** The socket variables whose socket is one of `allowed` (compared after resolving links): they stay set inside. */
export function socketEnvToKeep(allowed: readonly string[], env: Readonly<NodeJS.ProcessEnv> = process.env): string[] {
  const reals = new Set(allowed.map((p) => realFile(p) ?? p));
  return SOCKET_ENV.filter((name) => {
    const path = socketPathIn(env[name]);
    return path !== undefined && reals.has(realFile(path) ?? path);
  });
}

/** Where sockets live on a Linux system: each becomes an empty private folder inside. */
const SOCKET_DIRS = ['/run', '/var/run'];
/** System files that may be links into /run (systemd-resolved, resolvconf, NetworkManager): their targets stay. */
const RUN_LINKED_FILES = ['/etc/resolv.conf'];

/**
 * The bwrap arguments that hide the socket folders, run before any writable folder is bound (a workspace under
 * /run stays reachable). Links directly in /run (NixOS's /run/current-system) are made again: a link holds no socket.
 */
export function socketFolderArgs(envs: ReadonlyArray<Readonly<NodeJS.ProcessEnv>> = [process.env]): string[] {
  const args: string[] = [];
  const runtimes = envs.map((env) => env.XDG_RUNTIME_DIR).filter((r): r is string => !!r && isAbsolute(r));
  const folders = [...SOCKET_DIRS, ...runtimes];
  const hidden: string[] = [];
  for (const folder of folders) {
    const real = realDir(folder);
    if (!real || hidden.some((h) => real === h || real.startsWith(`${h}/`))) continue;
    // A runtime folder set to / or the home folder (or above it) by mistake would hide the system or the home.
    if (real === '/' || `${homedir()}/`.startsWith(`${real}/`)) continue;
    hidden.push(real);
    args.push('--tmpfs', real);
    for (const [link, target] of linksIn(real)) args.push('--symlink', target, link);
  }
  for (const file of RUN_LINKED_FILES) {
    const real = realFile(file);
    if (real && real !== file && hidden.some((h) => real.startsWith(`${h}/`))) args.push('--ro-bind', real, real);
  }
  return args;
}

/**
 * The arguments that bind the allowed sockets back in and, where commands may create Unix sockets, cover every other
 * socket file the host has bound (read from /proc/net/unix) with an empty device, so it refuses connections. Run last:
 * `hidden` are the folders already emptied, whose sockets need no cover.
 */
export function socketFileArgs(policy: UnixSocketPolicy, hidden: readonly string[]): string[] {
  const args: string[] = [];
  const allowed = new Set<string>();
  for (const path of policy.allowed) {
    const real = realFile(path);
    if (!real || !isSocket(real)) continue; // not there now (an agent not running): nothing to bind
    allowed.add(real);
    args.push('--ro-bind', real, path);
  }
  if (policy.rule === 'refuse') return args;
  for (const path of boundSocketPaths()) {
    const covered = [...SOCKET_DIRS, '/tmp', ...hidden].some((h) => path === h || path.startsWith(`${h}/`));
    if (covered || allowed.has(path) || !isSocket(path) || !reachableWithoutCapabilities(path)) continue;
    args.push('--ro-bind', '/dev/null', path);
  }
  return args;
}

/** `--unsetenv` for each socket variable the policy does not keep. */
export function socketEnvArgs(policy: UnixSocketPolicy): string[] {
  return SOCKET_ENV.filter((name) => !policy.keepEnv.includes(name)).flatMap((name) => ['--unsetenv', name]);
}

/** Absolute paths of the socket files bound in this network namespace (abstract names start with `@`; skipped). */
function boundSocketPaths(): string[] {
  let table: string;
  try {
    table = readFileSync('/proc/net/unix', 'utf8');
  } catch {
    return []; // no /proc here: nothing listed to cover (the folders above are hidden all the same)
  }
  const paths = new Set<string>();
  for (const line of table.split('\n').slice(1)) {
    const path = line.trim().split(/\s+/)[7];
    if (path?.startsWith('/')) paths.add(path);
  }
  return [...paths];
}

/**
 * Whether a process with no capabilities (every sandboxed command: docs/sandbox.md "Capabilities") and Jarvis's
 * user could pass through every folder above `path`. Jarvis running as root can see a socket inside another user's
 * 0700 folder, but a command cannot reach it, and bwrap — holding no capability over that user's files inside its
 * user namespace — cannot place a cover there either (the whole command would fail). Such a socket needs no cover.
 * Fail closed: a folder that grants search to its group or to others counts as passable whatever the groups (an
 * ACL's mask shows in the group bits), and a folder that cannot be examined counts as passable.
 */
function reachableWithoutCapabilities(path: string): boolean {
  const uid = process.getuid?.();
  if (uid === undefined) return true;
  const parts = path.split('/').filter(Boolean).slice(0, -1);
  let dir = '';
  for (const part of parts) {
    dir += `/${part}`;
    let st;
    try {
      st = lstatSync(dir);
    } catch {
      return true;
    }
    if (st.uid !== uid && (st.mode & 0o011) === 0) return false;
  }
  return true;
}

function realDir(path: string): string | undefined {
  try {
    const real = realpathSync(path);
    return lstatSync(real).isDirectory() ? real : undefined;
  } catch {
    return undefined;
  }
}

function realFile(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

function isSocket(path: string): boolean {
  try {
    return lstatSync(path).isSocket();
  } catch {
    return false;
  }
}

function linksIn(dir: string): Array<[string, string]> {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return []; // unreadable: its links are not made again, and what it holds stays hidden
  }
  const links: Array<[string, string]> = [];
  for (const entry of entries) {
    if (!entry.isSymbolicLink()) continue;
    const link = `${dir}/${entry.name}`;
    try {
      links.push([link, readlinkSync(link)]);
    } catch {
      // removed while we looked: nothing to make again
    }
  }
  return links;
}
