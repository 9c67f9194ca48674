// What the user sees and types into: the terminal, the transcript (finished blocks go to the scrollback)
// and below it the live region — todos, the swarm panel, the activity line, queued prompts, the panel
// slot or the input box, the footer — drawn by screen.ts, styled as tui.toml says (tuiPreferences.ts).
// Every change asks the screen for a frame, and nothing else does.
import { Editor, ProcessTerminal, type Component, type Terminal, type TUI } from '@mariozechner/pi-tui';
import type { QuestionQueue } from '../engine/runtime/questionQueue';
import type { TodoItem } from '../tools/todo/todoService';
import { loadUserHistory } from '../store/userHistory';
import { ActivityIndicator } from './activityIndicator';
import { liveSelectListTheme } from './dialogs/selectDialog';
import { editInputBox } from './externalEditor';
import { Footer, type FooterState } from './footer';
import { LiveRegion } from './liveRegion';
import { PanelSlot } from './panelSlot';
import { Screen, type ScreenTerminal } from './screen';
import type { SwarmProgress } from './subagents/subagentView';
import { SwarmPanel } from './subagents/swarmPanel';
import { loadTheme } from './theme';
import { TodoPanel } from './todoPanel';
import type { ViewState } from './transcript/block';
import { NoticeBlock, type NoticeLevel } from './transcript/messageBlocks';
import { Transcript } from './transcript/transcript';
import { TuiPreferences } from './tuiPreferences';

export interface TerminalViewOptions {
  home: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** A virtual terminal (tests, the benchmark); the process's own otherwise. */
  terminal?: Terminal;
  /** Shown first, with tui.toml's own. */
  warnings: readonly string[];
}

/** What the live region shows besides the input box, read at every frame. */
export interface LiveSources {
  /** The footer's state, without what the view knows itself (the input's shell mode, tui.toml's status line). */
  status(): Omit<FooterState, 'shell' | 'items' | 'custom'>;
  /** For the status-line command (docs/ui.md "Status line"). */
  statusExtra(): { version: string; sessionId: string | undefined };
  todos(): readonly TodoItem[];
  busy(): boolean;
  swarm(): SwarmProgress | undefined;
  queued(): readonly string[];
  questionsChanged(queue: QuestionQueue<Component>, addedInBackground?: boolean): void;
}

export class TerminalView {
  readonly terminal: Terminal;
  readonly view: ViewState;
  /** tui.toml: theme, LaTeX, editor, status line; /theme and /reload-tui change them. */
  readonly preferences: TuiPreferences;
  readonly transcript: Transcript;
  readonly activity: ActivityIndicator;
  readonly panels: PanelSlot;
  readonly editor: Editor;
  readonly screen: Screen;
  private todosExpanded = false;

