// Step 4 of openRuntime (runtime.ts): the services every agent's tools share, by ServiceKey name — background and
// scheduled tasks, memory, image limits, the front end's own (ACP: the editor's files), web settings, the browser and
// its page summaries, workflows.
import { homedir } from 'node:os';
import { TASK_SERVICE } from '../../tools/task/taskService';
import { IMAGE_LIMITS } from '../../tools/file';
import { DEFAULT_WEB_SETTINGS, WEB_SERVICE, type WebSettings } from '../../tools/web';
import { browserRuntime, modelSummarizer, SUMMARY_SERVICE, type BrowserProfileChoice } from '../../tools/browser';
import { MEMORY_SERVICE } from '../../tools/memory';
import { BOUNDARY_SERVICE, CommandBoundary } from '../../tools/boundary/commandBoundary';
import { CRON_SERVICE } from '../../tools/cron';
import { SESSION_ENV } from '../../tools/sessionEnv';
import { WORKFLOW_LIMITS, WORKFLOW_SETTINGS } from '../../tools/workflow';
import { MemoryStore } from '../../store/memoryStore';
import { isWorkspaceTrusted } from '../../store/trust';
import { MAIN_AGENT } from '../../ext/agents/builtinAgents';
import { bindModel } from '../delegation/agents';
import { DEFAULT_MEMORY_SETTINGS, memoryRecallHandler, type MemorySettings } from '../context/memoryRecall';
import type { Session } from '../session/session';
import type { Assembly, BackgroundWork } from './assembly';
import type { RuntimeOptions } from './runtimeShape';
import { lendLanguageServers } from './lspSession';
import { MCP_RESOURCES } from '../../tools/mcp';
import { mcpResourceAccess } from '../extensions/mcpResources';
import { DEFAULT_LSP_SETTINGS } from '../../platform/lsp/lspServers';
import type { LspManager } from '../../platform/lsp/lspManager';

export interface LentServices {
  shared: Map<string, unknown>;
  memory: MemoryStore;
  memorySettings: MemorySettings;
  web: WebSettings;
  browserChoice: BrowserProfileChoice | undefined;
  browser: ReturnType<typeof browserRuntime> | undefined;
  /** The session's language servers (turned off when the options have no [lsp]). */
  lsp: LspManager;
}

export function lendServices(a: Assembly, session: Session, work: BackgroundWork): LentServices {
  const { opts } = a;
  const shared = new Map<string, unknown>([[TASK_SERVICE.name, work.tasks]]);
  // What the session's commands start from (tools/sessionEnv.ts): the SDK query's own env, else the process's.
  shared.set(SESSION_ENV.name, opts.env ?? process.env);
  // Trust is read at each use: trusting the folder mid-session makes its project memory appear.
  const trusted = () => isWorkspaceTrusted(opts.home, opts.cwd);
  const memory = new MemoryStore({ home: opts.home, cwd: opts.cwd, trusted });
  shared.set(MEMORY_SERVICE.name, memory);
  const memorySettings = opts.memory ?? DEFAULT_MEMORY_SETTINGS;
  a.gate.register(memoryRecallHandler(memory, memorySettings));
  if (opts.image) shared.set(IMAGE_LIMITS.name, opts.image);
  if (opts.sandbox) {
    // The session's one trust boundary (docs/trust-boundary.md): its policy comes from these folders, never from a
    // tool's arguments. The scratch folder is where commands may write beside the session.
    const folders = {
      workspace: [opts.cwd, ...(opts.additionalDirs ?? [])],
      scratch: session.scratchDir,
      jarvisHome: opts.home,
      home: homedir(),
      env: opts.env ?? process.env,
    };
    const boundary = new CommandBoundary(opts.sandbox, folders);
    shared.set(BOUNDARY_SERVICE.name, boundary);
    // The workspace is searched for secrets once, beside the rest of start-up; the first command waits for it, and a
    // failure of that search reaches that command (prepare() awaits the same promise and refuses, saying why).
    if (opts.sandbox.enabled) boundary.warmUp().catch(() => undefined);
    a.disposables.add({ name: 'trust boundary', dispose: () => boundary.close() });
  }
  // The MCP servers' resources, for ListMcpResources / ReadMcpResource (docs/mcp.md).
  if (opts.mcp) shared.set(MCP_RESOURCES.name, mcpResourceAccess(opts.mcp));
  for (const [name, service] of opts.services ?? []) shared.set(name, service);
  const web = opts.web ?? DEFAULT_WEB_SETTINGS;
  shared.set(WEB_SERVICE.name, web);
  // The browser itself starts on the first browser tool call; it is closed with the session.
  const browserChoice = chooseBrowserProfile(session, opts, a.warnings);
  const browser =
    browserChoice && opts.browser
      ? browserRuntime({ ...opts.browser, profile: browserChoice }, web, { ...(opts.env ?? process.env) })
      : undefined;
  if (browser) {
    for (const [name, service] of browser.services) shared.set(name, service);
    a.disposables.add({ name: 'browser', dispose: () => browser.session.close() });
    const summaryModel = opts.browser?.summaryModel;
    const summaryBinding = summaryModel && bindModel(summaryModel);
    // `prompt` summaries: [browser] summary_model, else the main agent's model as it is at the call.
    shared.set(
      SUMMARY_SERVICE.name,
      modelSummarizer(() => {
        if (summaryBinding) return { model: summaryBinding.model, client: summaryBinding.getClient };
        const agent = a.main.agent;
        return { model: agent.model, client: () => agent.client() };
      }),
    );
  }
  shared.set(CRON_SERVICE.name, work.cron);
  shared.set(WORKFLOW_SETTINGS.name, { home: opts.home, limits: opts.workflowLimits ?? WORKFLOW_LIMITS });
  a.disposables.add({ name: 'scheduled tasks', dispose: () => work.cron.close() });
  // Without [lsp] settings (an embedding, a test) the manager is lent turned off: Lsp says so, edits add nothing.
  const lsp = lendLanguageServers(
    a,
    shared,
    opts.lsp ?? { ...DEFAULT_LSP_SETTINGS, enabled: false },
    session.scratchDir,
  );
  return { shared, memory, memorySettings, web, browserChoice, browser, lsp };
}

/**
 * The browser tools of this session: a new session takes what the launch asks for; a resumed one keeps
 * what its journal records, and may gain the page tools (`--browser`), never switch its agent. A change
 * is journalled, so the next resume restores it.
 */
function chooseBrowserProfile(
  session: Session,
  opts: RuntimeOptions,
  warnings: string[],
): BrowserProfileChoice | undefined {
  const recorded = session.state.browser;
  const asked = opts.browser?.profile;
  let choice = opts.resume ? recorded : asked;
  if (opts.resume && asked === 'page-tools' && !recorded) choice = 'page-tools';
  if (opts.resume && asked === 'agent' && recorded !== 'agent') {
    const agentName = session.state.agentName ?? MAIN_AGENT;
    warnings.push(
      `--agent browser applies to new sessions; this resumed session keeps its agent (${agentName}). ` +
        'Start a new session for the browser agent.',
    );
  }
  if (choice && !opts.browser) {
    warnings.push(
      'this session was created with the browser tools, but no browser settings were given; it continues without them.',
    );
    return undefined;
  }
  if (choice && choice !== recorded) session.commit({ type: 'browser', profile: choice });
  return choice;
}
