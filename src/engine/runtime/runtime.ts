// Puts one working session together (docs/architecture.md, "Assembling a runtime"): the session (new or resumed),
// its tool registry and shared services, the extension gate, the main agent and the directory of subagents, and the
// list of what to close when the session ends. openRuntime is a sequence of named steps, each taking what the steps
// before it made; the only thing used before it exists is the main agent, through `MainAgentSlot`, which says so if
// it is reached too early. The model client is created on first use, so nothing heavy loads before the first request.
import { dirname, join } from 'node:path';
import { sweepToolOutputs } from '../../store/toolOutputs';
import { mkdirPrivateSync } from '../../store/privateFiles';
import { recordSigner } from '../../store/recordKey';
import { resolveBashTaskTimeoutS } from '../../tools/task/taskService';
import { isSensitivePath } from '../../tools/file';
import { acquireSessionLock, type SessionLock } from '../../store/sessionLock';
import { cronDisabled } from '../../tools/cron';
import { DELEGATION_SERVICE } from '../../tools/agent';
import { SKILL_SERVICE } from '../../tools/skill/skillService';
import { TOWER_SERVICE } from '../../tools/tower';
import { AgentDirectory, assembleAgent, bindModel, type AgentSetup } from '../delegation/agents';
import { promptFor } from '../delegation/agentProfiles';
import { Delegation, swarmAloneRule } from '../delegation/subagents';
import { sessionStartSkills, SkillInvoker } from '../delegation/skills';
import { BackgroundTasks } from '../background/backgroundTasks';
import { CronScheduler } from '../background/cronScheduler';
import { TaskNotifications } from '../background/taskNotifications';
import { Reinjections } from '../context/compaction';
import { MemoryExtractor } from '../context/memoryExtraction';
import { DEFAULT_COMPACTION_TRIGGER_RATIO } from '../context/context';
import { attachRuntimeExtensions } from '../extensions/runtimeExtensions';
import { claudePermissionMode } from '../../ext/hooks/claudeHookPayload';
import { ExtensionGate } from '../extensions/extensionGate';
import { MAIN_AGENT_ID } from '../loop/events';
import { withRunTools } from '../loop/toolRegistry';
import type { StepRequest } from '../loop/loop';
import { workspaceOf } from '../policy/workspace';
import { DEFAULT_REWIND_MAX_FILE_BYTES, FileHistoryRecorder } from '../session/fileHistoryRecorder';
import { Session } from '../session/session';
import { TowerRuntime, towerGuardedWrite } from '../tower/towerRuntime';
import { MainAgentSlot, type Assembly, type BackgroundWork } from './assembly';
import { Disposables } from './disposables';
import { lendServices, type LentServices } from './sharedServices';
import { chooseMainProfile, offerTools, planDelegation, type OfferedTools, type PromptContext } from './mainAgentPlan';
import type { Runtime, RuntimeOptions } from './runtimeShape';
import { lspDiagnosticsExtension } from '../extensions/lspDiagnostics';

export type { Runtime, RuntimeOptions } from './runtimeShape';

/** Step 1. Extensions watch every event before the front end renders it; the gate's own warnings are events too. */
function openEventChannel(opts: RuntimeOptions): Assembly {
  const assembly: Assembly = {
    opts,
    warnings: [],
    gate: new ExtensionGate((text) =>
      assembly.emit({ type: 'notice', level: 'warning', text, agentId: MAIN_AGENT_ID }),
    ),
    emit(event) {
      assembly.gate.observe(event);
      opts.onEvent(event);
    },
    disposables: new Disposables(),
    main: new MainAgentSlot(),
  };
  for (const handler of opts.gateHandlers ?? []) assembly.gate.register(handler);
  if (opts.plugins?.sessionStartSkills.length)
    assembly.gate.register(sessionStartSkills(opts.plugins.sessionStartSkills));
  return assembly;
}

