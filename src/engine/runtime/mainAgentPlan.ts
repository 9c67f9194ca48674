// Steps 5 to 7 of openRuntime (runtime.ts): the built-in tools the session offers, the main agent's profile as the
// journal records it, and how the runtime's agents start subagents.
import { builtinTools } from '../../tools/registry';
import type { ServiceKey, Tool } from '../../tools/defineTool';
import {
  browserPageTools,
  browserProfileTools,
  Checklist,
  CHECKLIST_SERVICE,
  DEFAULT_BROWSER_SUBAGENT_TIMEOUT_MS,
} from '../../tools/browser';
import { BROWSER_PROFILE, browserAgentCatalog } from '../../ext/agents/browserAgents';
import { builtinAgentCatalog, type AgentCatalog } from '../../ext/agents/agentCatalog';
import { BUILTIN_AGENTS, DELEGATION_TOOLS, MAIN_AGENT } from '../../ext/agents/builtinAgents';
import type { AgentProfile } from '../../ext/agents/agentFile';
import { makeAgentSwarmTool, makeAgentTool, type ModelOffer } from '../../tools/agent';
import { listingBudgetBytes } from '../../tools/listingBudget';
import { contextWindow } from '../context/context';
import { MAIN_AGENT_ID } from '../loop/events';
import { SKILL_SERVICE } from '../../tools/skill/skillService';
import { towerEnabled, towerTools } from '../../tools/tower';
import { promptFor, recordMainAgent, recordedToolFilter, SKILL_TOOL } from '../delegation/agentProfiles';
import type { DelegationDeps } from '../delegation/subagents';
import { SkillInvoker } from '../delegation/skills';
import { makeToolFilter } from '../loop/toolFilter';
import { BUILTIN_SOURCE, ToolRegistry } from '../loop/toolRegistry';
import { deferralWarnings } from '../loop/deferredTools';
import type { Session } from '../session/session';
import type { Assembly, BackgroundWork } from './assembly';
import type { LentServices } from './sharedServices';

export interface OfferedTools {
  tools: ToolRegistry;
  catalog: AgentCatalog;
  towerOn: boolean;
  /** The room of the skill, plugin-agent and plugin-MCP listings: listingBudgetBytes of the model's window. */
  listingBytes: number;
}

/** Step 5. The built-in tools this session offers, filtered by `[tools]`, in the registry MCP and plugins join later. */
export function offerTools(a: Assembly, lent: LentServices, work: BackgroundWork): OfferedTools {
  const { opts } = a;
  const { browserChoice } = lent;
  const towerOn = opts.tower ?? towerEnabled(opts.env ?? process.env);
  // The Skill tool is offered only when the model has a skill it may load.
  const hasSkills = (opts.skills?.modelInvocable.length ?? 0) > 0;
  // A browser-profile session delegates only to the browser sub-agent types.
  const catalog = browserChoice === 'agent' ? browserAgentCatalog() : (opts.agents ?? builtinAgentCatalog());
  // opencode's primary agents are started with --agent, never delegated to (docs/compatibility.md).
  const subagentTypes = catalog.all
    .filter((p) => p.source !== 'builtin' && !p.primaryOnly)
    .map((p) => ({ name: p.name, description: p.description, ...(p.source === 'plugin' ? { plugin: true } : {}) }));
  // The Agent tool's description names the custom agents it can start; with a model pool (not forced)
  // Agent and AgentSwarm take `model`, described with the pool's choices.
  const pool = opts.subagentModels;
  // The room of each listing every request carries (docs/plugins.md, "Context budget").
  const listingBytes = listingBudgetBytes(contextWindow(opts.model));
  const modelOffer: ModelOffer | undefined = pool
    ? pool.force
      ? { forced: pool.defaultAlias }
      : {
          choices: pool.models.map((m) => ({ alias: m.alias, hint: m.hint, isDefault: m.alias === pool.defaultAlias })),
        }
    : configuredModelOffer(opts.agentModels?.choices ?? [], opts.model.alias);
  const defaults: Tool[] =
    browserChoice === 'agent'
      ? browserProfileTools(opts.browser?.subagentTimeoutMs)
      : [
          ...builtinTools({ web: lent.web, cron: !work.cronOff }),
          ...(browserChoice === 'page-tools' ? browserPageTools : []),
        ];
  const builtins = (opts.tools ?? defaults)
    .filter((t) => t.name !== SKILL_TOOL || hasSkills)
    .map((t) =>
      t.name === 'Agent' && (subagentTypes.length || modelOffer)
        ? makeAgentTool(subagentTypes, modelOffer, listingBytes)
        : t,
    )
    .map((t) => (t.name === 'AgentSwarm' && modelOffer ? makeAgentSwarmTool(modelOffer) : t))
    .concat(towerOn ? towerTools : []);
  const toolFilter = makeToolFilter(
    opts.toolSwitch ?? { enabled: [], disabled: [] },
    builtins.map((t) => t.name),
  );
  a.warnings.push(...toolFilter.warnings);
  const availability = { capabilities: opts.model.capabilities, nonInteractive: opts.nonInteractive };
  const tools = new ToolRegistry({ filter: toolFilter, availability });
  a.warnings.push(...tools.setSource(BUILTIN_SOURCE, builtins));
  a.warnings.push(
    ...deferralWarnings(
      opts.deferral,
      builtins.map((t) => t.name),
    ),
  );
  return { tools, catalog, towerOn, listingBytes };
}

