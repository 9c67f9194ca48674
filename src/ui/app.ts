// The interactive terminal UI: wires the terminal, the screen, the input box and the engine.
// Input is routed by inputRouter.ts (global keys → open panel or input box; lines → shell, slash
// command or prompt); engine events flow through the turn view into the transcript, with notices from
// engineNotices.ts; what the engine asks (approvals, plan reviews, questions) waits in the engine's
// QuestionQueue and takes the input box's place one at a time (questionPanels.ts), and popups the user
// opened (help, pickers) give way to it; /compact and /undo live in contextActions.ts. Every change
// asks the screen for a frame, and nothing else does.
import { Editor, ProcessTerminal, type Component, type Terminal, type TUI } from '@mariozechner/pi-tui';
import type { PermissionRule } from '../engine/approvals';
import { DEFAULT_COMPACTION_TRIGGER_RATIO, type CompactionThresholds } from '../engine/context';
import { MAIN_AGENT_ID, type EngineEvent } from '../engine/events';
import type { PermissionMode } from '../engine/records';
import type { Runtime } from '../engine/runtime';
import type { ForkResult } from '../engine/fork';
import { QuestionQueue } from '../engine/questionQueue';
import type { ContentPart } from '../llm/types';
import type { JarvisConfig } from '../store/config';
import { displayPath, shellOutputsDir } from '../store/paths';
import { listSessions, type SessionLocation } from '../store/sessionStore';
import type { TokenCountingStrategy } from '../store/settings';
import { loadUserHistory } from '../store/userHistory';
import { InputCompletion } from './completion';
import { ContextActions, type ContextActionsHost } from './contextActions';
import { liveSelectListTheme, SelectDialog, TextPopup } from './dialogs/selectDialog';
import { trustDialog, needsTrustDecision } from './dialogs/trustPrompt';
import type { McpManager } from '../ext/mcp/mcpManager';
import { loginMcpServer } from '../ext/mcp/mcpOAuth';
import { mcpFailureText, startMcpServers } from '../ext/mcp/mcpSession';
import { openInBrowser } from '../platform/openInBrowser';
import type { LoadedMcpServers } from '../store/mcpConfig';
import { editorCommand, editText } from './externalEditor';
import { Footer, type FooterState } from './footer';
import { automaticTurnNotice, goalNotice, planModeNotice, type UiNotice } from './engineNotices';
import { gitBranch } from './gitBranch';
import { InputRouter, type InputHost } from './inputRouter';
import { LiveRegion } from './liveRegion';
import { preloadHighlighter } from './markdown';
import { Screen } from './screen';
import { SessionControl, SessionControlError, type BaseRuntimeOptions } from '../engine/sessionControl';
import { runShellCommand, shellContext, type ShellRun } from './shellMode';
import { panelApprovalPort, panelInteractionPort } from './questionPanels';
import { PromptAttacher } from './promptAttacher';
import { findCommand, SLASH_COMMANDS, type CommandHost, type PanelHost, type PickItem } from './slashCommands';
import { announcePluginUpdates } from './plugins/pluginEntry';
import { loadTheme, type Theme } from './theme';
import { TuiPreferences, type PreferencesHost } from './tuiPreferences';
import type { ViewState } from './transcript/block';
import { CompactionBlock } from './transcript/compactionBlock';
import { LinesBlock, NoticeBlock, UserBlock } from './transcript/messageBlocks';
import { blocksFromMessages } from './transcript/replay';
import { ToolCard } from './transcript/toolCard';
import { Transcript } from './transcript/transcript';
import { TodoPanel } from './todoPanel';
import { SwarmPanel } from './subagents/swarmPanel';
import { TurnView } from './turnView';
import { turnEndNotice } from './turnMessages';

export interface AppOptions {
  version: string;
  home: string;
  cwd: string;
  config: JarvisConfig;
  configPath: string;
  env: NodeJS.ProcessEnv;
  warnings: string[];
  runtime: BaseRuntimeOptions;
  /** `--session` without an id: open the session picker first. */
  pickSession: boolean;
  /** Tests and the benchmark drive a virtual terminal. */
  terminal?: Terminal;
  /** `[token_counting] strategy` for the footer's context figure and /usage. */
  tokenCounting?: TokenCountingStrategy;
  /** mcp.json servers; the project's untrusted ones start if the user trusts the folder. */
  mcp?: LoadedMcpServers;
  /** Announced to MCP servers as the client name (the identity slug). */
  mcpClientName?: string;
  /** `/reload`: reads config.toml, plugins, skills, agents, hooks and mcp.json again; throws with a message for the user. */
  reloadOptions?: () => Promise<ReloadedOptions>;
}

