// The interactive terminal UI's composition root: it builds the parts and wires them to each other.
// What the user sees (terminal, transcript, live region, panels, tui.toml) is terminalView.ts. Input is
// routed by inputRouter.ts (global keys → open panel or input box; lines → shell, slash command or
// prompt); prompts go out through promptSender.ts and `!` commands through shellModeRunner.ts; engine
// events reach the transcript through conversationFeed.ts; what the engine asks waits in panelSlot.ts;
// the session's life (start, /new, resume, /model, /reload, MCP servers) is sessionLifecycle.ts;
// /compact and /undo live in contextActions.ts. The app itself is what slash commands see (CommandHost).
import type { Component } from '@mariozechner/pi-tui';
import type { PermissionRule } from '../engine/policy/approvals';
import { DEFAULT_COMPACTION_TRIGGER_RATIO, type CompactionThresholds } from '../engine/context/context';
import type { ForkResult } from '../engine/session/fork';
import type { PermissionMode } from '../engine/session/records';
import type { Runtime } from '../engine/runtime/runtime';
import type { SessionControl } from '../engine/runtime/sessionControl';
import type { McpManager } from '../ext/mcp/mcpManager';
import type { SessionLocation } from '../store/sessionStore';
import type { TokenCountingStrategy } from '../store/settings';
import type { AppOptions } from './appOptions';
import {
  commandMenu,
  enginePorts,
  lifecycleHost,
  contextActionsHost,
  footerStatus,
  inputRouterHost,
  openExternalEditor,
  promptParts,
  remoteHost,
  type AppParts,
} from './appHosts';
import type { InputCompletion } from './completion';
import { ContextActions } from './contextActions';
import { ConversationFeed } from './conversationFeed';
import { gitBranch } from './gitBranch';
import { InputRouter } from './inputRouter';
import { completionWithMcp } from './mcpCatalog';
import { preloadHighlighter } from './markdown';
import { signInToMcpServer } from './mcpServers';
import { announcePluginUpdates } from './plugins/pluginEntry';
import type { PromptAttacher } from './promptAttacher';
import type { PromptSender } from './promptSender';
import { RemoteBridge } from './remote/remoteBridge';
import { RemoteControl } from './remote/remoteControl';
import { SessionLifecycle } from './sessionLifecycle';
import type { ShellModeRunner } from './shellModeRunner';
import type { CommandHost, PanelHost, PickItem } from './slashCommands';
import { TerminalView } from './terminalView';
import type { Theme } from './theme';
import type { NoticeLevel } from './transcript/messageBlocks';
import type { TuiPreferences } from './tuiPreferences';

export class App implements CommandHost {
  readonly version: string;
  readonly cwd: string;
  readonly home: string;
  private readonly ui: TerminalView;
  private readonly completion: InputCompletion;
  /** `@path` attachments and pasted images (promptAttacher.ts). */
  private readonly attacher: PromptAttacher;
  private readonly lifecycle: SessionLifecycle;
  private readonly controller: SessionControl;
  private readonly feed: ConversationFeed;
  private readonly shell: ShellModeRunner;
  private readonly prompts: PromptSender;
  private readonly input: InputRouter;
  private readonly context: ContextActions;
  /** `/remote`: this session shared through the session server (docs/remote.md). */
  readonly remote: RemoteControl;
  private branch: string | undefined;
  contextTokens = 0;
  contextLimit: number;
  private finished: ((code: number) => void) | undefined;

