// The interactive terminal UI: wires the terminal, the screen, the input box and the engine.
// Input flows terminal → global keys → open panel or input box; engine events flow through the
// turn view into the transcript; every change asks the screen for a frame, and nothing else does.
import { Editor, ProcessTerminal, type Component, type Terminal, type TUI } from '@mariozechner/pi-tui';
import type { ApprovalAnswer, ApprovalPort, ApprovalRequest } from '../engine/approvals';
import type { EngineEvent } from '../engine/events';
import type { PermissionMode } from '../engine/records';
import type { ContentPart } from '../llm/types';
import type { JarvisConfig } from '../store/config';
import { displayPath } from '../store/paths';
import { listSessions, type SessionLocation } from '../store/sessionStore';
import { loadTuiConfig } from '../store/tuiConfig';
import { appendUserHistory, loadUserHistory } from '../store/userHistory';
import { ApprovalPanel } from './approvalPanel';
import { InputCompletion } from './completion';
import { SelectDialog, selectListTheme, TextPopup } from './dialogs/selectDialog';
import { trustDialog, needsTrustDecision } from './dialogs/trustPrompt';
import { editorCommand, editText } from './externalEditor';
import { Footer } from './footer';
import { gitBranch } from './gitBranch';
import { actionOf } from './keymap';
import { LiveRegion } from './liveRegion';
import { preloadHighlighter } from './markdown';
import { Screen } from './screen';
import { SessionController, type BaseRuntimeOptions } from './sessionController';
import { runShellCommand, shellContext, type ShellRun } from './shellMode';
import { parseSlash, SLASH_COMMANDS, type CommandHost, type PickItem } from './slashCommands';
import { loadTheme, type Theme } from './theme';
import type { ViewState } from './transcript/block';
import { LinesBlock, NoticeBlock, UserBlock } from './transcript/messageBlocks';
import { blocksFromMessages } from './transcript/replay';
import { ToolCard } from './transcript/toolCard';
import { Transcript } from './transcript/transcript';
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
}

const MODES: PermissionMode[] = ['manual', 'yolo', 'auto'];
const SPINNER_MS = 120;

export class App implements CommandHost {
  readonly version: string;
  readonly cwd: string;
  readonly home: string;
  readonly configPath: string;
  private readonly term: Terminal;
  readonly screen: Screen;
  readonly view: ViewState;
  readonly transcript: Transcript;
  private readonly editor: Editor;
  private readonly completion: InputCompletion;
  private readonly controller: SessionController;
  private turnView: TurnView;
  private panel: Component | undefined;
  private approval: { resolve(a: ApprovalAnswer): void } | undefined;
  private queuedPrompts: string[] = [];
  private shellContexts: string[] = [];
  private shell: ShellRun | undefined;
  private activityState: { since: number; frame: number; label: string } | undefined;
  private spinner: ReturnType<typeof setInterval> | undefined;
  private hint: string | undefined;
  private exitArmed = false;
  private branch: string | undefined;
  contextTokens = 0;
  contextLimit: number;
  private finished: ((code: number) => void) | undefined;
  private readonly editorCommand: string;

