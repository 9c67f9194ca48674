// What a review may do (docs/ci.md "What the review may do"), enforced by the engine's own policy rather than by the
// prompt: the review agents are offered only reading tools (no Write, no Edit), the session runs in manual mode with
// no one to ask — so anything the tool defaults or rules would ask about is refused — and the rules allow Bash only
// for read-only git commands. The user's deny and ask rules stay; their allow rules do not apply to a review.
import { AgentCatalog } from '../../ext/agents/agentCatalog';
import type { AgentProfile } from '../../ext/agents/agentFile';
import type { PermissionRule } from '../../engine/policy/approvals';
import reviewAgentPrompt from './reviewAgent.md';
import reviewFilesPrompt from './reviewFilesAgent.md';

const SOURCE = 'jarvis review (docs/ci.md)';

/** The git subcommands a review may run: each only reads the repository. */
export const READ_ONLY_GIT = ['diff', 'log', 'show', 'blame'] as const;

/** The subagent type a large review hands each group of files to. */
export const REVIEW_FILES_AGENT = 'review-files';

const READING_TOOLS = ['Read', 'Grep', 'Glob', 'Bash'];

export const REVIEW_AGENT: AgentProfile = {
  name: 'review',
  description: 'Reviews a change (jarvis review)',
  override: false,
  tools: [...READING_TOOLS, 'Agent', 'AgentSwarm'],
  disallowedTools: [],
  subagents: [REVIEW_FILES_AGENT],
  prompt: reviewAgentPrompt,
  source: 'explicit',
};

const REVIEW_FILES: AgentProfile = {
  name: REVIEW_FILES_AGENT,
  description: 'Reviews the changes of a group of files and answers with a JSON array of findings',
  override: false,
  tools: READING_TOOLS,
  disallowedTools: [],
  subagents: [],
  prompt: reviewFilesPrompt,
  source: 'explicit',
};

/** The agents of a review: the reviewer and the subagent type it delegates groups of files to; no others. */
export function reviewAgentCatalog(): AgentCatalog {
  return new AgentCatalog(
    new Map([
      [REVIEW_AGENT.name, REVIEW_AGENT],
      [REVIEW_FILES.name, REVIEW_FILES],
    ]),
    [],
  );
}

/** The rules a review runs under: the user's deny and ask rules, then the review's own. */
export function reviewRules(configured: readonly PermissionRule[]): PermissionRule[] {
  const rule = (decision: PermissionRule['decision'], pattern: string, reason?: string): PermissionRule => ({
    decision,
    pattern,
    source: SOURCE,
    ...(reason ? { reason } : {}),
  });
  const noWrite = 'a review never changes a file';
  return [
    ...configured.filter((r) => r.decision !== 'allow'),
    rule('deny', 'Write', noWrite),
    rule('deny', 'Edit', noWrite),
    // git diff/log/show can write their output to a file, or run a program the repository's config names.
    rule('deny', 'Bash(git *--output*)', noWrite),
    rule('deny', 'Bash(git *--ext-diff*)', 'a review does not run external diff programs'),
    rule('deny', 'Bash(git *--textconv*)', 'a review does not run textconv filters'),
    ...READ_ONLY_GIT.map((sub) => rule('allow', `Bash(git ${sub} *)`)),
    rule('allow', 'Agent'),
    rule('allow', 'AgentSwarm'),
  ];
}