  constructor(opts: AppOptions) {
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- hosts' getters read the app live
    const app = this;
    this.version = opts.version;
    this.cwd = opts.cwd;
    this.home = opts.home;
    this.ui = new TerminalView(opts, {
      status: () => footerStatus(this, this.controller, { branch: this.branch, hint: this.input.hint }),
      statusExtra: () => ({ version: this.version, sessionId: this.controller.runtime?.session.id }),
      todos: () => this.controller.runtime?.session.state.todos ?? [],
      busy: () => this.busy,
      swarm: () => this.feed.activeSwarm,
      queued: () => this.prompts.queued,
      questionsChanged: (queue, background) => this.feed.questionsChanged(queue, background),
    });
    const { view, transcript, editor, activity } = this.ui;
    const notice = (level: NoticeLevel, text: string, hint?: string) => this.notice(level, text, hint);
    const requestRender = () => this.requestRender();
    const bridge = new RemoteBridge((text) => notice('info', text));
    this.lifecycle = new SessionLifecycle(
      opts,
      bridge.wrap(enginePorts(this.ui, this.cwd, (e) => this.feed.onEngineEvent(e))),
      lifecycleHost(this, this.ui, {
        sessionChanged: () => {
          this.feed.restart();
          this.context.turnBlocks.clear();
          this.remote.sessionChanged();
        },
        reloaded: () => {
          this.feed.restart();
          this.remote.sessionChanged();
        },
      }),
    );
    this.controller = this.lifecycle.controller;
    this.contextLimit = this.controller.contextWindow;
    this.completion = completionWithMcp(opts.cwd, () => commandMenu(this.opts), {
      get mcp() {
        return app.mcp;
      },
      warn: (text) => notice('warning', text),
    });
    editor.setAutocompleteProvider(this.completion);
    ({
      attacher: this.attacher,
      shell: this.shell,
      prompts: this.prompts,
    } = promptParts(this, {
      ui: this.ui,
      controller: this.controller,
      completion: this.completion,
      opts: () => this.opts,
    }));
    this.context = new ContextActions(contextActionsHost(this, this.parts()));
    this.remote = new RemoteControl(bridge, opts.startRemote, remoteHost(this, this.parts()));
    this.feed = new ConversationFeed({
      view,
      transcript,
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
      activity,
      notice,
      requestRender,
      refreshContext: () => this.refreshContext(),
      refreshBranch: () => void (this.branch = gitBranch(this.cwd)),
      endSwarmMode: () => void (this.swarmMode = false),
    });
    this.feed.planShown = this.controller.planMode;
    this.input = new InputRouter(inputRouterHost(this, this.parts()));
    editor.onSubmit = (text) => {
      this.ui.screen.scrollTranscript('end');
      void this.input.submit(text);
    };
  }

  private get opts(): AppOptions {
    return this.lifecycle.options;
  }