/** Step 2. One writer per session: the lock comes before the replay, whose crash repair already writes. */
function openJournal(a: Assembly): { session: Session; lock: SessionLock } {
  const { opts } = a;
  if (opts.resume) {
    const lock = acquireSessionLock(opts.resume.sessionDir);
    let session: Session;
    try {
      session = Session.open(opts.resume);
    } catch (e) {
      // A journal that cannot be read (a link where it should be: docs/sessions.md) leaves the session to others.
      lock.release();
      throw e;
    }
    a.warnings.push(...session.warnings);
    // The journal's mode counts only when an authenticated record set it; otherwise the flags and config decide
    // (docs/sessions.md, "What a resume trusts").
    const mode = opts.modeOverride || !session.modeRestored ? opts.mode : session.state.mode;
    if (session.state.mode !== mode) session.commit({ type: 'mode', mode });
    mkdirPrivateSync(session.scratchDir);
    return { session, lock };
  }
  const session = Session.create({
    home: opts.home,
    workDir: opts.cwd,
    modelAlias: opts.model.alias,
    modelId: opts.model.model,
    mode: opts.mode,
  });
  return { session, lock: acquireSessionLock(session.dir) };
}

/** Step 3. Background tasks and scheduled tasks; cron fires become turns of the main agent (nothing fires before start). */
function startBackgroundWork(a: Assembly, session: Session): BackgroundWork {
  const { opts, emit } = a;
  // Old saved tool outputs of this folder's sessions go, off the start path (docs/sessions.md).
  void sweepToolOutputs(dirname(session.dir)).then(({ failures }) => {
    for (const text of failures)
      emit({ type: 'notice', level: 'warning', text: `Old tool outputs: ${text}.`, agentId: MAIN_AGENT_ID });
  });
  const notifications = new TaskNotifications(opts.notificationDelivery);
  const bashTaskTimeoutS = resolveBashTaskTimeoutS(opts.background.bashTaskTimeoutS, opts.nonInteractive);
  const key = recordSigner(opts.home);
  const tasks = new BackgroundTasks({
    sessionDir: session.dir,
    ...('signer' in key ? { signer: key.signer } : {}),
    settings: { ...opts.background, bashTaskTimeoutS },
    onTaskFinished: notifications.onTaskFinished,
    warn: (text) => emit({ type: 'notice', level: 'warning', text, agentId: MAIN_AGENT_ID }),
    onTaskChange: (change, t) => {
      const task = {
        id: t.id,
        kind: t.kind,
        description: t.description,
        status: t.status,
        statusMessage: t.statusMessage,
      };
      emit({ type: 'task_change', change, task, agentId: MAIN_AGENT_ID });
    },
  });
  a.disposables.add({ name: 'background tasks', dispose: ({ force }) => tasks.close({ force }) });
  const cronOff = opts.cron?.disabled ?? cronDisabled(opts.env ?? process.env);
  const cron = new CronScheduler({
    dir: join(session.dir, 'cron'),
    clock: opts.cron?.clock,
    enabled: !cronOff,
    fire: ({ text }) => {
      // One pending fire per job: a later fire merges into this request while it still waits in the queue.
      const request: Extract<StepRequest, { kind: 'cron' }> = { kind: 'cron', text };
      const agent = a.main.agent;
      agent.submit(request);
      return { waiting: () => agent.isQueued(request), update: (merged) => (request.text = merged) };
    },
    warn: (text) => emit({ type: 'notice', level: 'warning', text, agentId: MAIN_AGENT_ID }),
  });
  return { tasks, notifications, cron, cronOff };
}

/**
 * Step 8. What every agent of the runtime is assembled from (AgentSetup): the workspace, ports and rules, the
 * loop's settings, the gate with hooks and MCP tools attached, shared services and turn extensions.
 */
