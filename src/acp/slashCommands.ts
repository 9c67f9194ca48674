// The slash commands an editor offers in its prompt box (`available_commands_update`) and what they do.
// Skills, flows, plugins' and other agents' commands and MCP prompts are expanded by the session; any other `/name`
// that names nothing is refused there (engine/delegation/slashNames.ts).
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import type { CompactionResult } from '../engine/context/compaction';
import type { SessionPlugins } from '../ext/plugins/contributions';
import { commandListDescription } from '../ext/plugins/pluginCommands';
import type { SkillCatalog } from '../ext/skills/skillCatalog';

const BUILT_IN_COMMANDS = [
  {
    name: 'compact',
    description: 'Summarise the conversation so far to free context',
    input: { hint: 'what the summary should keep (optional)' },
  },
  { name: 'plan', description: 'Turn plan mode on or off (read and plan only; the plan is reviewed before changes)' },
];

/** The commands ACP runs itself, for the session's list of known `/names`. */
export const ACP_COMMAND_NAMES = BUILT_IN_COMMANDS.map((c) => c.name);

/** A command an editor lists: its name after `/`, what it does, and what may follow it. */
export interface ListedCommand {
  name: string;
  description: string;
  hint?: string;
}

/**
 * `/compact`, `/plan`, every skill as `/skill:<name>` (flow skills also as `/flow:<name>`), the commands of plugins
 * and of other agents' folders (`/<plugin>:<command>`, `/review`, `/prompts:x`…) and the MCP servers' prompts
 * (`/mcp__<server>__<prompt>`), each sent to the model as its expanded prompt.
 */
export function availableCommands(
  plugins: SessionPlugins | undefined,
  skills?: Pick<SkillCatalog, 'all'>,
  more: readonly ListedCommand[] = [],
): SessionUpdate {
  const fromPlugins = (plugins?.commands ?? []).map((c) => ({
    name: c.name,
    description: commandListDescription({ ...c, argumentHint: undefined }),
    input: { hint: c.argumentHint ?? 'arguments (optional)' },
  }));
  const fromSkills = (skills?.all ?? []).flatMap((s) => [
    { name: `skill:${s.name}`, description: s.description, input: { hint: 'what to do with it (optional)' } },
    ...(s.type === 'flow' ? [{ name: `flow:${s.name}`, description: `Run the flow: ${s.description}` }] : []),
  ]);
  const others = more.map((c) => ({
    name: c.name,
    description: c.description,
    ...(c.hint ? { input: { hint: c.hint } } : {}),
  }));
  // A name is listed once, as what it runs: `/compact` and `/plan` are ACP's own before any command file's.
  const seen = new Set<string>();
  const listed = [...BUILT_IN_COMMANDS, ...fromSkills, ...fromPlugins, ...others].filter(
    (c) => !seen.has(c.name) && seen.add(c.name),
  );
  return { sessionUpdate: 'available_commands_update', availableCommands: listed };
}

export interface SlashCommandActions {
  compact(instruction: string | undefined): Promise<CompactionResult>;
  /** Returns whether plan mode is now on. */
  togglePlan(): boolean;
}

/** Runs `/compact` or `/plan`; returns what to tell the user, or undefined when the text is a prompt. */
export async function runSlashCommand(text: string, actions: SlashCommandActions): Promise<string | undefined> {
  const match = /^\/(\w+)(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!match) return undefined;
  const [, name, rest] = match;
  if (name === 'compact') {
    const result = await actions.compact(rest?.trim() || undefined);
    return `Compacted the conversation: ${result.summarised} messages summarised, about ${result.tokensBefore} → ${result.tokensAfter} tokens.`;
  }
  if (name === 'plan') return actions.togglePlan() ? 'Plan mode is on: read and plan only.' : 'Plan mode is off.';
  return undefined;
}
