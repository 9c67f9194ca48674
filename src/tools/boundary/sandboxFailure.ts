// A command that failed at the sandbox's boundary says which boundary and how to ask for more (docs/sandbox.md),
// recognised from what the command printed and its exit code, never left as a bare exit code.

import { existsSync } from 'node:fs';
import { dirname } from 'node:path';

export type SandboxBoundary = 'filesystem' | 'network' | 'tmp';

const READ_ONLY = /read-only file system|EROFS/i;
const NETWORK = new RegExp(
  [
    'could not resolve host',
    'temporary failure in name resolution',
    'network is unreachable',
    'ENETUNREACH',
    'EAI_AGAIN',
    'getaddrinfo',
    'name or service not known',
    'failed to fetch',
    'fetch failed',
    'no address associated',
  ].join('|'),
  'i',
);

export interface BoundaryContext {
  writable: readonly string[];
  networkOff: boolean;
  /** Allowlist mode: what the network proxy refused while the command ran (sandboxNetwork.ts). */
  refusedHosts?: () => ReadonlyArray<{ host: string; port: number; why: string }>;
  /** The seccomp filter refuses Unix sockets (`[sandbox] unix_sockets = "refuse"`, docs/sandbox.md). */
  unixSocketsRefused?: boolean;
}

/** Which boundary a failed sandboxed command hit, if its output shows one. */
export function sandboxBoundaryHit(output: string, exitCode: number | null): SandboxBoundary | undefined {
  if (exitCode === 0) return undefined;
  if (READ_ONLY.test(output)) return 'filesystem';
  if (NETWORK.test(output)) return 'network';
  if (outsideTmpPath(output)) return 'tmp';
  return undefined;
}

const MISSING_TMP = /(\/tmp\/[^\s:'"]+): No such file or directory/g;

/** A /tmp path the command could not find although its folder exists outside the sandbox (the private /tmp). */
function outsideTmpPath(output: string): string | undefined {
  for (const m of output.matchAll(MISSING_TMP)) if (existsSync(dirname(m[1]))) return m[1];
  return undefined;
}

/** Who reads the explanation: the model (a Bash result) or the user (the TUI's `!` shell mode). */
export type SandboxAudience = 'model' | 'user';

/** How the reader can run the command outside: the model asks for approval; the user's own `!` commands opt out. */
function leave(audience: SandboxAudience): string {
  return audience === 'model'
    ? 'rerun with dangerously_unsandboxed: true, which asks for approval'
    : 'run `!` commands outside the sandbox with [sandbox] shell_mode = "unsandboxed" in config.toml';
}

/** The sentence added to a failed sandboxed command's result; undefined when the failure is not the sandbox's. */
export function explainSandboxFailure(
  output: string,
  exitCode: number | null,
  ctx: BoundaryContext,
  audience: SandboxAudience = 'model',
): string | undefined {
  if (ctx.unixSocketsRefused && exitCode !== 0 && unixSocketRefused(output)) return explainUnixSocket(audience);
  if (ctx.refusedHosts && exitCode !== 0) {
    const allowlist = explainAllowlistFailure(output, ctx.refusedHosts());
    if (allowlist) return allowlist;
  }
  const hit = sandboxBoundaryHit(output, exitCode);
  const ask = audience === 'model' ? 'ask the user to add the folder' : 'add the folder';
  if (hit === 'filesystem') {
    return (
      'The command hit the sandbox filesystem boundary (read-only file system): only ' +
      `${ctx.writable.join(', ')} and a private /tmp are writable; the rest of the machine is read-only, and secret ` +
      `files (.env, keys, credentials) and home dotfiles are hidden. To write elsewhere, ${ask} ` +
      `(--add-dir, or [sandbox] writable_paths), or ${leave(audience)}.`
    );
  }
  if (hit === 'tmp') {
    return (
      'The command hit the sandbox filesystem boundary: /tmp inside the sandbox is private, so ' +
      `${outsideTmpPath(output)} (or its folder) outside it is not visible. ` +
      `Work in the workspace, or ${ask} ` +
      `(--add-dir, or [sandbox] writable_paths), or ${leave(audience)}.`
    );
  }
  if (hit === 'network' && ctx.networkOff) {
    const on = audience === 'model' ? 'ask the user to set' : 'set';
    return (
      'The command hit the sandbox network boundary: the network is off inside the sandbox ([sandbox] network = ' +
      `"off"). If it needs the network, ${on} [sandbox] network = "on", or ${leave(audience)}.`
    );
  }
  return undefined;
}

/**
 * A socket refused with EPERM, as programs print it (`connect EPERM`, `socket: Operation not permitted`, ssh-add's
 * `Error connecting to agent: Operation not permitted`, Python's PermissionError from socket.py). A raw socket
 * refused for want of a capability reads the same, so the explanation says "may have".
 */
function unixSocketRefused(output: string): boolean {
  if (/(socket|connect|agent)[^\n]{0,120}(Operation not permitted|EPERM)/i.test(output)) return true;
  return /socket/i.test(output) && /PermissionError: \[Errno 1\]/.test(output);
}

function explainUnixSocket(audience: SandboxAudience): string {
  const ask = audience === 'model' ? 'ask the user to set' : 'set';
  return (
    "The command may have hit the sandbox's Unix-socket boundary: commands cannot create Unix sockets inside the " +
    'sandbox (so no SSH agent, D-Bus, Docker or other socket outside is reachable; pipes and socketpair work). If ' +
    `it needs sockets of its own (tmux, Python's forkserver, a test server), ${ask} [sandbox] unix_sockets = "own"; ` +
    `to reach one outside, [sandbox] allow_unix_sockets; or ${leave(audience)}.`
  );
}

/** Allowlist mode: the hosts the proxy refused, or a connection that did not go through the proxy. */
function explainAllowlistFailure(
  output: string,
  refused: ReadonlyArray<{ host: string; port: number; why: string }>,
): string | undefined {
  if (refused.length > 0) {
    const hosts = [...new Set(refused.map((r) => `${r.host}:${r.port}${r.why === 'not listed' ? '' : ` (${r.why})`}`))];
    return (
      `The command hit the sandbox network boundary: the sandbox's network proxy refused ${hosts.join(', ')}, ` +
      'not in [sandbox] allowed_domains of config.toml. If the command needs it, ask the user to add the domain to ' +
      '[sandbox] allowed_domains, or rerun with dangerously_unsandboxed: true, which asks for approval.'
    );
  }
  if (!NETWORK.test(output) && !CONNECT_FAILED.test(output)) return undefined;
  return (
    'The command hit the sandbox network boundary: inside the sandbox the only way out is the proxy named by ' +
    'HTTP_PROXY/HTTPS_PROXY ([sandbox] network = "allowlist"), to the domains of [sandbox] allowed_domains; a program ' +
    "that ignores those variables (Node's fetch, raw sockets, DNS) cannot connect. Use a client that honours them " +
    '(curl, npm, pip, git), or rerun with dangerously_unsandboxed: true, which asks for approval.'
  );
}

const CONNECT_FAILED = /connection refused|ECONNREFUSED|couldn't connect|failed to connect/i;