function describeSetup(
  a: Assembly,
  session: Session,
  lent: LentServices,
  offered: OfferedTools,
  extractor: MemoryExtractor,
) {
  const { opts, gate } = a;
  const extras = attachRuntimeExtensions({
    hooks: opts.hooks,
    env: opts.env,
    session: {
      id: session.id,
      dir: session.dir,
      cwd: opts.cwd,
      messages: () => session.state.messages,
      permissionMode: () => claudePermissionMode(session.state.mode, session.state.planMode.active),
    },
    mcp: opts.mcp,
    pluginTools: opts.plugins?.tools,
    gate,
    tools: offered.tools,
    emit: a.emit,
    title: () => session.state.title ?? '',
  });
  const fileHistory =
    opts.fileHistory === false
      ? undefined
      : new FileHistoryRecorder(session, opts.fileHistory ?? { maxFileBytes: DEFAULT_REWIND_MAX_FILE_BYTES });
  const workspace = workspaceOf({
    cwd: opts.cwd,
    additionalDirs: opts.additionalDirs,
    scratchDir: session.scratchDir,
    readOnly: (opts.skills?.all ?? []).map((s) => s.dir),
    ...(offered.towerOn ? { guardedWrite: towerGuardedWrite } : {}),
  });
  const setup: AgentSetup = {
    cwd: opts.cwd,
    rules: opts.rules,
    workspace,
    isSensitivePath,
    approvalPort: opts.approvalPort,
    interactionPort: opts.interactionPort,
    nonInteractive: opts.nonInteractive,
    loop: opts.loop,
    thinking: opts.thinking,
    retryDelay: opts.retryDelay,
    compaction: {
      triggerRatio: opts.compaction?.triggerRatio ?? DEFAULT_COMPACTION_TRIGGER_RATIO,
      reservedContextSize: opts.compaction?.reservedContextSize,
    },
    gate,
    reinjections: new Reinjections(),
    tools: offered.tools,
    deferral: { ...(opts.deferral ?? { deferred: [], pinned: [] }), listingBytes: offered.listingBytes },
    services: lent.shared,
    // The language server's check after a tool comes first: hooks and the rest see the result with its diagnostics.
    extensions: [
      lspDiagnosticsExtension(lent.lsp, opts.env),
      ...(opts.extensions ?? []),
      ...(extras.extension ? [extras.extension] : []),
      extractor.extension,
    ],
    goal: opts.goal,
    fileHistory,
    emit: a.emit,
  };
  a.disposables.add({ name: 'hooks and MCP tools', dispose: () => extras.close() });
  return { setup, fileHistory };
}

/** Step 9. Tower mode's coordinator (docs/tower.md), when its flag is on. */
function openTower(
  a: Assembly,
  work: BackgroundWork,
  offered: OfferedTools,
  promptContext: PromptContext,
): TowerRuntime | undefined {
  if (!offered.towerOn) return undefined;
  const tower = new TowerRuntime({
    cwd: a.opts.cwd,
    env: a.opts.env,
    agents: () => a.main.agents,
    tasks: work.tasks,
    toolNames: () => offered.tools.list().map((t) => t.name),
    systemPromptFor: (profile, names, cwd) => promptFor(profile, names, { ...promptContext, cwd }, false).text,
    onSubagent: (event) => a.emit({ ...event, agentId: MAIN_AGENT_ID }),
  });
  a.gate.register(tower.gateHandler());
  return tower;
}

