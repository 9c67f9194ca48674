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
import type { EngineEvent } from '../engine/loop/events';
import type { ForkResult } from '../engine/session/fork';
import type { PermissionMode } from '../engine/session/records';
import type { Runtime } from '../engine/runtime/runtime';
import type { SessionControl } from '../engine/runtime/sessionControl';
import type { McpManager } from '../ext/mcp/mcpManager';
import type { SessionLocation } from '../store/sessionStore';
import type { TokenCountingStrategy } from '../store/settings';
import type { AppOptions } from './appOptions';
import { InputCompletion } from './completion';
import { ContextActions, type ContextActionsHost } from './contextActions';
import { ConversationFeed } from './conversationFeed';
import { editorCommand } from './externalEditor';
import { gitBranch } from './gitBranch';
import { InputRouter, type InputHost } from './inputRouter';
import { preloadHighlighter } from './markdown';
import { signInToMcpServer } from './mcpServers';
import { announcePluginUpdates } from './plugins/pluginEntry';
import { PromptAttacher } from './promptAttacher';
import { PromptSender } from './promptSender';
import { panelApprovalPort, panelInteractionPort } from './questionPanels';
import { SessionLifecycle } from './sessionLifecycle';
import { ShellModeRunner } from './shellModeRunner';
import { findCommand, SLASH_COMMANDS, type CommandHost, type PanelHost, type PickItem } from './slashCommands';
import { TerminalView } from './terminalView';
import type { Theme } from './theme';
import { UserBlock, type NoticeLevel } from './transcript/messageBlocks';
import { blocksFromMessages } from './transcript/replay';
import type { TuiPreferences } from './tuiPreferences';
import { commandListDescription } from '../ext/plugins/pluginCommands';

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
      status: () => {
        const rt = this.controller.runtime;
        const goal = rt?.session.state.goal;
        const usage = rt?.session.state.usage;
        return {
          mode: this.mode,
          plan: this.controller.planMode,
          swarm: this.controller.swarmMode,
          model: this.modelLabel,
          contextTokens: this.contextTokens,
          contextLimit: this.contextLimit,
          cwd: this.cwd,
          branch: this.branch,
          hint: this.input.hint,
          busy: this.busy,
          compacting: this.compacting,
          goal: goal ? { status: goal.status, turns: goal.used.turns } : undefined,
          tokens: usage ? { input: usage.inputTokens, output: usage.outputTokens } : undefined,
          tasks: rt?.tasks.runningCount(),
        };
      },
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
    const ensureRuntime = () => this.ensureRuntime();
    const panelEnv = { theme: () => view.theme, cwd: this.cwd, rows: () => this.ui.terminal.rows };
    const enginePorts = {
      approvalPort: panelApprovalPort(this.ui.panels.questions, panelEnv),
      interactionPort: panelInteractionPort(this.ui.panels.questions, panelEnv),
      onEvent: (e: EngineEvent) => this.feed.onEngineEvent(e),
    };
    this.lifecycle = new SessionLifecycle(opts, enginePorts, {
      view,
      transcript,
      panels: this.ui.panels,
      get modelLabel() {
        return app.modelLabel;
      },
      notice,
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
    // Read on every menu: /reload may change the skills and plugins.
    const skillCommands = () =>
      (this.opts.runtime.skills?.all ?? []).map((s) => ({
        name: `skill:${s.name}`,
        aliases: findCommand(s.name) ? [] : [s.name],
        description: s.description,
      }));
    const pluginCommands = () =>
      (this.opts.runtime.plugins?.commands ?? []).map((c) => ({
        name: c.name,
        aliases: [],
        description: commandListDescription(c),
      }));
    this.completion = new InputCompletion(opts.cwd, () => [...SLASH_COMMANDS, ...skillCommands(), ...pluginCommands()]);
    editor.setAutocompleteProvider(this.completion);
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
    const startActivity = (label: string) => activity.start(label);
    const ended = () => {
      if (!this.busy) activity.stop();
      this.requestRender();
    };
    this.shell = new ShellModeRunner({
      cwd: this.cwd,
      view,
      transcript,
      ensureRuntime,
      notice,
      startActivity,
      ended,
      requestRender,
    });
    this.prompts = new PromptSender({
      editor,
      shell: this.shell,
      attacher: this.attacher,
      completion: this.completion,
      ensureRuntime,
      notice,
      requestRender,
    });
    this.context = new ContextActions(this.contextHost());
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
    this.input = new InputRouter(this.inputHost());
    editor.onSubmit = (text) => {
      this.ui.screen.scrollTranscript('end');
      void this.input.submit(text);
    };
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
    await this.lifecycle.close();
    if (id) process.stdout.write(`Resume this session with: jarvis --session ${id}\n`);
    finish(code);
  }

  // ---- wiring --------------------------------------------------------------------------------

  private inputHost(): InputHost {
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the host's getters read the app live
    const app = this;
    return {
      editor: this.ui.editor,
      home: this.home,
      cwd: this.cwd,
      get skills() {
        return app.opts.runtime.skills;
      },
      get plugins() {
        return app.opts.runtime.plugins;
      },
      get panel() {
        return app.ui.panels.current(app.busy);
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
      toggleExpand: () => this.ui.toggleExpand(),
      toggleTodos: () => this.ui.toggleTodos(),
      scrollTranscript: (pages) => this.ui.scrollPages(pages),
      openExternalEditor: () => this.openExternalEditor(),
      steer: (text) => {
        this.controller.runtime!.agent.submit({ kind: 'steer', text });
        this.ui.transcript.add(new UserBlock(this.ui.view, text, 'steer'));
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
      startActivity: (label) => this.ui.activity.start(label),
      stopActivity: () => this.ui.activity.stop(),
      refreshContext: () => this.refreshContext(),
      requestRender: () => this.requestRender(),
      rewindTranscript: (block) => {
        const { transcript, view } = this.ui;
        const at = block ? transcript.committed.indexOf(block) : -1;
        const rt = this.controller.runtime!;
        if (at >= 0) transcript.truncate(at);
        else
          transcript.reset([
            this.lifecycle.banner(),
            ...blocksFromMessages(rt.session.state.messages, view, rt.session.state.compactions),
          ]);
      },
      restoreInput: (text) => this.ui.editor.setText(text),
      planRestored: (active) => {
        this.feed.planShown = active;
        this.ui.screen.requestReprint();
      },
    };
  }

  private openExternalEditor(): void {
    const command = editorCommand(this.preferences.editorCommand, this.opts.env);
    if (!command) {
      this.notice(
        'warning',
        'No external editor is configured.',
        'Set $VISUAL or $EDITOR, or [editor] command in tui.toml.',
      );
      return;
    }
    this.ui.editExternally(command, (data) => this.input.onInput(data));
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