/** What `/reload` reads again. */
export type ReloadedOptions = Pick<AppOptions, 'config' | 'configPath' | 'warnings' | 'runtime' | 'mcp' | 'tokenCounting' | 'mcpClientName'>;

const SPINNER_MS = 120;

export class App implements CommandHost {
  readonly version: string;
  readonly cwd: string;
  readonly home: string;
  private readonly term: Terminal;
  readonly screen: Screen;
  readonly view: ViewState;
  readonly transcript: Transcript;
  readonly editor: Editor;
  private readonly completion: InputCompletion;
  /** `@path` attachments and pasted images (promptAttacher.ts). */
  private readonly attacher: PromptAttacher;
  private readonly controller: SessionControl;
  private turnView: TurnView;
  /** A popup the user opened (help, pickers, the trust prompt). */
  private popupPanel: Component | undefined;
  /** What the engine asks, first asked first shown; withdrawn when the app shuts down. */
  private readonly questions: QuestionQueue<Component>;
  private readonly input: InputRouter;
  private readonly context: ContextActions;
  private todosExpanded = false;
  /** Engine events sent while a runtime was still opening; shown once it is open. */
  private deferredEvents: EngineEvent[] = [];
  private lastPlanActive: boolean | undefined;
  private queuedPrompts: string[] = [];
  /** `/swarm <task>` turned swarm mode on: 'pending' until its turn starts, then that turn's id. */
  private swarmTaskTurn: string | undefined;
  private shellContexts: string[] = [];
  private shell: ShellRun | undefined;
  private activityState: { since: number; frame: number; label: string } | undefined;
  private spinner: ReturnType<typeof setInterval> | undefined;
  private branch: string | undefined;
  contextTokens = 0;
  contextLimit: number;
  private finished: ((code: number) => void) | undefined;
  /** tui.toml: theme, LaTeX, editor, status line; /theme and /reload-tui change them. */
  readonly preferences: TuiPreferences;
  mcp: McpManager | undefined;

  constructor(private opts: AppOptions) {
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- hosts' getters read the app live
    const app = this;
    this.version = opts.version;
    this.mcp = this.startMcp();
    this.cwd = opts.cwd;
    this.home = opts.home;
    this.term = opts.terminal ?? new ProcessTerminal();
    this.view = { theme: loadTheme('dark', opts.home).theme, expanded: false, cwd: opts.cwd };
    this.preferences = new TuiPreferences(this.preferencesHost());
    const preferenceWarnings = this.preferences.load();
    this.transcript = new Transcript((lines) => this.screen.pushScrollback(lines), () => this.term.columns);
    this.questions = new QuestionQueue<Component>((queue, added) => this.onQuestionsChanged(queue, added?.background));
    const panelEnv = { theme: () => this.view.theme, cwd: this.cwd, rows: () => this.term.rows };
    this.controller = new SessionControl({
      base: { ...opts.runtime, mcp: this.mcp },
      models: { config: opts.config, configPath: opts.configPath, env: opts.env },
      nonInteractive: false,
      notificationDelivery: 'agent',
      approvalPort: panelApprovalPort(this.questions, panelEnv),
      interactionPort: panelInteractionPort(this.questions, panelEnv),
      onEvent: (e) => this.onEngineEvent(e),
    });
    this.contextLimit = this.controller.contextWindow;
    this.lastPlanActive = this.controller.planMode;
    this.turnView = this.newTurnView();
    // The editor only needs a render hook and the terminal height from its host.
    const host = { terminal: this.term, requestRender: () => this.screen.requestRender() } as unknown as TUI;
    this.editor = new Editor(host, { borderColor: this.view.theme.fg.border, selectList: liveSelectListTheme(() => this.view.theme) }, { autocompleteMaxVisible: 8 });
    this.editor.focused = true;
    this.input = new InputRouter(this.inputHost());
    this.context = new ContextActions(this.contextHost());
    this.editor.onSubmit = (text) => {
      this.screen.scrollTranscript('end');
      void this.input.submit(text);
    };
    this.editor.onChange = (text) => this.onEditorChange(text);
    // Read on every menu: /reload may change the skills and plugins.
    const skillCommands = () => (this.opts.runtime.skills?.all ?? []).map((s) => ({ name: `skill:${s.name}`, aliases: findCommand(s.name) ? [] : [s.name], description: s.description }));
    const pluginCommands = () => (this.opts.runtime.plugins?.commands ?? []).map((c) => ({ name: c.name, aliases: [], description: c.description }));
    this.completion = new InputCompletion(opts.cwd, () => [...SLASH_COMMANDS, ...skillCommands(), ...pluginCommands()]);
    this.attacher = new PromptAttacher({
      cwd: opts.cwd,
      get rules() {
        return app.opts.runtime.rules;
      },
      imageInput: () => this.controller.model.capabilities.includes('image_in'),
      get modelLabel() {
        return app.modelLabel;
      },
      notice: (level, text, hint) => this.notice(level, text, hint),
      requestRender: () => this.requestRender(),
    });
    this.editor.setAutocompleteProvider(this.completion);
    for (const entry of loadUserHistory(opts.home, opts.cwd).slice(-100)) this.editor.addToHistory(entry);
    const footer = new Footer(() => this.view.theme, () => {
      const rt = this.controller.runtime;
      const goal = rt?.session.state.goal;
      const usage = rt?.session.state.usage;
      const state: FooterState = {
        mode: this.mode, plan: this.controller.planMode, swarm: this.controller.swarmMode, model: this.modelLabel, contextTokens: this.contextTokens, contextLimit: this.contextLimit, cwd: this.cwd,
        branch: this.branch, hint: this.input.hint, shell: this.editor.getText().startsWith('!'), busy: this.busy, compacting: this.compacting,
        goal: goal ? { status: goal.status, turns: goal.used.turns } : undefined,
        tokens: usage ? { input: usage.inputTokens, output: usage.outputTokens } : undefined, tasks: rt?.tasks.runningCount(), items: this.preferences.statusItems,
      };
      state.custom = this.preferences.customStatus(state, { version: this.version, sessionId: rt?.session.id });
      return state;
    });
    const todos = new TodoPanel(() => this.view.theme, () => ({ todos: this.controller.runtime?.session.state.todos ?? [], expanded: this.todosExpanded, busy: this.busy }));
    const live = new LiveRegion({
      theme: () => this.view.theme,
      transcript: this.transcript,
      todos,
      swarm: new SwarmPanel(() => this.view.theme, () => this.turnView.subagents.activeSwarm),
      activity: () => this.activityState,
      queued: () => this.queuedPrompts,
      panel: () => this.panel,
      input: this.editor,
      footer,
    });
    this.screen = new Screen(this.term, live, (w) => this.transcript.renderHistory(w));
    for (const w of [...opts.warnings, ...preferenceWarnings]) this.transcript.add(new NoticeBlock(this.view, 'warning', w));
  }

