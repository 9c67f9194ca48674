// A command that failed at the sandbox's boundary says which boundary and how to ask for more (docs/sandbox.md),
// recognised from what the command printed and its exit code, never left as a bare exit code.

export type SandboxBoundary = 'filesystem' | 'network';

const READ_ONLY = /read-only file system|EROFS/i;
const NETWORK =
  /could not resolve host|temporary failure in name resolution|network is unreachable|ENETUNREACH|EAI_AGAIN|getaddrinfo|name or service not known|failed to fetch|fetch failed|no address associated/i;

export interface BoundaryContext {
  writable: readonly string[];
  networkOff: boolean;
}

/** Which boundary a failed sandboxed command hit, if its output shows one. */
export function sandboxBoundaryHit(output: string, exitCode: number | null): SandboxBoundary | undefined {
  if (exitCode === 0) return undefined;
  if (READ_ONLY.test(output)) return 'filesystem';
  if (NETWORK.test(output)) return 'network';
  return undefined;
}

/** The sentence added to a failed sandboxed command's result; undefined when the failure is not the sandbox's. */
export function explainSandboxFailure(
  output: string,
  exitCode: number | null,
  ctx: BoundaryContext,
): string | undefined {
  const hit = sandboxBoundaryHit(output, exitCode);
  if (hit === 'filesystem') {
    return (
      'The command hit the sandbox filesystem boundary (read-only file system): only ' +
      `${ctx.writable.join(', ')} and a private /tmp are writable; the rest of the machine is read-only, and secret ` +
      'files (.env, keys, credentials) and home dotfiles are hidden. To write elsewhere, ask the user to add the ' +
      'folder (--add-dir, or [sandbox] writable_paths), or rerun with dangerously_unsandboxed: true, which asks for ' +
      'approval.'
    );
  }
  if (hit === 'network' && ctx.networkOff) {
    return (
      'The command hit the sandbox network boundary: the network is off inside the sandbox ([sandbox] network = ' +
      '"off"). If it needs the network, ask the user to set [sandbox] network = "on", or rerun with ' +
      'dangerously_unsandboxed: true, which asks for approval.'
    );
  }
  return undefined;
}