  constructor(private readonly opts: AppOptions) {
    this.version = opts.version;
    this.cwd = opts.cwd;
    this.home = opts.home;
    this.configPath = opts.configPath;
    this.term = opts.terminal ?? new ProcessTerminal();
    const tui = loadTuiConfig(opts.home);
    const loaded = loadTheme(tui.config.theme, opts.home, opts.env);
    this.editorCommand = tui.config.editor.command;
    this.view = { theme: loaded.theme, expanded: false, cwd: opts.cwd };
    this.transcript = new Transcript((lines) => this.screen.pushScrollback(lines), () => this.term.columns);
    this.controller = new SessionController({
      base: opts.runtime,
      config: opts.config,
      configPath: opts.configPath,
      env: opts.env,
      approvalPort: this.approvalPort(),
      onEvent: (e) => this.onEngineEvent(e),
    });
    this.contextLimit = this.controller.model.maxInputSize ?? this.controller.model.maxContextSize;
    this.turnView = this.newTurnView();
    // The editor only needs a render hook and the terminal height from its host.
    const host = { terminal: this.term, requestRender: () => this.screen.requestRender() } as unknown as TUI;
    this.editor = new Editor(host, { borderColor: this.view.theme.fg.border, selectList: selectListTheme(this.view.theme) }, { autocompleteMaxVisible: 8 });
    this.editor.focused = true;
    this.editor.onSubmit = (text) => void this.submit(text);
    this.editor.onChange = (text) => this.onEditorChange(text);
    this.completion = new InputCompletion(opts.cwd, () => SLASH_COMMANDS);
    this.editor.setAutocompleteProvider(this.completion);
    for (const entry of loadUserHistory(opts.home, opts.cwd).slice(-100)) this.editor.addToHistory(entry);
    const footer = new Footer(() => this.view.theme, () => ({
      mode: this.mode, model: this.modelLabel, contextTokens: this.contextTokens, contextLimit: this.contextLimit, cwd: this.cwd,
      branch: this.branch, hint: this.hint, shell: this.editor.getText().startsWith('!'), busy: this.busy,
    }));
    const live = new LiveRegion({
      theme: () => this.view.theme,
      transcript: this.transcript,
      activity: () => this.activityState,
      queued: () => this.queuedPrompts,
      panel: () => this.panel,
      input: this.editor,
      footer,
    });
    this.screen = new Screen(this.term, live, (w) => this.transcript.renderHistory(w));
    for (const w of [...opts.warnings, ...loaded.warnings, ...tui.warnings]) this.transcript.add(new NoticeBlock(this.view, 'warning', w));
    if (tui.notice) this.transcript.add(new NoticeBlock(this.view, 'warning', tui.notice));
  }

  // ---- CommandHost -------------------------------------------------------------------------

