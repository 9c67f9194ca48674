// What takes the input box's place. A question of the engine (approvals, plan reviews, questions;
// questionPanels.ts) comes first, one at a time in the order asked; a popup the user opened (help,
// pickers, the trust prompt, a command's own panel) gives way to it and is back once it is answered.
import type { Component, Terminal } from '@mariozechner/pi-tui';
import { QuestionQueue } from '../engine/runtime/questionQueue';
import { SelectDialog, TextPopup } from './dialogs/selectDialog';
import type { PanelHost, PickItem } from './slashCommands';
import type { Theme } from './theme';

export interface PanelSlotHost {
  theme(): Theme;
  readonly terminal: Terminal;
  requestRender(): void;
  /** A question was asked (`addedInBackground` says how) or settled. */
  questionsChanged(queue: QuestionQueue<Component>, addedInBackground?: boolean): void;
}

export class PanelSlot {
  /** What the engine asks; withdrawn when the app shuts down. */
  readonly questions: QuestionQueue<Component>;
  private popup: Component | undefined;

  constructor(private readonly host: PanelSlotHost) {
    this.questions = new QuestionQueue<Component>((queue, added) => host.questionsChanged(queue, added?.background));
  }

  /** The panel shown now, if any. A background question waits until the agent is idle. */
  current(busy: boolean): Component | undefined {
    return this.questions.current(busy) ?? this.popup;
  }

  showText(title: string, lines: string[]): void {
    this.open(
      new TextPopup(
        this.host.theme(),
        title,
        lines,
        () => this.close(),
        () => this.host.terminal.rows,
      ),
    );
  }

  pick(title: string, items: PickItem[], onPick: (value: string) => void, body?: string[]): void {
    this.open(
      new SelectDialog(this.host.theme(), {
        title,
        items,
        body,
        onSelect: (v) => {
          this.close();
          onPick(v);
        },
        onCancel: () => this.close(),
      }),
    );
  }

  /** A command's own panel, given how to close itself. */
  showPanel(make: (host: PanelHost) => Component): void {
    this.open(
      make({ close: () => this.close(), terminal: this.host.terminal, requestRender: () => this.host.requestRender() }),
    );
  }

  /** Replaces the popup (undefined closes it). */
  open(panel: Component | undefined): void {
    this.popup = panel;
    this.host.requestRender();
  }

  close(): void {
    this.open(undefined);
  }
}