  // ---- CommandHost -------------------------------------------------------------------------

  get configPath(): string {
    return this.opts.configPath;
  }
  get permissionRules(): readonly PermissionRule[] {
    return this.opts.runtime.rules;
  }

  /** The MCP servers of mcp.json (and enabled plugins), started now while the user types; the first model request waits for them (docs/mcp.md). */
  private startMcp(): McpManager | undefined {
    const opts = this.opts;
    return startMcpServers(opts.mcp?.servers ?? [], {
      home: opts.home,
      clientName: opts.mcpClientName ?? 'jarvis',
      version: opts.version,
      always: !!opts.mcp?.untrusted.length,
      onFailure: (server, error) => this.notice('warning', mcpFailureText(server, error), '/mcp shows every server; fix the configuration and run /reload.'),
    });
  }

  /**
   * `/reload`: config.toml, tui.toml, plugins, skills, agents, hooks and MCP servers are read again and the
   * session reopens with them (its conversation goes on). A config.toml that does not load changes nothing.
   */
  async reload(): Promise<void> {
    if (!this.opts.reloadOptions) {
      this.notice('warning', 'This front end cannot reload its configuration.');
      return;
    }
    let next: ReloadedOptions;
    try {
      next = await this.opts.reloadOptions();
    } catch (e) {
      this.notice('error', `Nothing was reloaded: ${(e as Error).message}`, 'Fix it and run /reload again; the session goes on as it was.');
      return;
    }
    const location = this.controller.runtime?.session.location;
    await this.controller.close();
    await this.mcp?.close();
    this.opts = { ...this.opts, ...next };
    this.mcp = this.startMcp();
    this.controller.reconfigure({ ...next.runtime, mcp: this.mcp }, { config: next.config, configPath: next.configPath, env: this.opts.env });
    for (const w of next.warnings) this.notice('warning', w);
    this.preferences.reload();
    this.turnView.dispose();
    this.turnView = this.newTurnView();
    if (location) {
      try {
        const rt = await this.controller.resume(location);
        for (const w of rt.warnings) this.notice('warning', w);
      } catch (e) {
        this.notice('error', `Reloaded, but the session could not reopen: ${(e as Error).message}`, 'Type to start a new session, or /sessions to pick one.');
        return;
      }
    }
    this.refreshContext();
    this.notice('success', location ? 'Reloaded config.toml, plugins, skills, agents, hooks and MCP servers; the session goes on with them.' : 'Reloaded config.toml, plugins, skills, agents, hooks and MCP servers; they apply from your first message.');
  }

