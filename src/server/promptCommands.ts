// The `/name` prompts of a server session (docs/server.md "Commands and skills"): which ones the session offers
// (skills, flow skills, plugin and user commands, other agents' commands, MCP prompts), and a prompt that starts
// with one, parsed by the same engine functions the terminal UI, print mode and ACP use. The TUI's own commands
// (/compact, /undo, /model…) are not prompts here: the API has actions for them, and naming one is refused.
import { prepareParsedCommand } from '../engine/delegation/commandExpansion';
import { parseFlowCommand, runFlow } from '../engine/delegation/flowRunner';
import { parseSkillCommand } from '../engine/delegation/skills';
import { knownSlashNames, unknownSlashName } from '../engine/delegation/slashNames';
import type { HeadlessRunOptions } from '../engine/runtime/headlessRun';
import type { Runtime } from '../engine/runtime/runtime';
import type { McpManager } from '../ext/mcp/mcpManager';
import { listMcpPrompts, mcpPromptHint, runMcpPromptCommand } from '../ext/mcp/mcpPrompts';
import type { SessionPlugins } from '../ext/plugins/contributions';
import { parsePluginCommand, type PluginCommandParse } from '../ext/plugins/pluginCommands';
import type { SkillCommand } from '../engine/delegation/skills';
import { ApiError, Codes } from './envelope';

export interface CommandListing {
  /** What follows the `/`. */
  name: string;
  description: string;
  argument_hint: string | null;
  /** `skill`, `flow`, `plugin` (a plugin's), `user` (Claude Code command files), `peer` (another agent's), `mcp`. */
  source: 'skill' | 'flow' | 'plugin' | 'user' | 'peer' | 'mcp';
}

export interface CommandSources {
  runtime: Runtime;
  plugins: SessionPlugins | undefined;
  mcp: McpManager | undefined;
  warn(text: string): void;
}

const HINT = 'The server runs skills (/<name>, /skill:<name>, /flow:<name>), plugin and user commands and MCP prompts.';

/** Everything a prompt may start with in this session, sorted by name. */
export async function listCommands(src: CommandSources): Promise<CommandListing[]> {
  const items: CommandListing[] = [];
  for (const s of src.runtime.skills?.all ?? []) {
    const hint = s.arguments.length ? s.arguments.map((a) => `<${a}>`).join(' ') : null;
    items.push({ name: s.name, description: s.description, argument_hint: hint, source: 'skill' });
    if (s.type === 'flow')
      items.push({ name: `flow:${s.name}`, description: s.description, argument_hint: null, source: 'flow' });
  }
  for (const c of src.plugins?.commands ?? [])
    items.push({
      name: c.name,
      description: c.description,
      argument_hint: c.argumentHint ?? null,
      source: c.plugin ? 'plugin' : c.tool ? 'peer' : 'user',
    });
  if (src.mcp) {
    await src.mcp.ready();
    const { prompts, problems } = await listMcpPrompts(src.mcp);
    for (const p of problems) src.warn(p);
    for (const p of prompts)
      items.push({ name: p.name, description: p.description, argument_hint: mcpPromptHint(p) ?? null, source: 'mcp' });
  }
  return items.sort((a, b) => a.name.localeCompare(b.name));
}

/** What a `/name` prompt becomes; run-time work (its `!`cmd` lines, a flow's turns) happens when its turn comes. */
export type ParsedPrompt =
  | { kind: 'text' }
  | { kind: 'command'; parsed: Extract<PluginCommandParse | SkillCommand, { ok: true }> }
  | { kind: 'mcp'; text: string }
  | { kind: 'flow'; start: FlowStart };

type FlowStart = (runtime: Runtime, signal: AbortSignal) => ReturnType<typeof runFlow>;

/**
 * Parses a submitted prompt: plain text, a command of this session, or a refusal (40415, with the closest names)
 * for a `/name` that names nothing here. An MCP prompt's text is fetched now (it may start its server).
 */
export async function parsePrompt(text: string, src: CommandSources): Promise<ParsedPrompt> {
  if (!text.trimStart().startsWith('/')) return { kind: 'text' };
  const refuse = (message: string): never => {
    throw new ApiError(Codes.skill, message);
  };
  const plugin = src.plugins ? parsePluginCommand(text, src.plugins.commands, src.plugins.ids) : undefined;
  if (plugin && !plugin.ok) refuse(plugin.message);
  const skill = plugin ? undefined : parseSkillCommand(text, src.runtime.skills, () => false);
  if (skill && !skill.ok) refuse(skill.message);
  const command = (plugin ?? skill) as Extract<PluginCommandParse | SkillCommand, { ok: true }> | undefined;
  if (command) return { kind: 'command', parsed: command };
  const flow = parseFlowCommand(text, src.runtime.skills);
  if (flow && !flow.ok) refuse(flow.message);
  if (flow?.ok) {
    const { skill: flowSkill, flow: steps } = flow;
    return {
      kind: 'flow',
      start: (runtime, signal) => runFlow(runtime.agent, flowSkill.name, steps, { signal }),
    };
  }
  const mcp = await runMcpPromptCommand(text, src.mcp);
  if (mcp && !mcp.ok) refuse(mcp.message);
  if (mcp?.ok) return { kind: 'mcp', text: mcp.text };
  const known = knownSlashNames({ frontEnd: [], skills: src.runtime.skills, plugins: src.plugins });
  const unknown = unknownSlashName(text, known, HINT);
  if (unknown) {
    const { findCommand } = await import('../ui/slashCommands');
    const ui = findCommand(unknown.name);
    refuse(
      ui
        ? `/${ui.name} is a command of the terminal UI; over the API use its action (docs/server.md "Endpoints"). ${HINT}`
        : unknown.message,
    );
  }
  return { kind: 'text' };
}

/** The run options of a parsed prompt, once its turn comes: a command's `!`cmd` lines run now (they may ask). */
export async function runOptionsOf(
  parsed: ParsedPrompt,
  runtime: Runtime,
  signal: AbortSignal,
  warn: (text: string) => void,
): Promise<Pick<HeadlessRunOptions, 'promptContent' | 'preApproved' | 'flow'>> {
  switch (parsed.kind) {
    case 'text':
      return {};
    case 'mcp':
      return { promptContent: parsed.text };
    case 'flow':
      return { flow: () => parsed.start(runtime, signal) };
    case 'command': {
      const ready = await prepareParsedCommand(runtime.agent, parsed.parsed, { warn, signal });
      return { promptContent: ready.text, preApproved: ready.preApproved };
    }
  }
}
