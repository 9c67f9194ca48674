// One agent file (SPEC §9.2): Markdown whose body is the system prompt template and whose frontmatter
// says who the agent is, which tools it gets and which model it runs on (`model:`, resolved when it starts,
// store/agentModels.ts). Unknown fields (`color:`) are ignored and foreign tool names are mapped, so agent
// files written for Claude Code or opencode load as they are.
import { basename } from 'node:path';
import { canonicalToolName, isKnownToolName } from '../../types/toolNames';
import { booleanField, FieldReader, readMarkdownFile } from '../frontmatter';

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
  /** `model:` as written (`sonnet`, `inherit`, `anthropic/claude-sonnet-4-5`, an alias); undefined = the caller's. */
  model?: string;
  /** opencode's `mode: primary`: a main agent (`--agent`), never a delegation target. */
  primaryOnly?: boolean;
  path?: string;
  source: AgentSource;
}

/** Lowercase words joined by single dashes or dots (`dotnet-framework-4.8-expert`). */
export const AGENT_NAME = /^[a-z0-9]+(?:[-.][a-z0-9]+)*$/;

export type AgentParse = { ok: true; agent: AgentProfile; warnings: string[] } | { ok: false; message: string };

/**
 * A name as other tools accept it, in Jarvis's form: lowercase, spaces and underscores as dashes, runs of
 * separators collapsed. Undefined when nothing of it is left.
 */
export function normaliseAgentName(raw: string): string | undefined {
  const name = raw
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, '-')
    .replace(/[^a-z0-9.-]/g, '')
    .replace(/([-.])[-.]+/g, '$1')
    .replace(/^[-.]+|[-.]+$/g, '');
  return AGENT_NAME.test(name) ? name : undefined;
}

/** Tool names through the alias table (docs/compatibility.md); a name no one knows is a warning. */
function toolNames(list: string[], fieldName: string, f: FieldReader): string[] {
  const unknown = list.filter((n) => n !== '*' && !isKnownToolName(n));
  if (unknown.length)
    f.note(
      fieldName,
      `field "${fieldName}" names no tool called ${unknown.join(', ')} (kept; no such tool is offered)`,
    );
  return list.map((n) => (n === '*' ? n : canonicalToolName(n)));
}

function selection(f: FieldReader, names: string[], tools: boolean): NameSelection | undefined {
  if (f.mapping(names[0])) return undefined;
  const list = f.list(/[,\s]+/, ...names);
  if (list === undefined) return undefined;
  if (list.length === 1 && list[0] === '*') return '*';
  return tools ? toolNames(list, names[0], f) : list;
}

export async function parseAgentFile(
  path: string,
  source: AgentSource,
  opts: { opencode?: boolean } = {},
): Promise<AgentParse> {
  const parsed = await readMarkdownFile(path);
  if (!parsed.ok) return parsed;
  const f = new FieldReader(path, parsed);
  const written = f.text('name') ?? basename(path).replace(/\.md$/i, '');
  const name = normaliseAgentName(written);
  if (!name)
    return {
      ok: false,
      message: `${path}: field "name": "${written}" has no letters or digits to name the agent by`,
    };
  if (name !== written) f.note('name', `agent name "${written}" is used as "${name}"`);
  // opencode's primary agents need no description: they are picked with --agent, never delegated to.
  const primary = opts.opencode === true && f.text('mode')?.trim() === 'primary';
  const description = f.text('description') ?? (primary ? `opencode primary agent ${name}` : undefined);
  if (!description) {
    const why = f.whyMissing('description');
    return {
      ok: false,
      message: `${path}: an agent file needs a description in its frontmatter${why ? ` (${why})` : ''}`,
    };
  }
  const prompt = parsed.body.trim();
  if (!prompt)
    return {
      ok: false,
      message: `${path}: the agent file has no body; the Markdown after the frontmatter is the agent's system prompt`,
    };
  const whenToUse = f.text('whenToUse', 'when-to-use', 'when_to_use');
  const model = f.text('model')?.trim();
  const disallowedNames = ['disallowedTools', 'disallowed-tools', 'disallowed_tools'];
  const disallowed = toolNames(f.list(/[,\s]+/, ...disallowedNames) ?? [], 'disallowedTools', f);
  // opencode writes `tools: { write: false }`: a map of switches, where false turns a tool off.
  const toolMap = f.mapping('tools');
  if (toolMap) {
    const off = Object.entries(toolMap).filter(([, on]) => booleanField(on) === false);
    disallowed.push(
      ...toolNames(
        off.map(([tool]) => tool),
        'tools',
        f,
      ),
    );
  }
  return {
    ok: true,
    warnings: f.warnings,
    agent: {
      name,
      description,
      whenToUse,
      override: f.bool('override') ?? false,
      tools: selection(f, ['tools'], true) ?? '*',
      disallowedTools: disallowed,
      subagents: selection(f, ['subagents'], false),
      prompt,
      ...(model ? { model } : {}),
      ...(primary ? { primaryOnly: true } : {}),
      path,
      source,
    },
  };
}