  get busy(): boolean {
    return !!this.controller.runtime?.agent.busy;
  }
  /** A `!command` of shell mode is running. */
  get shellRunning(): boolean {
    return !!this.shell;
  }

  get compacting(): boolean {
    return !!this.controller.runtime?.compaction.compacting;
  }
  get tokenCounting(): TokenCountingStrategy | undefined {
    return this.opts.tokenCounting;
  }
  get compactionThresholds(): CompactionThresholds | undefined {
    const c = this.opts.runtime.compaction;
    return c ? { triggerRatio: c.triggerRatio ?? DEFAULT_COMPACTION_TRIGGER_RATIO, reservedContextSize: c.reservedContextSize } : undefined;
  }
  get runtime(): Runtime | undefined {
    return this.controller.runtime;
  }
  /** The panel in the input box's place. A background question waits until the agent is idle. */
  private get panel(): Component | undefined {
    return this.questions.current(this.busy) ?? this.popupPanel;
  }
  get planMode(): boolean {
    return this.controller.planMode;
  }
  set planMode(on: boolean) {
    this.controller.planMode = on;
    // Before the session exists no event says so: tell the user here.
    if (!this.controller.runtime && this.lastPlanActive !== on) {
      this.lastPlanActive = on;
      this.notice('info', on ? 'Plan mode on: the session starts in plan mode with your first message.' : 'Plan mode off.');
    }
    this.requestRender();
  }
  get session() {
    return this.controller.runtime?.session;
  }
  get fullScreen(): boolean {
    return this.screen.fullScreen;
  }
  set fullScreen(on: boolean) {
    this.screen.setFullScreen(on);
  }
  get swarmMode(): boolean {
    return this.controller.swarmMode;
  }
  set swarmMode(on: boolean) {
    this.controller.swarmMode = on;
    if (!on) this.swarmTaskTurn = undefined;
    this.requestRender();
  }

  sendSwarmTask(task: string): void {
    if (!this.swarmMode) {
      this.swarmMode = true;
      this.swarmTaskTurn = 'pending';
      this.notice('info', 'Swarm mode on for this task: AgentSwarm runs without asking; it turns off when the task completes.');
    }
    this.sendPrompt(task);
  }
  sendCommandPrompt(text: string, modelText: string): void {
    this.sendPrompt(text, modelText);
  }
  get mode(): PermissionMode {
    return this.controller.mode;
  }
  set mode(mode: PermissionMode) {
    this.controller.mode = mode;
    this.requestRender();
  }
  get modelLabel(): string {
    const m = this.controller.model;
    return m.alias && m.alias !== 'JARVIS_MODEL' ? m.alias : m.displayName || m.model;
  }
  get modelAliases(): string[] {
    return this.controller.modelAliases;
  }

  notice(level: 'info' | 'warning' | 'error' | 'success', text: string, hint?: string): void {
    this.transcript.add(new NoticeBlock(this.view, level, text, hint));
    this.requestRender();
  }

  async mcpLogin(server: string): Promise<void> {
    const config = this.mcp?.configOf(server);
    if (!config) {
      this.notice('error', `There is no MCP server "${server}" in this session.`, '/mcp lists them.');
      return;
    }
    try {
      await loginMcpServer(config, {
        home: this.home,
        clientName: this.opts.mcpClientName ?? 'jarvis',
        timeoutMs: 5 * 60_000,
        openUrl: (url) => {
          this.notice('info', `Open this address to sign in to "${server}": ${url}`);
          openInBrowser(url);
        },
      });
    } catch (e) {
      this.notice('error', `Signing in to "${server}" failed: ${(e as Error).message}`);
      return;
    }
    await this.mcp!.add(config);
    this.notice('success', `Signed in to "${server}"; reconnecting.`, '/mcp shows its state.');
  }

  get pluginSettings(): { env: NodeJS.ProcessEnv; allowPrivateNetwork: boolean } {
    return { env: this.opts.env, allowPrivateNetwork: this.opts.config.web.allow_private_network };
  }

  popup(title: string, lines: string[]): void {
    this.popupPanel = new TextPopup(this.view.theme, title, lines, () => this.closePanel(), () => this.term.rows);
    this.requestRender();
  }

  pick(title: string, items: PickItem[], onPick: (value: string) => void, body?: string[]): void {
    this.popupPanel = new SelectDialog(this.view.theme, { title, items, body, onSelect: (v) => { this.closePanel(); onPick(v); }, onCancel: () => this.closePanel() });
    this.requestRender();
  }

  showPanel(make: (host: PanelHost) => Component): void {
    this.popupPanel = make({ close: () => this.closePanel(), terminal: this.term, requestRender: () => this.requestRender() });
    this.requestRender();
  }

