// What the enabled plugins bring to one launch (docs/plugins.md "In a session"), gathered from the
// loaded plugins: skills, agents, commands, hooks, the MCP servers the user left on, the system prompt
// block `${plugin_sections}` within its budget, and the skills to load when a session starts.
import type { AgentProfile } from '../agents/agentFile';
import type { HookSpec } from '../hooks/hookRunner';
import type { Skill } from '../skills/skillFile';
import type { McpServerConfig } from '../../store/mcpConfig';
import type { EnabledPlugin } from './manager';
import type { PluginCommand } from './pluginCommands';

/**
 * At most this many bytes of plugin instructions go into one system prompt, all plugins together (seed 003:
 * 64 KB per prompt build; each field is limited to 32 KB when the plugin loads, pluginLoader.ts).
 */
export const PLUGIN_PROMPT_BUDGET_BYTES = 64 * 1024;

/** The parts of the plugins a runtime uses itself (the rest joins the skill/agent catalogs, hooks and MCP). */
export interface SessionPlugins {
  /** Enabled plugins that loaded, in install order. */
  ids: string[];
  /** `/<plugin>:<command>`. */
  commands: PluginCommand[];
  /** `${plugin_sections}`: the plugins' instructions as one block; empty when there are none. */
  promptSections: string;
  /** Loaded into the main agent (as text) when a new or resumed session starts. */
  sessionStartSkills: Skill[];
}

export interface PluginContributions {
  session: SessionPlugins;
  skills: Skill[];
  agents: AgentProfile[];
  hooks: HookSpec[];
  /** Servers to start (those switched off in /plugins are left out). */
  mcpServers: McpServerConfig[];
  /** For the user at start-up: broken plugins, instructions over the budget. */
  warnings: string[];
}

function escapeAttribute(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/** The instructions already in this prompt build: in all, and by plugin. */
interface PromptBudgetUse {
  total: number;
  by: Map<string, number>;
}

/**
 * A section that does not fit: which plugin, how many bytes, what fills the budget, and what the user can do:
 * disable the plugins whose share would make room (only those), or, when the plugin's own text is what does not
 * fit, nothing but ask its author for shorter text.
 */
function overBudgetWarning(id: string, bytes: number, used: PromptBudgetUse): string {
  const limit = `all plugins' instructions together may add at most ${PLUGIN_PROMPT_BUDGET_BYTES} bytes to the system prompt`;
  const others = [...used.by].filter(([other, n]) => other !== id && n > 0);
  const own = used.by.get(id) ?? 0;
  const uses = [...others.map(([other, n]) => `${other} ${n}`), ...(own ? [`${id} itself ${own}`] : [])];
  // Only advice that works: a plugin whose own share frees enough room, else the several that do together.
  const enough = others.filter(([, n]) => used.total - n + bytes <= PLUGIN_PROMPT_BUDGET_BYTES).map(([o]) => o);
  const advice = enough.length
    ? `disabling ${enough.join(' or ')} (jarvis plugin disable <id>) makes room for it`
    : others.length && used.total - others.reduce((n, [, m]) => n + m, 0) + bytes <= PLUGIN_PROMPT_BUDGET_BYTES
      ? `only disabling several of ${others.map(([o]) => o).join(', ')} together makes room for it`
      : `the plugin's own instructions are too long together (its author can shorten them)`;
  return `plugin ${id}: ${bytes} bytes of system prompt instructions skipped: ${limit} (${used.total} used${uses.length ? `: ${uses.join(', ')}` : ''}); ${advice}`;
}

export function pluginContributions(plugins: readonly EnabledPlugin[]): PluginContributions {
  const out: PluginContributions = {
    session: { ids: [], commands: [], promptSections: '', sessionStartSkills: [] },
    skills: [],
    agents: [],
    hooks: [],
    mcpServers: [],
    warnings: [],
  };
  const sections: string[] = [];
  const used: PromptBudgetUse = { total: 0, by: new Map() };
  for (const { record, loaded } of plugins) {
    if (loaded.error) {
      out.warnings.push(`plugin ${record.id} is not loaded: ${loaded.error} (see jarvis plugin info ${record.id})`);
      continue;
    }
    out.session.ids.push(record.id);
    out.session.commands.push(...loaded.commands);
    out.skills.push(...loaded.skills);
    out.agents.push(...loaded.agents);
    out.hooks.push(...loaded.hooks);
    out.mcpServers.push(...loaded.mcpServers.filter((s) => record.mcpServers[s.name] !== false).map((s) => s.config));
    if (loaded.sessionStartSkill) out.session.sessionStartSkills.push(loaded.sessionStartSkill);
    // Each section (inline text, file) counts on its own: what fits goes in, the rest is skipped and said.
    const kept: string[] = [];
    const wrapper = Buffer.byteLength(`<plugin id="${escapeAttribute(record.id)}">\n\n</plugin>\n`);
    for (const text of loaded.promptSections) {
      // The plugin's <plugin> wrapper counts with its first section, the blank line between sections too.
      const bytes = Buffer.byteLength(text, 'utf8') + (kept.length ? 2 : wrapper);
      if (used.total + bytes > PLUGIN_PROMPT_BUDGET_BYTES) {
        out.warnings.push(overBudgetWarning(record.id, bytes, used));
        continue;
      }
      used.total += bytes;
      used.by.set(record.id, (used.by.get(record.id) ?? 0) + bytes);
      kept.push(text);
    }
    if (kept.length) sections.push(`<plugin id="${escapeAttribute(record.id)}">\n${kept.join('\n\n')}\n</plugin>`);
  }
  if (sections.length) {
    const block = sections.join('\n');
    out.session.promptSections = `\n# Plugin instructions\nFrom the plugins the user enabled.\n${block}\n`;
  }
  return out;
}