/**
 * Without a pool, Agent takes `model` for one call when the config has another model than the session's: its
 * choices are the `[models]` aliases (docs/skills-and-agents.md, "A model per agent").
 */
function configuredModelOffer(
  choices: ReadonlyArray<{ alias: string; hint: string }>,
  current: string,
): ModelOffer | undefined {
  if (!choices.some((c) => c.alias !== current)) return undefined;
  return {
    choices: choices.map((c) => ({ ...c, isDefault: false })),
    note: "for this call only; default: the agent's own model (its file's model:), else yours",
  };
}

export type PromptContext = Parameters<typeof promptFor>[2];

/** Step 6. The main agent's profile: recorded at creation (prompt and tools), so a resumed session does not drift. */
export function chooseMainProfile(
  a: Assembly,
  session: Session,
  lent: LentServices,
  offered: OfferedTools,
  promptContext: PromptContext,
) {
  const { opts } = a;
  const browserAgent = lent.browserChoice === 'agent';
  const newProfile = browserAgent ? BROWSER_PROFILE : opts.agentProfile;
  if (session.state.systemPrompt === undefined) {
    a.warnings.push(
      ...recordMainAgent(
        session,
        newProfile,
        offered.tools.list().map((t) => t.name),
        promptContext,
      ),
    );
  }
  const profile: AgentProfile =
    (browserAgent ? BROWSER_PROFILE : opts.agentProfile) ??
    offered.catalog.get(session.state.agentName ?? MAIN_AGENT) ??
    BUILTIN_AGENTS[0];
  const recordedFilter = recordedToolFilter(session);
  // An agent with no one to delegate to is not offered the delegation tools.
  const canDelegate = offered.catalog.delegatesOf(profile, true).length > 0;
  const offers = (name: string) =>
    (recordedFilter?.(name) ?? true) && (canDelegate || !DELEGATION_TOOLS.includes(name));
  return { profile, offers };
}

/** A notice for the user (through the main agent's events, which every front end shows), each text once. */
function noticeOnce(a: Assembly): (text: string) => void {
  const said = new Set<string>();
  return (text) => {
    if (said.has(text)) return;
    said.add(text);
    a.emit({ type: 'notice', level: 'warning', text, agentId: MAIN_AGENT_ID });
  };
}

/** Step 7. How agents of this runtime start subagents: the catalog, the model pool, each subagent's own parts. */
export function planDelegation(
  a: Assembly,
  work: BackgroundWork,
  lent: LentServices,
  offered: OfferedTools,
  promptContext: PromptContext,
): DelegationDeps {
  const { opts } = a;
  const browserDelegation = {
    ...(opts.delegation ?? { swarmTimeoutMs: 0 }),
    subagentTimeoutMs: opts.browser?.subagentTimeoutMs ?? DEFAULT_BROWSER_SUBAGENT_TIMEOUT_MS,
  };
  return {
    onSubagent: (event, callerId) => a.emit({ ...event, agentId: callerId }),
    agents: () => a.main.agents,
    catalog: offered.catalog,
    tasks: work.tasks,
    settings:
      lent.browserChoice === 'agent'
        ? browserDelegation
        : (opts.delegation ?? { subagentTimeoutMs: 0, swarmTimeoutMs: 0 }),
    modelPool: opts.subagentModels,
    agentModels: opts.agentModels?.resolve,
    notice: noticeOnce(a),
    toolNames: () => offered.tools.list().map((t) => t.name),
    systemPromptFor: (profile, names) => promptFor(profile, names, promptContext, false).text,
    ownParts: () => {
      const invoker = new SkillInvoker(opts.skills);
      // Each browser sub-agent keeps its own checklist (create_task…), apart from its caller's.
      const checklist: Array<readonly [ServiceKey<unknown>, unknown]> = lent.browser
        ? [[CHECKLIST_SERVICE, new Checklist()]]
        : [];
      return { services: [[SKILL_SERVICE, invoker], ...checklist], extensions: [invoker.extension] };
    },
  };
}