  /** The runtime, opened now if the session has not started yet; undefined (with a notice) if it cannot open. */
  ensureRuntime(): Runtime | undefined {
    try {
      return this.controller.ensure();
    } catch (e) {
      this.notice('error', `Could not start the session: ${(e as Error).message}`, 'Check the data folder ($JARVIS_CODE_HOME) is writable.');
      return undefined;
    }
  }

  /** Copies text to the terminal's clipboard (OSC 52; terminals that do not support it ignore it). */
  copyToClipboard(text: string): void {
    this.term.write(`\x1b]52;c;${Buffer.from(text).toString('base64')}\x07`);
  }

  async newSession(): Promise<void> {
    await this.controller.newSession();
    this.turnView.dispose();
    this.turnView = this.newTurnView();
    this.context.turnBlocks.clear();
    this.refreshContext();
    this.notice('info', 'New session. The previous one is kept: /sessions lists it.');
  }

  async resumeSession(location: SessionLocation): Promise<void> {
    let rt: Runtime;
    try {
      rt = await this.controller.resume(location);
    } catch (e) {
      this.notice('error', `Could not resume the session: ${(e as Error).message}`, 'The previous session was closed; type to start a new one.');
      return;
    }
    this.turnView.dispose();
    this.turnView = this.newTurnView();
    this.context.turnBlocks.clear();
    this.showResumed(rt.session.id);
  }

  async switchModel(alias: string): Promise<void> {
    try {
      this.controller.switchModel(alias);
    } catch (e) {
      const hint = e instanceof SessionControlError ? undefined : 'Pick one of the aliases defined under [models] in config.toml.';
      this.notice('error', (e as Error).message, hint);
      return;
    }
    this.refreshContext();
    this.notice('success', `Model: ${this.modelLabel}`, 'The provider prompt cache starts over; /new starts a fresh session.');
  }

  forkSession(): ForkResult {
    return this.controller.fork();
  }

  exit(code = 0): void {
    void this.shutdown(code);
  }

  // ---- lifecycle -----------------------------------------------------------------------------

  /** Runs until the user exits; resolves with the exit code. */
  async run(): Promise<number> {
    const done = new Promise<number>((resolve) => (this.finished = resolve));
    this.term.start((data) => this.input.onInput(data), () => this.screen.requestRender());
    this.term.hideCursor();
    if (this.opts.env.JARVIS_CODE_TUI_FULL_SCREEN === '1') this.screen.setFullScreen(true);
    this.branch = gitBranch(this.cwd);
    this.transcript.add(this.banner());
    try {
      const resumed = this.controller.openInitial();
      if (resumed) this.showResumed(resumed.session.id);
    } catch (e) {
      // e.g. the session is locked by another process: say so and start fresh instead of crashing.
      void this.controller.newSession();
      this.notice('error', `Could not resume the session: ${(e as Error).message}`, 'Type to start a new session, or /sessions to pick another.');
    }
    if (needsTrustDecision(this.home, this.cwd)) this.popupPanel = trustDialog(this.view.theme, this.home, this.cwd, (trusted) => this.afterTrust(trusted));
    else this.afterTrust(false);
    this.requestRender();
    void preloadHighlighter();
    void announcePluginUpdates(this).catch(() => undefined);
    return done;
  }

  private afterTrust(trustedNow: boolean): void {
    this.closePanel();
    if (trustedNow) for (const server of this.opts.mcp?.untrusted ?? []) void this.mcp?.add(server);
    if (this.opts.pickSession) {
      const sessions = listSessions(this.home, this.cwd);
      if (sessions.length) {
        const byId = new Map(sessions.map((s) => [s.sessionId, s]));
        this.pick('Resume a session', sessions.slice(0, 50).map((s) => ({ value: s.sessionId, label: (s.summary?.title ?? s.summary?.lastPrompt ?? '(no prompt yet)').split('\n')[0].slice(0, 60), description: s.sessionId.slice(-8) })), (id) => void this.resumeSession(byId.get(id)!));
      } else this.notice('info', `No sessions in ${displayPath(this.cwd)} yet; starting a new one.`);
    }
  }

  private banner(): LinesBlock {
    return new LinesBlock(this.view, () => {
      const { fg } = this.view.theme;
      return [
        `${this.view.theme.bold(fg.primary('✦ Jarvis Code'))} ${fg.textDim(`v${this.version}`)}`,
        fg.textDim(`  ${displayPath(this.cwd)} · ${this.modelLabel}`),
        fg.textMuted('  Type a message and press Enter. /help lists keys and commands.'),
      ];
    });
  }

  private showResumed(id: string): void {
    const rt = this.controller.runtime!;
    for (const w of rt.warnings) this.transcript.add(new NoticeBlock(this.view, 'warning', w));
    for (const b of blocksFromMessages(rt.session.state.messages, this.view, rt.session.state.compactions)) this.transcript.add(b);
    this.refreshContext();
    this.notice('info', `Resumed session ${id}${rt.session.state.title ? ` — ${rt.session.state.title}` : ''}`);
  }

