// What "approve for this session" remembers (docs/approvals.md "Approved for this session"). For a call that starts
// a program it names the sandbox the approval was given for: `Bash(npm *) [sandboxed]` covers `npm test` inside the
// command sandbox and never the same command outside it, which needs `Bash(npm *) [unsandboxed]` (issue 43). The
// journal's `session_approval` records carry the same text, so they say which.
import type { BoundaryFacts } from '../../tools/defineTool';

export type Confinement = BoundaryFacts['confinement'];

const NAMED = /^(.*\)) \[(sandboxed|unsandboxed)\]$/s;

/** The entry remembered for `pattern` approved for a call with `facts` (none: a call that starts no program). */
export function sessionApprovalEntry(pattern: string, facts: BoundaryFacts | undefined): string {
  return facts ? `${pattern} [${facts.confinement}]` : pattern;
}

/**
 * The pattern of a remembered `entry` when it may cover a call running with `confinement` (undefined for a call that
 * starts no program), else undefined. An approval to run outside the sandbox covers running inside it too (less
 * reach); one given inside never covers outside. An entry that names no sandbox (written before approvals named it)
 * covers only sandboxed runs: the narrower reading.
 */
export function coversConfinement(entry: string, confinement: Confinement | undefined): string | undefined {
  const named = NAMED.exec(entry);
  if (!named) return confinement === 'unsandboxed' ? undefined : entry;
  if (confinement === undefined) return undefined;
  return named[2] === 'unsandboxed' || confinement === 'sandboxed' ? named[1] : undefined;
}
