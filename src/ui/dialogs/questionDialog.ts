// The AskUserQuestion dialog (docs/ui.md): 1–4 questions, one at a time. Single select: ↑/↓ and
// Enter (or 1–9) pick. Multi select: Space (or 1–9) toggles, Enter confirms. "Other" (always the last
// option) opens a text field: Enter keeps the text, Esc goes back to the list. ←/→ (Tab / Shift-Tab)
// move between questions; answering the last one sends everything (unanswered questions are
// "skipped"). Esc / Ctrl-C dismiss the whole dialog: the user declined to answer.
import { Input, matchesKey, type Component, type Focusable } from '@mariozechner/pi-tui';
import type { Question, QuestionAnswer, QuestionRequest, QuestionResponse } from '../../engine/delegation/interactions';
import type { Theme } from '../theme';
import { boxWriter } from './box';

interface QuestionState {
  cursor: number;
  /** Picked option indexes (Other included when it has text). */
  picked: Set<number>;
  other?: string;
  answered: boolean;
}

export class QuestionPanel implements Component, Focusable {
  focused = true;
  current = 0;
  private readonly states: QuestionState[];
  private otherInput: Input | undefined;
  private finished = false;

  constructor(
    private readonly theme: Theme,
    private readonly request: QuestionRequest,
    private readonly onAnswer: (response: QuestionResponse) => void,
  ) {
    this.states = request.questions.map(() => ({ cursor: 0, picked: new Set<number>(), answered: false }));
  }

  private get question(): Question {
    return this.request.questions[this.current];
  }

  private get state(): QuestionState {
    return this.states[this.current];
  }

  /** The index of the automatic "Other" option (always last). */
  private otherIndex(q: Question = this.question): number {
    return q.options.length - 1;
  }

  get editingOther(): boolean {
    return this.otherInput !== undefined;
  }

  handleInput(data: string): void {
    if (this.finished) return;
    if (this.otherInput) return this.handleOtherInput(data);
    const q = this.question;
    const s = this.state;
    const n = q.options.length;
    if (matchesKey(data, 'escape') || matchesKey(data, 'ctrl+c')) {
      this.finish({ dismissed: true });
      return;
    }
    if (matchesKey(data, 'up')) s.cursor = (s.cursor + n - 1) % n;
    else if (matchesKey(data, 'down')) s.cursor = (s.cursor + 1) % n;
    else if (matchesKey(data, 'left') || matchesKey(data, 'shift+tab')) this.current = Math.max(0, this.current - 1);
    else if (matchesKey(data, 'right') || matchesKey(data, 'tab'))
      this.current = Math.min(this.request.questions.length - 1, this.current + 1);
    else if (/^[1-9]$/.test(data) && Number(data) <= n) {
      s.cursor = Number(data) - 1;
      if (q.multiSelect) this.toggle(s.cursor);
      else this.pickSingle(s.cursor);
    } else if (matchesKey(data, 'space') && q.multiSelect) this.toggle(s.cursor);
    else if (matchesKey(data, 'enter')) {
      if (q.multiSelect) this.confirm();
      else this.pickSingle(s.cursor);
    }
  }

  private handleOtherInput(data: string): void {
    const input = this.otherInput!;
    const s = this.state;
    if (matchesKey(data, 'escape')) {
      this.otherInput = undefined;
      return;
    }
    if (!matchesKey(data, 'enter')) {
      input.handleInput(data);
      return;
    }
    const text = input.getValue().trim();
    if (!text) return;
    this.otherInput = undefined;
    s.other = text;
    if (this.question.multiSelect) s.picked.add(this.otherIndex());
    else {
      s.picked = new Set([this.otherIndex()]);
      this.confirm();
    }
  }

  private openOther(): void {
    this.otherInput = new Input();
    this.otherInput.focused = true;
    if (this.state.other) this.otherInput.setValue(this.state.other);
  }