  private async shutdown(code: number): Promise<void> {
    if (!this.finished) return;
    const finish = this.finished;
    this.finished = undefined;
    this.stopSpinner();
    this.preferences.dispose();
    this.turnView.dispose();
    this.questions.cancelAll();
    this.attacher.dispose();
    this.context.cancelCompaction();
    const shellStopped = this.shell?.interrupt();
    const id = this.session?.id;
    this.screen.stop();
    this.term.showCursor();
    this.term.stop();
    // Nothing the user started with `!` outlives the UI.
    await shellStopped;
    await this.controller.close(true);
    await this.mcp?.close();
    if (id) process.stdout.write(`Resume this session with: jarvis --session ${id}\n`);
    finish(code);
  }

  requestRender(): void {
    this.screen.requestRender();
  }

  private closePanel(): void {
    this.popupPanel = undefined;
    this.requestRender();
  }

  /** The footer's context figure: what the next request will carry (engine/context.ts). */
  refreshContext(): void {
    this.contextTokens = this.controller.contextTokens(this.opts.tokenCounting);
    this.contextLimit = this.controller.contextWindow;
  }

  private preferencesHost(): PreferencesHost {
    return {
      home: this.home,
      cwd: this.cwd,
      env: this.opts.env,
      view: this.view,
      notice: (level, text, hint) => this.notice(level, text, hint),
      showPanel: (panel) => {
        this.popupPanel = panel;
        this.requestRender();
      },
      restyle: () => {
        this.onEditorChange(this.editor.getText());
        this.screen.requestReprint();
      },
      requestRender: () => this.requestRender(),
    };
  }

  // ---- input ---------------------------------------------------------------------------------

  private inputHost(): InputHost {
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the host's getters read the app live
    const app = this;
    return {
      editor: this.editor,
      home: this.home,
      cwd: this.cwd,
      get skills() {
        return app.opts.runtime.skills;
      },
      get plugins() {
        return app.opts.runtime.plugins;
      },
      get panel() {
        return app.panel;
      },
      work: this,
      get mode() {
        return app.mode;
      },
      set mode(mode: PermissionMode) {
        app.mode = mode;
      },
      get planMode() {
        return app.planMode;
      },
      set planMode(on: boolean) {
        app.planMode = on;
      },
      commands: this,
      requestRender: () => this.requestRender(),
      exit: (code) => this.exit(code),
      interrupt: () => this.interrupt(),
      undo: () => this.undo(),
      toggleExpand: () => this.toggleExpand(),
      toggleTodos: () => void (this.todosExpanded = !this.todosExpanded),
      scrollTranscript: (pages) => {
        if (!this.screen.fullScreen) return false;
        this.screen.scrollTranscript(pages * Math.max(1, this.screen.viewportRows - 1));
        return true;
      },
      openExternalEditor: () => this.openExternalEditor(),
      steer: (text) => {
        this.controller.runtime!.agent.submit({ kind: 'steer', text });
        this.transcript.add(new UserBlock(this.view, text, 'steer'));
      },
      sendPrompt: (text, modelText) => this.sendPrompt(text, modelText),
      runShell: (command) => this.runShell(command),
      refreshCompletion: () => this.completion.refresh(),
      pasteImage: () => void this.pasteImage(),
      pastedImage: (text) => this.attacher.pasteText(text),
    };
  }

  private toggleExpand(): void {
    this.view.expanded = !this.view.expanded;
    this.screen.requestReprint();
  }

  private onEditorChange(text: string): void {
    const { fg } = this.view.theme;
    this.editor.borderColor = text.startsWith('!') ? fg.shellMode : fg.border;
  }

  private openExternalEditor(): void {
    const command = editorCommand(this.preferences.editorCommand, this.opts.env);
    if (!command) {
      this.notice('warning', 'No external editor is configured.', 'Set $VISUAL or $EDITOR, or [editor] command in tui.toml.');
      return;
    }
    // The editor takes the whole terminal (often its alternate screen): full-screen mode steps aside.
    const fullScreen = this.screen.fullScreen;
    this.screen.setFullScreen(false);
    this.term.stop();
    const result = editText(command, this.editor.getExpandedText());
    this.term.start((data) => this.input.onInput(data), () => this.screen.requestRender());
    this.term.hideCursor();
    this.screen.setFullScreen(fullScreen);
    if (result.text !== undefined) this.editor.setText(result.text);
    if (result.error) this.notice('error', result.error);
    this.screen.requestReprint();
  }

