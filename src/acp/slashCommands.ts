// The slash commands an editor offers in its prompt box (`available_commands_update`) and what they do.
// Plugins' commands are expanded by the session; any other `/name` that names nothing is refused there
// (engine/delegation/slashNames.ts).
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import type { CompactionResult } from '../engine/context/compaction';
import type { SessionPlugins } from '../ext/plugins/contributions';

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

/** `/compact`, `/plan`, and the enabled plugins' `/<plugin>:<command>` (sent to the model as their prompt). */
export function availableCommands(plugins: SessionPlugins | undefined): SessionUpdate {
  const fromPlugins = (plugins?.commands ?? []).map((c) => ({
    name: c.name,
    description: c.description,
    input: { hint: c.argumentHint ?? 'arguments (optional)' },
  }));
  return { sessionUpdate: 'available_commands_update', availableCommands: [...BUILT_IN_COMMANDS, ...fromPlugins] };
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