  private pickSingle(index: number): void {
    if (index === this.otherIndex()) return this.openOther();
    this.state.picked = new Set([index]);
    this.state.other = undefined;
    this.confirm();
  }

  private toggle(index: number): void {
    const s = this.state;
    if (s.picked.has(index)) {
      s.picked.delete(index);
      if (index === this.otherIndex()) s.other = undefined;
    } else if (index === this.otherIndex()) this.openOther();
    else s.picked.add(index);
  }

  /** Marks the current question answered and moves on; the last one sends all answers. */
  private confirm(): void {
    this.state.answered = true;
    if (this.current >= this.request.questions.length - 1) {
      this.finish({ answers: this.request.questions.map((q, i) => answerOf(q, this.states[i])) });
      return;
    }
    this.current++;
  }

  private finish(response: QuestionResponse): void {
    this.finished = true;
    this.onAnswer(response);
  }

  invalidate(): void {}

  render(width: number): string[] {
    const { fg } = this.theme;
    const box = boxWriter(this.theme, width);
    const q = this.question;
    const s = this.state;
    const total = this.request.questions.length;
    const lines = [box.top()];
    const title = this.request.background ? 'The agent asks (it keeps working meanwhile)' : 'The agent asks';
    lines.push(
      box.row(
        `${this.theme.bold(fg.primary(title))}${total > 1 ? fg.textDim(` · question ${this.current + 1} of ${total}`) : ''}`,
      ),
    );
    if (total > 1) {
      const chips = this.request.questions.map((qq, i) => {
        const label = `${this.states[i].answered ? '✓ ' : ''}${qq.header ?? `Q${i + 1}`}`;
        return i === this.current ? this.theme.inverse(` ${label} `) : fg.textDim(` ${label} `);
      });
      lines.push(box.row(chips.join(' ')));
    } else if (q.header) lines.push(box.row(this.theme.inverse(` ${q.header} `)));
    lines.push(...box.wrapped(this.theme.bold(q.question)));
    if (q.multiSelect) lines.push(box.row(fg.textMuted('(pick any number)')));
    q.options.forEach((o, i) => {
      const active = i === s.cursor;
      const mark = q.multiSelect ? (s.picked.has(i) ? '[x] ' : '[ ] ') : '';
      const isOther = i === this.otherIndex(q);
      const label = isOther && s.other ? `${o.label}: “${s.other}”` : o.label;
      const desc = o.description && !(isOther && s.other) ? fg.textDim(` — ${o.description}`) : '';
      lines.push(...box.option(active, `${mark}${i + 1}. ${label}`, desc));
    });
    if (this.otherInput) {
      lines.push(box.row(fg.textDim('Your answer (Enter keeps it, Esc goes back):')));
      for (const l of this.otherInput.render(box.inner)) lines.push(box.row(l));
    } else {
      const pick = q.multiSelect ? 'Space toggle · Enter confirm' : 'Enter select';
      const nav = total > 1 ? ' · ←/→ question' : '';
      lines.push(box.row(fg.textMuted(`↑/↓ move · ${pick} · 1–${q.options.length} pick${nav} · Esc dismiss`)));
    }
    lines.push(box.bottom());
    return lines;
  }
}

function answerOf(q: Question, s: QuestionState): QuestionAnswer {
  const other = q.options.length - 1;
  const selected = [...s.picked]
    .filter((i) => i !== other)
    .sort((a, b) => a - b)
    .map((i) => q.options[i].label);
  const hasOther = s.picked.has(other) && s.other !== undefined;
  const base = { question: q.question, selected, ...(hasOther ? { other: s.other } : {}) };
  if (!s.answered || (!selected.length && !hasOther)) return { question: q.question, kind: 'skipped', selected: [] };
  if (!q.multiSelect) return { ...base, kind: hasOther ? 'other' : 'single' };
  if (!selected.length) return { ...base, kind: 'other' };
  return { ...base, kind: hasOther ? 'multi_with_other' : 'multi' };
}