  get busy(): boolean {
    return !!this.controller.runtime?.agent.busy;
  }
  get session() {
    return this.controller.runtime?.session;
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

  popup(title: string, lines: string[]): void {
    this.panel = new TextPopup(this.view.theme, title, lines, () => this.closePanel(), () => this.term.rows);
    this.requestRender();
  }

  pick(title: string, items: PickItem[], onPick: (value: string) => void, body?: string[]): void {
    this.panel = new SelectDialog(this.view.theme, { title, items, body, onSelect: (v) => { this.closePanel(); onPick(v); }, onCancel: () => this.closePanel() });
    this.requestRender();
  }

  async newSession(): Promise<void> {
    await this.controller.newSession();
    this.contextTokens = 0;
    this.turnView.dispose();
    this.turnView = this.newTurnView();
    this.notice('info', 'New session. The previous one is kept: /sessions lists it.');
  }

  async resumeSession(location: SessionLocation): Promise<void> {
    const rt = await this.controller.resume(location);
    this.turnView.dispose();
    this.turnView = this.newTurnView();
    this.showResumed(rt.session.id);
  }

  async switchModel(alias: string): Promise<void> {
    try {
      await this.controller.switchModel(alias);
    } catch (e) {
      this.notice('error', (e as Error).message, 'Pick one of the aliases defined under [models] in config.toml.');
      return;
    }
    this.contextLimit = this.controller.model.maxInputSize ?? this.controller.model.maxContextSize;
    this.notice('success', `Model: ${this.modelLabel}`, 'The provider prompt cache starts over; /new starts a fresh session.');
  }

  exit(code = 0): void {
    void this.shutdown(code);
  }

  // ---- lifecycle -----------------------------------------------------------------------------

  /** Runs until the user exits; resolves with the exit code. */
  async run(): Promise<number> {
    const done = new Promise<number>((resolve) => (this.finished = resolve));
    this.term.start((data) => this.onInput(data), () => this.screen.requestRender());
    this.term.hideCursor();
    this.branch = gitBranch(this.cwd);
    this.transcript.add(this.banner());
    const resumed = this.controller.openInitial();
    if (resumed) this.showResumed(resumed.session.id);
    if (needsTrustDecision(this.home, this.cwd)) this.panel = trustDialog(this.view.theme, this.home, this.cwd, () => this.afterTrust());
    else this.afterTrust();
    this.requestRender();
    void preloadHighlighter();
    return done;
  }

  private afterTrust(): void {
    this.closePanel();
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
    for (const b of blocksFromMessages(rt.session.state.messages, this.view)) this.transcript.add(b);
    this.contextTokens = rt.session.state.usage.lastInputTokens;
    this.notice('info', `Resumed session ${id}${rt.session.state.title ? ` — ${rt.session.state.title}` : ''}`);
  }

  private async shutdown(code: number): Promise<void> {
    if (!this.finished) return;
    const finish = this.finished;
    this.finished = undefined;
    this.stopSpinner();
    this.turnView.dispose();
    this.approval?.resolve({ decision: 'reject' });
    this.shell?.interrupt();
    const id = this.session?.id;
    this.screen.stop();
    this.term.showCursor();
    this.term.stop();
    await this.controller.close(true);
    if (id) process.stdout.write(`Resume this session with: jarvis --session ${id}\n`);
    finish(code);
  }

  requestRender(): void {
    this.screen.requestRender();
  }

  private closePanel(): void {
    this.panel = undefined;
    this.requestRender();
  }

  // ---- input ---------------------------------------------------------------------------------

  private onInput(data: string): void {
    const action = actionOf(data);
    if (action !== 'ctrlC' && action !== 'ctrlD' && this.exitArmed) {
      this.exitArmed = false;
      this.hint = undefined;
    }
    if (this.panel) {
      if (action === 'toggleExpand' && !(this.panel instanceof ApprovalPanel)) this.toggleExpand();
      else if (action === 'toggleExpand') this.toggleExpand();
      else this.panel.handleInput?.(data);
      this.requestRender();
      return;
    }
    const menuOpen = this.editor.isShowingAutocomplete();
    switch (action) {
      case 'ctrlC':
        if (menuOpen) break;
        this.onCtrlC();
        return this.requestRender();
      case 'ctrlD':
        if (!this.editor.getText()) return this.exit(0);
        break;
      case 'escape':
        if (menuOpen) break;
        if (this.busy || this.shell) this.interrupt();
        else if (this.editor.getText().startsWith('!') && this.editor.getText().length <= 1) this.editor.setText('');
        return this.requestRender();
      case 'steer':
        this.steer();
        return this.requestRender();
      case 'toggleExpand':
        return this.toggleExpand();
      case 'externalEditor':
        return this.openExternalEditor();
      case 'cycleMode':
        this.mode = MODES[(MODES.indexOf(this.mode) + 1) % MODES.length];
        return this.requestRender();
    }
    this.editor.handleInput(data);
    this.requestRender();
  }

  private onCtrlC(): void {
    if (this.busy || this.shell) return this.interrupt();
    if (this.editor.getText()) {
      this.editor.setText('');
      return;
    }
    if (this.exitArmed) return this.exit(0);
    this.exitArmed = true;
    this.hint = 'Press Ctrl-C again to exit (Ctrl-D also exits)';
  }

  private onEditorChange(text: string): void {
    const { fg } = this.view.theme;
    this.editor.borderColor = text.startsWith('!') ? fg.shellMode : fg.border;
  }

  private toggleExpand(): void {
    this.view.expanded = !this.view.expanded;
    this.screen.requestReprint();
  }

  private openExternalEditor(): void {
    const command = editorCommand(this.editorCommand, this.opts.env);
    if (!command) {
      this.notice('warning', 'No external editor is configured.', 'Set $VISUAL or $EDITOR, or [editor] command in tui.toml.');
      return;
    }
    this.term.stop();
    const result = editText(command, this.editor.getExpandedText());
    this.term.start((data) => this.onInput(data), () => this.screen.requestRender());
    this.term.hideCursor();
    if (result.text !== undefined) this.editor.setText(result.text);
    if (result.error) this.notice('error', result.error);
    this.screen.requestReprint();
  }

  private interrupt(): void {
    if (this.shell) this.shell.interrupt();
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

  private steer(): void {
    const text = this.editor.getText().trim();
    if (!text) return;
    if (!this.busy) return void this.submit(text);
    this.editor.setText('');
    this.remember(text);
    this.controller.runtime!.agent.submit({ kind: 'steer', text });
    this.transcript.add(new UserBlock(this.view, text, 'steer'));
  }

  private remember(text: string): void {
    this.editor.addToHistory(text);
    try {
      appendUserHistory(this.home, this.cwd, text);
    } catch {
      // history is a convenience: a read-only home must not block sending
    }
  }

  private async submit(raw: string): Promise<void> {
    const text = raw.replace(/\s+$/, '');
    if (!text.trim()) return;
    this.editor.setText('');
    this.remember(text);
    this.completion.refresh();
    if (text.startsWith('!')) return this.runShell(text.slice(1).trim());
    const slash = text.startsWith('/') ? parseSlash(text) : undefined;
    if (slash) {
      if (slash.command.idleOnly && this.busy) {
        this.notice('warning', `/${slash.command.name} is not available while the agent works.`, 'Press Esc to interrupt first.');
        return;
      }
      try {
        await slash.command.run(this, slash.args);
      } catch (e) {
        this.notice('error', `/${slash.command.name} failed: ${(e as Error).message}`);
      }
      return this.requestRender();
    }
    this.sendPrompt(text);
  }

  private sendPrompt(text: string): void {
    let rt;
    try {
      rt = this.controller.ensure();
    } catch (e) {
      this.notice('error', `Could not start the session: ${(e as Error).message}`, 'Check the data folder ($JARVIS_CODE_HOME) is writable.');
      return;
    }
    const content: ContentPart[] = [...this.shellContexts.map((t) => ({ type: 'text' as const, text: t })), { type: 'text', text }];
    this.shellContexts = [];
    if (rt.agent.busy) this.queuedPrompts.push(text);
    rt.agent.submit({ kind: 'prompt', text, content });
    this.requestRender();
  }

  private runShell(command: string): void {
    if (!command) return;
    if (this.shell) {
      this.notice('warning', 'A shell command is still running.', 'Wait for it, or press Esc to stop it.');
      return;
    }
    this.transcript.add(new UserBlock(this.view, command, 'shell'));
    const card = new ToolCard(this.view, `shell-${Date.now()}`, 'Shell', command);
    this.transcript.add(card);
    this.startActivity(`Running ${command.split('\n')[0].slice(0, 40)}`);
    const run = runShellCommand(command, this.cwd, (chunk) => {
      card.appendOutput(chunk);
      this.requestRender();
    });
    this.shell = run;
    void run.done.then(({ output, exitCode }) => {
      this.shell = undefined;
      card.finish({ text: output, isError: exitCode !== 0, display: { kind: 'command', command, exitCode } }, exitCode === 0 ? 'ok' : 'error');
      this.transcript.flush();
      this.shellContexts.push(shellContext(command, output, exitCode));
      if (!this.busy) this.stopSpinner();
      this.requestRender();
    });
  }

  // ---- engine --------------------------------------------------------------------------------

  private newTurnView(): TurnView {
    return new TurnView(this.view, this.transcript, {
      requestRender: () => this.requestRender(),
      onUsage: (tokens, limit) => {
        this.contextTokens = tokens;
        this.contextLimit = limit;
      },
      onTurnStart: (prompt, origin) => {
        if (origin === 'user') {
          const i = this.queuedPrompts.indexOf(prompt);
          if (i >= 0) this.queuedPrompts.splice(i, 1);
          this.transcript.add(new UserBlock(this.view, prompt));
        } else {
          this.transcript.add(new NoticeBlock(this.view, 'info', 'A background task finished; the agent is looking at it.'));
        }
        this.startActivity('Working…');
      },
      onTurnEnd: (reason, error) => {
        const n = turnEndNotice(reason, error);
        if (n) this.transcript.add(new NoticeBlock(this.view, n.level, n.text, n.hint));
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
    this.turnView.handle(event);
  }

  private approvalPort(): ApprovalPort {
    return {
      ask: (request: ApprovalRequest, signal: AbortSignal) =>
        new Promise<ApprovalAnswer>((resolve) => {
          const finish = (answer: ApprovalAnswer) => {
            signal.removeEventListener('abort', onAbort);
            if (this.panel === panel) this.panel = undefined;
            this.approval = undefined;
            if (this.activityState) this.activityState.label = 'Working…';
            this.requestRender();
            resolve(answer);
          };
          const onAbort = () => finish({ decision: 'reject' });
          const panel = new ApprovalPanel(request, this.view.theme, this.cwd, finish);
          this.turnView.flushDeltas();
          this.transcript.flush();
          this.panel = panel;
          this.approval = { resolve: finish };
          if (this.activityState) this.activityState.label = 'Waiting for your approval';
          signal.addEventListener('abort', onAbort, { once: true });
          this.requestRender();
        }),
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