  /** The pieces the input and context hosts (appHosts.ts) reach into. */
  private parts(): AppParts {
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the parts' getters read the app live
    const app = this;
    return {
      ui: this.ui,
      controller: this.controller,
      get opts() {
        return app.opts;
      },
      banner: () => this.lifecycle.banner(),
      get feed() {
        return app.feed;
      },
      prompts: this.prompts,
      shell: this.shell,
      attacher: this.attacher,
      completion: this.completion,
    };
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
  /** A `!command` of shell mode, or a command's `!`cmd` lines before its prompt is sent, is running. */
  get shellRunning(): boolean {
    return this.shell.running || this.prompts.expanding;
  }
  get compacting(): boolean {
    return !!this.controller.runtime?.compaction.compacting;
  }
  get tokenCounting(): TokenCountingStrategy | undefined {
    return this.opts.tokenCounting;
  }
  get compactionThresholds(): CompactionThresholds | undefined {
    const c = this.opts.runtime.compaction;
    return c
      ? { triggerRatio: c.triggerRatio ?? DEFAULT_COMPACTION_TRIGGER_RATIO, reservedContextSize: c.reservedContextSize }
      : undefined;
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
  get preferences(): TuiPreferences {
    return this.ui.preferences;
  }
  get theme(): Theme {
    return this.ui.view.theme;
  }
  get planMode(): boolean {
    return this.controller.planMode;
  }
  set planMode(on: boolean) {
    this.controller.planMode = on;
    // Before the session exists no event says so: tell the user here.
    if (!this.controller.runtime && this.feed.planShown !== on) {
      this.feed.planShown = on;
      this.notice(
        'info',
        on ? 'Plan mode on: the session starts in plan mode with your first message.' : 'Plan mode off.',
      );
    }
    this.requestRender();
  }
  get fullScreen(): boolean {
    return this.ui.screen.fullScreen;
  }
  set fullScreen(on: boolean) {
    this.ui.screen.setFullScreen(on);
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
      this.notice(
        'info',
        'Swarm mode on for this task: AgentSwarm runs without asking; it turns off when the task completes.',
      );
    }
    this.prompts.send(task);
  }
  sendCommandPrompt(text: string, modelText: string): void {
    this.prompts.send(text, modelText);
  }

  notice(level: NoticeLevel, text: string, hint?: string): void {
    this.ui.notice(level, text, hint);
  }
  popup(title: string, lines: string[]): void {
    this.ui.panels.showText(title, lines);
  }
  pick(title: string, items: PickItem[], onPick: (value: string) => void, body?: string[]): void {
    this.ui.panels.pick(title, items, onPick, body);
  }
  showPanel(make: (host: PanelHost) => Component): void {
    this.ui.panels.showPanel(make);
  }

  /** The runtime, opened now if the session has not started yet; undefined (with a notice) if it cannot open. */
  ensureRuntime(): Runtime | undefined {
    try {
      return this.controller.ensure();
    } catch (e) {
      this.notice(
        'error',
        `Could not start the session: ${(e as Error).message}`,
        'Check the data folder ($JARVIS_CODE_HOME) is writable.',
      );
      return undefined;
    }
  }

  /** Copies text to the terminal's clipboard (OSC 52; terminals that do not support it ignore it). */
  copyToClipboard(text: string): void {
    this.ui.copyToClipboard(text);
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
    return signInToMcpServer(server, {
      mcp: () => this.mcp,
      home: this.home,
      clientName: this.opts.mcpClientName,
      notice: (level, text, hint) => this.notice(level, text, hint),
    });
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
    this.ui.requestRender();
  }

  /** The footer's context figure: what the next request will carry (engine/context/context.ts). */
  refreshContext(): void {
    this.contextTokens = this.controller.contextTokens(this.opts.tokenCounting);
    this.contextLimit = this.controller.contextWindow;
  }

  // ---- lifecycle -----------------------------------------------------------------------------

  /** Runs until the user exits; resolves with the exit code. */
  async run(): Promise<number> {
    const done = new Promise<number>((resolve) => (this.finished = resolve));
    this.ui.listen((data) => this.input.onInput(data));
    if (this.opts.env.JARVIS_CODE_TUI_FULL_SCREEN === '1') this.ui.screen.setFullScreen(true);
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
    this.ui.activity.stop();
    this.preferences.dispose();
    this.feed.dispose();
    this.ui.panels.questions.cancelAll();
    this.attacher.dispose();
    this.context.cancelCompaction();
    const shellStopped = this.shell.interrupt();
    const id = this.session?.id;
    this.ui.stop();
    // Nothing the user started with `!` outlives the UI.
    await shellStopped;
    await this.remote.stop(undefined);
    await this.lifecycle.close();
    if (id) process.stdout.write(`Resume this session with: jarvis --session ${id}\n`);
    finish(code);
  }

  // ---- wiring --------------------------------------------------------------------------------

  /** Ctrl-G: the input box in $VISUAL / $EDITOR / tui.toml's editor. */
  openExternalEditor(): void {
    openExternalEditor(this, this.ui, this.opts.env, (data) => this.input.onInput(data));
  }

  /** Esc: stops a `!` command, a command's `!`cmd` lines, a compaction and the turn; queued messages return to the input box. */
  interrupt(): void {
    void this.shell.interrupt();
    this.prompts.stopExpansion();
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
