// The agent profile of a session (SPEC §9.2): which system prompt its main agent gets and exactly which
// tools it is offered, decided once at creation and recorded in the journal, so a resume restores both.
import { selectTools } from '../../ext/agents/agentCatalog';
import type { AgentProfile } from '../../ext/agents/agentFile';
import { BUILTIN_AGENTS, MAIN_AGENT } from '../../ext/agents/builtinAgents';
import type { SkillCatalog } from '../../ext/skills/skillCatalog';
import type { CompatSettings } from '../../store/compat';
import type { Session } from '../session/session';
import { skillsListing } from './skills';
import { buildSystemPrompt, hasSystemMd } from '../context/systemPrompt';

export const SKILL_TOOL = 'Skill';

export interface PromptContext {
  home: string;
  cwd: string;
  productName?: string;
  additionalDirs?: string[];
  skills?: SkillCatalog;
  /** `${plugin_sections}` (docs/plugins.md). */
  pluginSections?: string;
  /** `[compat]`: which instruction files beside AGENTS.md are read (docs/compatibility.md). */
  compat?: CompatSettings;
  /** The room of the skill listing: listingBudgetBytes of the model's context window (docs/plugins.md). */
  listingBudgetBytes: number;
}

/** The system prompt of an agent with this profile and these tools. */
export function promptFor(profile: AgentProfile, tools: readonly string[], ctx: PromptContext, main: boolean) {
  // SYSTEM.md beats a user-folder file for the main agent, and loses to every other choice.
  const userMainFile = main && profile.name === MAIN_AGENT && profile.source === 'user' && hasSystemMd(ctx.home);
  return buildSystemPrompt({
    home: ctx.home,
    cwd: ctx.cwd,
    productName: ctx.productName,
    additionalDirs: ctx.additionalDirs,
    agentPrompt: userMainFile ? undefined : profile.prompt,
    allowSystemMd: main && profile.name === MAIN_AGENT && (profile.source === 'builtin' || profile.source === 'user'),
    skills: tools.includes(SKILL_TOOL) ? skillsListing(ctx.skills, ctx.listingBudgetBytes) : '',
    pluginSections: ctx.pluginSections,
    compat: ctx.compat,
  });
}

/**
 * For a new session: picks the profile's tools from `available`, builds its prompt and records both.
 * A profile with `tools: '*'` records only what it leaves out, so tools that appear later (MCP,
 * plugins) still reach it. Returns warnings.
 */
export function recordMainAgent(
  session: Session,
  profile: AgentProfile = BUILTIN_AGENTS[0],
  available: readonly string[],
  ctx: PromptContext,
): string[] {
  const warnings: string[] = [];
  const selected = selectTools(profile, available);
  if (profile.source !== 'builtin' && selected.unknown.length) {
    warnings.push(
      `agent ${profile.name}: no tool named ${selected.unknown.join(', ')} (ignored). Tools: ${available.join(', ')}`,
    );
  }
  const prompt = promptFor(profile, selected.names, ctx, true);
  warnings.push(...prompt.warnings);
  session.commit({
    type: 'system_prompt',
    text: prompt.text,
    agent: profile.name,
    ...(profile.tools === '*' ? {} : { tools: selected.names }),
    ...(profile.disallowedTools.length ? { disallowedTools: profile.disallowedTools } : {}),
  });
  return warnings;
}

/** Which tools the session's main agent may be offered, from its journal; undefined = all. */
export function recordedToolFilter(session: Session): ((name: string) => boolean) | undefined {
  const { agentTools, agentDisallowedTools } = session.state;
  if (!agentTools && !agentDisallowedTools) return undefined;
  const only = agentTools && new Set(agentTools);
  const without = new Set((agentDisallowedTools ?? []).map((n) => n.toLowerCase()));
  return (name) => (!only || only.has(name)) && !without.has(name.toLowerCase());
}