export function openRuntime(opts: RuntimeOptions): Runtime {
  const a = openEventChannel(opts);
  const { session, lock } = openJournal(a);
  const work = startBackgroundWork(a, session);
  const lent = lendServices(a, session, work);
  const extractor = new MemoryExtractor({ store: lent.memory, settings: lent.memorySettings, emit: a.emit });
  const offered = offerTools(a, lent, work);
  const promptContext: PromptContext = {
    home: opts.home,
    cwd: opts.cwd,
    productName: opts.productName,
    additionalDirs: opts.additionalDirs,
    skills: opts.skills,
    pluginSections: opts.plugins?.promptSections,
    compat: opts.compat,
    listingBudgetBytes: offered.listingBytes,
  };
  const mainProfile = chooseMainProfile(a, session, lent, offered, promptContext);
  const delegationDeps = planDelegation(a, work, lent, offered, promptContext);
  const { setup, fileHistory } = describeSetup(a, session, lent, offered, extractor);
  const tower = openTower(a, work, offered, promptContext);
  // Closed first (newest first): the last extraction still reaches the model before anything else stops.
  a.disposables.add({ name: 'memory extraction', dispose: ({ force }) => extractor.close({ force }) });

  // Step 10. SessionStart runs now; the main agent's first request waits for it.
  const gateContext = () => ({
    sessionId: session.id,
    agentId: MAIN_AGENT_ID,
    cwd: opts.cwd,
    signal: new AbortController().signal,
  });
  const started = a.gate.sessionStart(
    { source: opts.resume ? 'resume' : 'startup', model: opts.model.alias },
    gateContext(),
  );
  // [loop_control] idle_timeout_s: the wait for a first byte and for each next chunk.
  const timeouts = {
    ...opts.modelClient,
    ...(opts.loop.idleTimeoutMs === undefined
      ? {}
      : { timeoutMs: opts.loop.idleTimeoutMs, idleTimeoutMs: opts.loop.idleTimeoutMs }),
  };
  let swarmMode = !!opts.swarmMode;
  const skillInvoker = new SkillInvoker(opts.skills);
  const main = assembleAgent(setup, {
    session,
    binding: bindModel(opts.model, opts.client, timeouts),
    tools: withRunTools(
      offered.tools.view((t) => mainProfile.offers(t.name)),
      opts.mainAgent?.tools ?? [],
    ),
    resumed: !!opts.resume,
    planMode: opts.planMode,
    approvalPort: opts.approvalPort,
    permissions: () => ({ mode: session.state.mode, sessionApprovals: session.state.sessionApprovals, swarmMode }),
    ready: started,
    services: [
      [SKILL_SERVICE.name, skillInvoker],
      [DELEGATION_SERVICE.name, new Delegation(delegationDeps, () => a.main.agent, mainProfile.profile, true)],
      ...(tower ? [[TOWER_SERVICE.name, tower.coordinator()] as const] : []),
    ],
    extensions: [skillInvoker.extension, swarmAloneRule, ...(opts.mainAgent?.extensions ?? [])],
  });
  const agents = new AgentDirectory(setup, main);
  a.main.fill(main, agents);

  // Step 11. Start what waits for the main agent: extraction follows it, task results reach it, cron may fire.
  const { agent, features } = main;
  extractor.track(agent, true);
  work.notifications.bind(work.tasks, agent);
  if (opts.resume) work.tasks.restore();
  work.cron.start();
  let closing: Promise<void> | undefined;
  return {
    tower,
    session,
    agent,
    agents,
    tools: offered.tools,
    offered: main.offered,
    gate: a.gate,
    reinjections: setup.reinjections,
    disposables: a.disposables,
    warnings: a.warnings,
    services: main.services,
    tasks: work.tasks,
    notifications: work.notifications,
    cron: work.cron,
    compaction: main.compaction,
    plan: features.plan,
    goals: features.goals,
    todos: features.todos,
    skills: opts.skills,
    fileHistory,
    workspace: setup.workspace,
    get swarmMode() {
      return swarmMode;
    },
    set swarmMode(on: boolean) {
      swarmMode = on;
    },
    setModel(model, client) {
      agent.setModel(model, bindModel(model, client, timeouts).getClient);
      offered.tools.setAvailability({ capabilities: model.capabilities, nonInteractive: opts.nonInteractive });
      if (session.state.modelAlias !== model.alias || session.state.modelId !== model.model)
        session.commit({ type: 'model', modelAlias: model.alias, modelId: model.model });
    },
    close(closeOpts = {}) {
      closing ??= (async () => {
        await a.gate.sessionEnd({ reason: 'exit' }, gateContext());
        await agents.close();
        const failures = await a.disposables.disposeAll({ force: !!closeOpts.force });
        for (const text of failures) a.emit({ type: 'notice', level: 'warning', text, agentId: MAIN_AGENT_ID });
        session.saveSummary();
        lock.release();
      })();
      return closing;
    },
  };
}