  constructor(opts: TerminalViewOptions, sources: LiveSources) {
    this.terminal = opts.terminal ?? new ProcessTerminal();
    this.view = { theme: loadTheme('dark', opts.home).theme, expanded: false, cwd: opts.cwd };
    this.preferences = new TuiPreferences({
      home: opts.home,
      cwd: opts.cwd,
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
    this.transcript = new Transcript(
      (lines) => this.screen.pushScrollback(lines),
      () => this.terminal.columns,
    );
    this.activity = new ActivityIndicator(() => this.requestRender());
    this.panels = new PanelSlot({
      theme: () => this.view.theme,
      terminal: this.terminal,
      requestRender: () => this.requestRender(),
      questionsChanged: sources.questionsChanged,
    });
    // The editor only needs a render hook and the terminal height from its host.
    const host = { terminal: this.terminal, requestRender: () => this.screen.requestRender() } as unknown as TUI;
    this.editor = new Editor(
      host,
      { borderColor: this.view.theme.fg.border, selectList: liveSelectListTheme(() => this.view.theme) },
      { autocompleteMaxVisible: 8 },
    );
    this.editor.focused = true;
    this.editor.onChange = (text) => this.onEditorChange(text);
    for (const entry of loadUserHistory(opts.home, opts.cwd).slice(-100)) this.editor.addToHistory(entry);
    this.screen = new Screen(
      opts.terminal ? this.terminal : sizedFromTty(this.terminal),
      this.liveRegion(sources),
      (w) => this.transcript.renderHistory(w),
    );
    for (const w of [...opts.warnings, ...preferenceWarnings])
      this.transcript.add(new NoticeBlock(this.view, 'warning', w));
  }

  notice(level: NoticeLevel, text: string, hint?: string): void {
    this.transcript.add(new NoticeBlock(this.view, level, text, hint));
    this.requestRender();
  }

  requestRender(): void {
    this.screen.requestRender();
  }

  /** Takes the terminal: keys go to `onInput`. */
  listen(onInput: (data: string) => void): void {
    this.terminal.start(onInput, () => this.screen.requestRender());
    this.terminal.hideCursor();
  }

  /** Gives the terminal back (the app exits). */
  stop(): void {
    this.screen.stop();
    this.terminal.showCursor();
    this.terminal.stop();
  }

  /** Ctrl-O: tool outputs and thinking shown in full, or folded again. */
  toggleExpand(): void {
    this.view.expanded = !this.view.expanded;
    this.screen.requestReprint();
  }

  toggleTodos(): void {
    this.todosExpanded = !this.todosExpanded;
  }

  /** Full-screen mode scrolls the conversation by a page (1 up, -1 down); false when not in it. */
  scrollPages(pages: number): boolean {
    if (!this.screen.fullScreen) return false;
    this.screen.scrollTranscript(pages * Math.max(1, this.screen.viewportRows - 1));
    return true;
  }

  /** Ctrl-G: the input box's text in an external editor, which gets the terminal meanwhile. */
  editExternally(command: string, onInput: (data: string) => void): void {
    editInputBox(command, {
      screen: this.screen,
      terminal: this.terminal,
      editor: this.editor,
      listen: () => this.listen(onInput),
      notice: (level, text) => this.notice(level, text),
    });
  }

  /** Copies text to the terminal's clipboard (OSC 52; terminals that do not support it ignore it). */
  copyToClipboard(text: string): void {
    this.terminal.write(`\x1b]52;c;${Buffer.from(text).toString('base64')}\x07`);
  }

  private onEditorChange(text: string): void {
    const { fg } = this.view.theme;
    this.editor.borderColor = text.startsWith('!') ? fg.shellMode : fg.border;
  }

  private liveRegion(sources: LiveSources): LiveRegion {
    const footer = new Footer(
      () => this.view.theme,
      () => {
        const state: FooterState = {
          ...sources.status(),
          shell: this.editor.getText().startsWith('!'),
          items: this.preferences.statusItems,
        };
        state.custom = this.preferences.customStatus(state, sources.statusExtra());
        return state;
      },
    );
    return new LiveRegion({
      theme: () => this.view.theme,
      transcript: this.transcript,
      todos: new TodoPanel(
        () => this.view.theme,
        () => ({ todos: sources.todos(), expanded: this.todosExpanded, busy: sources.busy() }),
      ),
      swarm: new SwarmPanel(
        () => this.view.theme,
        () => sources.swarm(),
      ),
      activity: () => this.activity.current,
      queued: () => sources.queued(),
      panel: () => this.panels.current(sources.busy()),
      input: this.editor,
      footer,
    });
  }
}

/**
 * The process's terminal with its size read from the tty at each frame. Node updates `process.stdout.columns`
 * only when it handles SIGWINCH; a frame drawn between the terminal's resize and that would be drawn at the old
 * width into re-wrapped rows.
 */
function sizedFromTty(terminal: Terminal): ScreenTerminal {
  const size = (): [number, number] | undefined =>
    process.stdout.isTTY ? (process.stdout.getWindowSize() as [number, number]) : undefined;
  return {
    write: (data) => terminal.write(data),
    get columns() {
      return size()?.[0] || terminal.columns;
    },
    get rows() {
      return size()?.[1] || terminal.rows;
    },
  };
}
