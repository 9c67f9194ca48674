// One agent file (SPEC §9.2): Markdown whose body is the system prompt template and whose frontmatter
// says who the agent is and which tools it gets. Unknown fields are ignored, so agent files written for
// other coding agents (Claude Code, opencode) load as they are.
import { basename } from 'node:path';
import { booleanField, field, readMarkdownFile, stringList } from '../frontmatter';

export type AgentSource = 'explicit' | 'project' | 'extra' | 'user' | 'plugin' | 'builtin';

/** `'*'` = everything; a list = exactly those names. */
export type NameSelection = '*' | string[];

export interface AgentProfile {
  name: string;
  description: string;
  whenToUse?: string;
  /** A file needs this to replace a built-in agent of the same name. */
  override: boolean;
  /** Offered tools: `'*'` = all, `[]` = none, a list = exactly those. */
  tools: NameSelection;
  /** Removed after `tools` is applied. */
  disallowedTools: string[];
  /** Agents it may delegate to; undefined = the default set (`coder`, `explore`, `plan`). */
  subagents?: NameSelection;
  /** The system prompt template; undefined = the built-in main prompt. */
  prompt?: string;
  path?: string;
  source: AgentSource;
}

export const AGENT_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export type AgentParse = { ok: true; agent: AgentProfile } | { ok: false; message: string };

function selection(value: unknown): NameSelection | undefined {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) return undefined;
  const list = stringList(value, /[,\s]+/);
  if (list === undefined) return undefined;
  return list.length === 1 && list[0] === '*' ? '*' : list;
}

export async function parseAgentFile(path: string, source: AgentSource): Promise<AgentParse> {
  const parsed = await readMarkdownFile(path);
  if (!parsed.ok) return parsed;
  const { data, body } = parsed;
  const name = String(data.name ?? basename(path).replace(/\.md$/i, '')).trim();
  if (!AGENT_NAME.test(name))
    return {
      ok: false,
      message: `${path}: agent name "${name}" must be kebab-case (lowercase letters, digits and single dashes)`,
    };
  const description =
    data.description === undefined || data.description === null ? '' : String(data.description).trim();
  if (!description) return { ok: false, message: `${path}: an agent file needs a description in its frontmatter` };
  const whenToUse = field(data, 'whenToUse', 'when-to-use', 'when_to_use');
  const disallowed = stringList(field(data, 'disallowedTools', 'disallowed-tools', 'disallowed_tools'), /[,\s]+/) ?? [];
  // opencode writes `tools: { write: false }`: a map of switches, where false turns a tool off.
  const toolMap =
    data.tools !== null && typeof data.tools === 'object' && !Array.isArray(data.tools)
      ? (data.tools as Record<string, unknown>)
      : undefined;
  if (toolMap) for (const [tool, on] of Object.entries(toolMap)) if (booleanField(on) === false) disallowed.push(tool);
  return {
    ok: true,
    agent: {
      name,
      description,
      whenToUse: whenToUse === undefined ? undefined : String(whenToUse).trim(),
      override: booleanField(data.override) ?? false,
      tools: selection(data.tools) ?? '*',
      disallowedTools: disallowed,
      subagents: selection(data.subagents),
      prompt: body.trim() || undefined,
      path,
      source,
    },
  };
}
