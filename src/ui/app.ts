// The interactive terminal UI's composition root: it builds the parts and wires them to each other.
// Input is routed by inputRouter.ts (global keys → open panel or input box; lines → shell, slash
// command or prompt); prompts go out through promptSender.ts and `!` commands through
// shellModeRunner.ts; engine events reach the transcript through conversationFeed.ts; what the engine
// asks and the popups the user opens take the input box's place through panelSlot.ts; the session's
// life (start, /new, resume, /model, /reload, MCP servers) is sessionLifecycle.ts; /compact and /undo
// live in contextActions.ts. Every change asks the screen for a frame, and nothing else does.
import { Editor, ProcessTerminal, type Component, type Terminal, type TUI } from '@mariozechner/pi-tui';
import type { PermissionRule } from '../engine/approvals';
import { DEFAULT_COMPACTION_TRIGGER_RATIO, type CompactionThresholds } from '../engine/context';
import type { ForkResult } from '../engine/fork';
import type { PermissionMode } from '../engine/records';
import type { EngineEvent } from '../engine/events';
import type { Runtime } from '../engine/runtime';
import type { SessionControl } from '../engine/sessionControl';
import type { McpManager } from '../ext/mcp/mcpManager';
import type { SessionLocation } from '../store/sessionStore';
import type { TokenCountingStrategy } from '../store/settings';
import { loadUserHistory } from '../store/userHistory';
import { ActivityIndicator } from './activityIndicator';
import type { AppOptions } from './appOptions';
import { InputCompletion } from './completion';
import { ContextActions, type ContextActionsHost } from './contextActions';
import { ConversationFeed } from './conversationFeed';
import { liveSelectListTheme } from './dialogs/selectDialog';
import { editInputBox, editorCommand } from './externalEditor';
import { Footer, type FooterState } from './footer';
import { gitBranch } from './gitBranch';
import { InputRouter, type InputHost } from './inputRouter';
import { LiveRegion } from './liveRegion';
import { preloadHighlighter } from './markdown';
import { signInToMcpServer } from './mcpServers';
import { PanelSlot } from './panelSlot';
import { announcePluginUpdates } from './plugins/pluginEntry';
import { PromptAttacher } from './promptAttacher';
import { PromptSender } from './promptSender';
import { panelApprovalPort, panelInteractionPort } from './questionPanels';
import { Screen } from './screen';
import { SessionLifecycle } from './sessionLifecycle';
import { ShellModeRunner } from './shellModeRunner';
import { findCommand, SLASH_COMMANDS, type CommandHost, type PanelHost, type PickItem } from './slashCommands';
import { SwarmPanel } from './subagents/swarmPanel';
import { loadTheme, type Theme } from './theme';
import { TodoPanel } from './todoPanel';
import type { ViewState } from './transcript/block';
import { NoticeBlock, UserBlock, type NoticeLevel } from './transcript/messageBlocks';
import { blocksFromMessages } from './transcript/replay';
import { Transcript } from './transcript/transcript';
import { TuiPreferences } from './tuiPreferences';

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
  private readonly panels: PanelSlot;
  private readonly lifecycle: SessionLifecycle;
  private readonly controller: SessionControl;
  private readonly feed: ConversationFeed;
  private readonly shell: ShellModeRunner;
  private readonly prompts: PromptSender;
  private readonly activity: ActivityIndicator;
  private readonly input: InputRouter;
  private readonly context: ContextActions;
  private todosExpanded = false;
  private branch: string | undefined;
  contextTokens = 0;
  contextLimit: number;
  private finished: ((code: number) => void) | undefined;
  /** tui.toml: theme, LaTeX, editor, status line; /theme and /reload-tui change them. */
  readonly preferences: TuiPreferences;

  constructor(opts: AppOptions) {
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- hosts' getters read the app live
    const app = this;
    this.version = opts.version;
    this.cwd = opts.cwd;
    this.home = opts.home;
    this.term = opts.terminal ?? new ProcessTerminal();
    this.view = { theme: loadTheme('dark', opts.home).theme, expanded: false, cwd: opts.cwd };
    this.preferences = new TuiPreferences({
      home: this.home,
      cwd: this.cwd,
      env: opts.env,
      view: this.view,
      notice: (level, text, hint) => this.notice(level, text, hint),
      showPanel: (panel) => this.panels.open(panel),
      restyle: () => {
        this.onEditorChange(this.editor.getText());
        this.screen.requestReprint();
      },
      requestRender: () => this.requestRender(),
    });
    const preferenceWarnings = this.preferences.load();
    this.transcript = new Transcript((lines) => this.screen.pushScrollback(lines), () => this.term.columns);
    this.activity = new ActivityIndicator(() => this.requestRender());
    this.panels = new PanelSlot({ theme: () => this.view.theme, terminal: this.term, requestRender: () => this.requestRender(), questionsChanged: (queue, background) => this.feed.questionsChanged(queue, background) });
    const panelEnv = { theme: () => this.view.theme, cwd: this.cwd, rows: () => this.term.rows };
    const enginePorts = {
      approvalPort: panelApprovalPort(this.panels.questions, panelEnv),
      interactionPort: panelInteractionPort(this.panels.questions, panelEnv),
      onEvent: (e: EngineEvent) => this.feed.onEngineEvent(e),
    };
    this.lifecycle = new SessionLifecycle(opts, enginePorts, {
      view: this.view,
      transcript: this.transcript,
      panels: this.panels,
      get modelLabel() {
        return app.modelLabel;
      },
      notice: (level, text, hint) => this.notice(level, text, hint),
      refreshContext: () => this.refreshContext(),
      sessionChanged: () => {
        this.feed.restart();
        this.context.turnBlocks.clear();
      },
      reloaded: () => {
        this.preferences.reload();
        this.feed.restart();
      },
    });
    this.controller = this.lifecycle.controller;
    this.contextLimit = this.controller.contextWindow;
    // The editor only needs a render hook and the terminal height from its host.
    const host = { terminal: this.term, requestRender: () => this.screen.requestRender() } as unknown as TUI;
    this.editor = new Editor(host, { borderColor: this.view.theme.fg.border, selectList: liveSelectListTheme(() => this.view.theme) }, { autocompleteMaxVisible: 8 });
    this.editor.focused = true;
    // Read on every menu: /reload may change the skills and plugins.
    const skillCommands = () => (this.opts.runtime.skills?.all ?? []).map((s) => ({ name: `skill:${s.name}`, aliases: findCommand(s.name) ? [] : [s.name], description: s.description }));
    const pluginCommands = () => (this.opts.runtime.plugins?.commands ?? []).map((c) => ({ name: c.name, aliases: [], description: c.description }));
    this.completion = new InputCompletion(opts.cwd, () => [...SLASH_COMMANDS, ...skillCommands(), ...pluginCommands()]);
    const notice = (level: NoticeLevel, text: string, hint?: string) => this.notice(level, text, hint);
    const requestRender = () => this.requestRender();
    const ensureRuntime = () => this.ensureRuntime();
    this.attacher = new PromptAttacher({
      cwd: opts.cwd,
      get rules() {
        return app.opts.runtime.rules;
      },
      imageInput: () => this.controller.model.capabilities.includes('image_in'),
      get modelLabel() {
        return app.modelLabel;
      },
      notice,
      requestRender,
    });
    this.shell = new ShellModeRunner({
      cwd: this.cwd,
      view: this.view,
      transcript: this.transcript,
      ensureRuntime,
      notice,
      startActivity: (label) => this.activity.start(label),
      ended: () => {
        if (!this.busy) this.activity.stop();
        this.requestRender();
      },
      requestRender,
    });
    this.prompts = new PromptSender({ editor: this.editor, shell: this.shell, attacher: this.attacher, completion: this.completion, ensureRuntime, notice, requestRender });
    this.context = new ContextActions(this.contextHost());
    this.feed = new ConversationFeed({
      view: this.view,
      transcript: this.transcript,
      get runtime() {
        return app.controller.runtime;
      },
      get busy() {
        return app.busy;
      },
      get shellRunning() {
        return app.shellRunning;
      },
      prompts: this.prompts,
      attacher: this.attacher,
      turnBlocks: this.context.turnBlocks,
      activity: this.activity,
      notice,
      requestRender,
      refreshContext: () => this.refreshContext(),
      refreshBranch: () => void (this.branch = gitBranch(this.cwd)),
      endSwarmMode: () => void (this.swarmMode = false),
    });
    this.feed.planShown = this.controller.planMode;
    this.input = new InputRouter(this.inputHost());
    this.editor.onSubmit = (text) => {
      this.screen.scrollTranscript('end');
      void this.input.submit(text);
    };
    this.editor.onChange = (text) => this.onEditorChange(text);
    this.editor.setAutocompleteProvider(this.completion);
    for (const entry of loadUserHistory(opts.home, opts.cwd).slice(-100)) this.editor.addToHistory(entry);
    this.screen = new Screen(this.term, this.liveRegion(), (w) => this.transcript.renderHistory(w));
    for (const w of [...opts.warnings, ...preferenceWarnings]) this.transcript.add(new NoticeBlock(this.view, 'warning', w));
  }

  private get opts(): AppOptions {
    return this.lifecycle.options;
  }

  // ---- CommandHost -------------------------------------------------------------------------

  get configPath(): string {
    return this.opts.configPath;
  }
  get permissionRules(): readonly PermissionRule[] {
    return this.opts.runtime.rules;
  }
  get busy(): boolean {
    return !!this.controller.runtime?.agent.busy;
  }
  /** A `!command` of shell mode is running. */
  get shellRunning(): boolean {
    return this.shell.running;
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
  get session() {
    return this.controller.runtime?.session;
  }
  get mcp(): McpManager | undefined {
    return this.lifecycle.mcp;
  }
  get theme(): Theme {
    return this.view.theme;
  }
  get planMode(): boolean {
    return this.controller.planMode;
  }
  set planMode(on: boolean) {
    this.controller.planMode = on;
    // Before the session exists no event says so: tell the user here.
    if (!this.controller.runtime && this.feed.planShown !== on) {
      this.feed.planShown = on;
      this.notice('info', on ? 'Plan mode on: the session starts in plan mode with your first message.' : 'Plan mode off.');
    }
    this.requestRender();
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
    if (!on) this.feed.swarmTaskTurn = undefined;
    this.requestRender();
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
  get pluginSettings(): { env: NodeJS.ProcessEnv; allowPrivateNetwork: boolean } {
    return { env: this.opts.env, allowPrivateNetwork: this.opts.config.web.allow_private_network };
  }

  sendSwarmTask(task: string): void {
    if (!this.swarmMode) {
      this.swarmMode = true;
      this.feed.swarmTaskTurn = 'pending';
      this.notice('info', 'Swarm mode on for this task: AgentSwarm runs without asking; it turns off when the task completes.');
    }
    this.prompts.send(task);
  }
  sendCommandPrompt(text: string, modelText: string): void {
    this.prompts.send(text, modelText);
  }

  notice(level: NoticeLevel, text: string, hint?: string): void {
    this.transcript.add(new NoticeBlock(this.view, level, text, hint));
    this.requestRender();
  }
  popup(title: string, lines: string[]): void {
    this.panels.showText(title, lines);
  }
  pick(title: string, items: PickItem[], onPick: (value: string) => void, body?: string[]): void {
    this.panels.pick(title, items, onPick, body);
  }
  showPanel(make: (host: PanelHost) => Component): void {
    this.panels.showPanel(make);
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

  newSession(): Promise<void> {
    return this.lifecycle.newSession();
  }
  resumeSession(location: SessionLocation): Promise<void> {
    return this.lifecycle.resumeSession(location);
  }
  switchModel(alias: string): Promise<void> {
    return this.lifecycle.switchModel(alias);
  }
  reload(): Promise<void> {
    return this.lifecycle.reload();
  }
  forkSession(): ForkResult {
    return this.controller.fork();
  }
  mcpLogin(server: string): Promise<void> {
    return signInToMcpServer(server, { mcp: () => this.mcp, home: this.home, clientName: this.opts.mcpClientName, notice: (level, text, hint) => this.notice(level, text, hint) });
  }
  compact(instruction: string): Promise<void> {
    return this.context.compact(instruction);
  }
  undo(count?: number): void {
    this.context.undo(count);
  }
  rewind(): void {
    this.context.rewind();
  }
  exit(code = 0): void {
    void this.shutdown(code);
  }

  requestRender(): void {
    this.screen.requestRender();
  }

  /** The footer's context figure: what the next request will carry (engine/context.ts). */
  refreshContext(): void {
    this.contextTokens = this.controller.contextTokens(this.opts.tokenCounting);
    this.contextLimit = this.controller.contextWindow;
  }

  // ---- lifecycle -----------------------------------------------------------------------------

  /** Runs until the user exits; resolves with the exit code. */
  async run(): Promise<number> {
    const done = new Promise<number>((resolve) => (this.finished = resolve));
    this.listen();
    if (this.opts.env.JARVIS_CODE_TUI_FULL_SCREEN === '1') this.screen.setFullScreen(true);
    this.branch = gitBranch(this.cwd);
    this.lifecycle.open();
    this.requestRender();
    void preloadHighlighter();
    void announcePluginUpdates(this).catch(() => undefined);
    return done;
  }

  private async shutdown(code: number): Promise<void> {
    if (!this.finished) return;
    const finish = this.finished;
    this.finished = undefined;
    this.activity.stop();
    this.preferences.dispose();
    this.feed.dispose();
    this.panels.questions.cancelAll();
    this.attacher.dispose();
    this.context.cancelCompaction();
    const shellStopped = this.shell.interrupt();
    const id = this.session?.id;
    this.screen.stop();
    this.term.showCursor();
    this.term.stop();
    // Nothing the user started with `!` outlives the UI.
    await shellStopped;
    await this.lifecycle.close();
    if (id) process.stdout.write(`Resume this session with: jarvis --session ${id}\n`);
    finish(code);
  }

  // ---- wiring --------------------------------------------------------------------------------

  /** The bottom of the screen: live transcript, todos, swarm, activity, queued prompts, panel or input box, footer. */
  private liveRegion(): LiveRegion {
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
    return new LiveRegion({
      theme: () => this.view.theme,
      transcript: this.transcript,
      todos: new TodoPanel(() => this.view.theme, () => ({ todos: this.controller.runtime?.session.state.todos ?? [], expanded: this.todosExpanded, busy: this.busy })),
      swarm: new SwarmPanel(() => this.view.theme, () => this.feed.activeSwarm),
      activity: () => this.activity.current,
      queued: () => this.prompts.queued,
      panel: () => this.panels.current(this.busy),
      input: this.editor,
      footer,
    });
  }

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
        return app.panels.current(app.busy);
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
      toggleExpand: () => {
        this.view.expanded = !this.view.expanded;
        this.screen.requestReprint();
      },
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
      sendPrompt: (text, modelText) => this.prompts.send(text, modelText),
      runShell: (command) => this.shell.start(command),
      refreshCompletion: () => this.completion.refresh(),
      pasteImage: () => void this.prompts.pasteImage(),
      pastedImage: (text) => this.attacher.pasteText(text),
    };
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
      startActivity: (label) => this.activity.start(label),
      stopActivity: () => this.activity.stop(),
      refreshContext: () => this.refreshContext(),
      requestRender: () => this.requestRender(),
      rewindTranscript: (block) => {
        const at = block ? this.transcript.committed.indexOf(block) : -1;
        const rt = this.controller.runtime!;
        if (at >= 0) this.transcript.truncate(at);
        else this.transcript.reset([this.lifecycle.banner(), ...blocksFromMessages(rt.session.state.messages, this.view, rt.session.state.compactions)]);
      },
      restoreInput: (text) => this.editor.setText(text),
      planRestored: (active) => {
        this.feed.planShown = active;
        this.screen.requestReprint();
      },
    };
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
    editInputBox(command, { screen: this.screen, terminal: this.term, editor: this.editor, listen: () => this.listen(), notice: (level, text) => this.notice(level, text) });
  }

  /** Keys from the terminal go to the input router. */
  private listen(): void {
    this.term.start((data) => this.input.onInput(data), () => this.screen.requestRender());
    this.term.hideCursor();
  }

  private interrupt(): void {
    void this.shell.interrupt();
    this.context.cancelCompaction();
    const rt = this.controller.runtime;
    if (!rt?.agent.busy) return;
    rt.agent.cancel(true);
    // Queued messages were dropped from the engine's queue: give them back to the input box.
    this.prompts.returnQueued();
  }
}

export async function runApp(opts: AppOptions): Promise<number> {
  return new App(opts).run();
}