  private interrupt(): void {
    if (this.shell) void this.shell.interrupt();
    this.context.cancelCompaction();
    const rt = this.controller.runtime;
    if (!rt?.agent.busy) return;
    rt.agent.cancel(true);
    // Queued messages were dropped from the engine's queue: give them back to the input box.
    if (this.queuedPrompts.length) {
      const current = this.editor.getText();
      this.editor.setText([...this.queuedPrompts, current].filter(Boolean).join('\n'));
      this.queuedPrompts = [];
    }
  }

  /** `modelText`: what the model receives when it differs from what the user typed (a skill's instructions). */
  private sendPrompt(text: string, modelText = text): void {
    // A prompt typed while a `!` command runs goes with that command's output, so it waits for its end.
    if (this.shell) {
      this.notice('info', 'The prompt is sent when the shell command ends (Esc stops it).');
      void this.shell.done.then(() => this.sendPrompt(text, modelText));
      return;
    }
    const rt = this.ensureRuntime();
    if (!rt) return;
    const content: ContentPart[] = [...this.shellContexts.map((t) => ({ type: 'text' as const, text: t })), { type: 'text', text: modelText }];
    this.shellContexts = [];
    if (rt.agent.busy) this.queuedPrompts.push(text);
    this.completion.noteMentions(text);
    this.attacher.send(rt, text, content, (withAttachments) => rt.agent.submit({ kind: 'prompt', text, content: withAttachments }));
    this.requestRender();
  }

  /** Ctrl-V: the clipboard's image as a placeholder, or its text as a paste. */
  private async pasteImage(): Promise<void> {
    const pasted = await this.attacher.pasteFromClipboard();
    if (pasted?.kind === 'image') this.editor.insertTextAtCursor(pasted.insert);
    else if (pasted) this.editor.handleInput(`\x1b[200~${pasted.insert}\x1b[201~`);
    this.requestRender();
  }

  private runShell(command: string): void {
    if (!command) return;
    if (this.shell) {
      this.notice('warning', 'A shell command is still running.', 'Wait for it, or press Esc to stop it.');
      return;
    }
    // The full output is kept in the session folder, which the agent may read without asking.
    const rt = this.ensureRuntime();
    if (!rt) return;
    this.transcript.add(new UserBlock(this.view, command, 'shell'));
    const card = new ToolCard(this.view, `shell-${Date.now()}`, 'Shell', command);
    this.transcript.add(card);
    this.startActivity(`Running ${command.split('\n')[0].slice(0, 40)}`);
    const outputDir = shellOutputsDir(rt.session.dir);
    const graceMs = rt.tasks.settings.killGracePeriodMs;
    const run = runShellCommand(command, { cwd: this.cwd, outputDir, graceMs }, (chunk) => {
      card.appendOutput(chunk);
      this.requestRender();
    });
    this.shell = run;
    void run.done.then((result) => {
      const { output, exitCode } = result;
      this.shell = undefined;
      card.finish({ text: output, isError: exitCode !== 0, display: { kind: 'command', command, exitCode } }, exitCode === 0 ? 'ok' : 'error');
      this.transcript.flush();
      this.shellContexts.push(shellContext(command, result));
      if (!this.busy) this.stopSpinner();
      this.requestRender();
    });
  }

  // ---- engine --------------------------------------------------------------------------------

  private newTurnView(): TurnView {
    return new TurnView(this.view, this.transcript, {
      requestRender: () => this.requestRender(),
      onUsage: () => this.refreshContext(),
      onTurnStart: (prompt, origin, turnId) => {
        if (origin === 'user' && this.swarmTaskTurn === 'pending') this.swarmTaskTurn = turnId;
        if (origin === 'user') {
          const i = this.queuedPrompts.indexOf(prompt);
          if (i >= 0) this.queuedPrompts.splice(i, 1);
          const block = new UserBlock(this.view, prompt, 'prompt', this.attacher.takeChips(prompt));
          this.context.turnBlocks.set(turnId, block);
          this.transcript.add(block);
        } else {
          this.transcript.add(new NoticeBlock(this.view, 'info', automaticTurnNotice(origin)));
        }
        this.startActivity('Working…');
      },
      onTurnEnd: (reason, error, turnId) => {
        const n = turnEndNotice(reason, error);
        if (n) this.transcript.add(new NoticeBlock(this.view, n.level, n.text, n.hint));
        // SPEC §2.4: the swarm task's normal completion ends swarm mode; an interrupted or failed one keeps it.
        if (turnId === this.swarmTaskTurn && reason === 'completed') {
          this.swarmMode = false;
          this.notice('info', 'Swarm task completed; swarm mode off.');
        }
        this.refreshContext();
        this.branch = gitBranch(this.cwd);
        // The engine's queue may start the next turn right away; the spinner stops only when idle.
        setImmediate(() => {
          if (!this.busy && !this.shell) this.stopSpinner();
          this.requestRender();
        });
      },
      onMode: () => undefined,
    });
  }

  private onEngineEvent(event: EngineEvent): void {
    // The transcript shows the main agent; a subagent's events only update its line in the subagent
    // group or swarm panel (what it is doing, whether it waits for an approval).
    if (event.agentId !== MAIN_AGENT_ID) {
      if (this.turnView.subagents.onChildEvent(event)) this.requestRender();
      return;
    }
    // Events sent while a runtime opens (--plan, a resumed goal being paused) wait until it is open,
    // so they appear after the resumed history, not before it.
    if (!this.controller.runtime) {
      if (!this.deferredEvents.length) setImmediate(() => this.flushDeferredEvents());
      this.deferredEvents.push(event);
      return;
    }
    switch (event.type) {
      case 'plan_mode':
        this.onPlanMode(event.active, event.planPath);
        break;
      case 'goal':
        this.show(goalNotice(event.change, event.goal, this.controller.runtime.goals.upcoming().length));
        break;
      case 'compaction_end':
        if (!event.error && event.summary) {
          this.turnView.flushDeltas();
          const info = this.controller.runtime.session.state.compactions.at(-1);
          this.transcript.add(new CompactionBlock(this.view, { trigger: event.trigger, summary: event.summary, tokensBefore: event.tokensBefore, tokensAfter: event.estimatedTokenCount, instruction: info?.instruction }));
        }
        this.refreshContext();
        break;
    }
    this.turnView.handle(event);
  }

  private flushDeferredEvents(): void {
    const events = this.deferredEvents;
    this.deferredEvents = [];
    if (!this.controller.runtime) return;
    for (const e of events) this.onEngineEvent(e);
  }

  private onPlanMode(active: boolean, planPath: string): void {
    const changed = this.lastPlanActive !== active;
    this.lastPlanActive = active;
    if (changed) this.show(planModeNotice(active, planPath));
  }

  private show(n: UiNotice | undefined): void {
    if (n) this.notice(n.level, n.text, n.hint);
  }

  // ---- what the engine asks ------------------------------------------------------------------

  /** A question was asked or settled: the panel and the activity label follow the queue. */
  private onQuestionsChanged(queue: QuestionQueue<Component>, addedInBackground?: boolean): void {
    if (addedInBackground !== undefined) {
      this.turnView.flushDeltas();
      this.transcript.flush();
      if (addedInBackground) this.notice('info', 'The agent asked you something in the background and keeps working; the question opens here when it is idle.');
    }
    if (this.activityState) this.activityState.label = queue.blockingLabel() ?? 'Working…';
    this.requestRender();
  }

  // ---- context: compaction and undo ---------------------------------------------------------

  compact(instruction: string): Promise<void> {
    return this.context.compact(instruction);
  }

  undo(count?: number): void {
    this.context.undo(count);
  }

  rewind(): void {
    this.context.rewind();
  }

  private contextHost(): ContextActionsHost {
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the host's getters read the app live
    const app = this;
    return {
      get runtime() {
        return app.controller.runtime;
      },
      work: this,
      notice: (level, text, hint) => this.notice(level, text, hint),
      pick: (title, items, onPick, body) => this.pick(title, items, onPick, body),
      popup: (title, lines) => this.popup(title, lines),
      startActivity: (label) => this.startActivity(label),
      stopActivity: () => this.stopSpinner(),
      refreshContext: () => this.refreshContext(),
      requestRender: () => this.requestRender(),
      rewindTranscript: (block) => {
        const at = block ? this.transcript.committed.indexOf(block) : -1;
        const rt = this.controller.runtime!;
        if (at >= 0) this.transcript.truncate(at);
        else this.transcript.reset([this.banner(), ...blocksFromMessages(rt.session.state.messages, this.view, rt.session.state.compactions)]);
      },
      restoreInput: (text) => this.editor.setText(text),
      planRestored: (active) => {
        this.lastPlanActive = active;
        this.screen.requestReprint();
      },
    };
  }

  private startActivity(label: string): void {
    if (!this.activityState) this.activityState = { since: Date.now(), frame: 0, label };
    else this.activityState.label = label;
    this.spinner ??= setInterval(() => {
      if (this.activityState) this.activityState.frame++;
      this.requestRender();
    }, SPINNER_MS);
  }

  private stopSpinner(): void {
    if (this.spinner) clearInterval(this.spinner);
    this.spinner = undefined;
    this.activityState = undefined;
  }

  get theme(): Theme {
    return this.view.theme;
  }
}

export async function runApp(opts: AppOptions): Promise<number> {
  return new App(opts).run();
}
