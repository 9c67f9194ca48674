// The plan review dialog (ExitPlanMode, docs/ui.md, docs/plan-goals-context.md): the plan as Markdown in a scrollable window
// (PgUp/PgDn scroll, Ctrl-E shows as much as the screen holds), then Approve, the agent's 1–3
// alternatives, Reject (stay in plan mode), Reject and Exit (leave plan mode), Revise (a feedback
// field: Enter sends, Esc goes back). ↑/↓ move, Enter confirms, 1–9 pick, Esc / Ctrl-C reject.
import { Input, matchesKey, type Component, type Focusable } from '@mariozechner/pi-tui';
import type { PlanReviewAnswer, PlanReviewRequest } from '../../engine/delegation/interactions';
import { markdownView } from '../markdown';
import type { Theme } from '../theme';
import { boxWriter } from './box';

const COLLAPSED_PLAN = 12;

interface Choice {
  label: string;
  description?: string;
  answer?: PlanReviewAnswer;
  revise?: true;
}

export class PlanReviewPanel implements Component, Focusable {
  focused = true;
  selected = 0;
  expanded = false;
  private offset = 0;
  private feedback: Input | undefined;
  private readonly choices: Choice[];
  private planCache: { width: number; lines: string[] } | undefined;

  constructor(
    private readonly theme: Theme,
    private readonly request: PlanReviewRequest,
    private readonly onAnswer: (answer: PlanReviewAnswer) => void,
    /** The terminal height: the expanded plan fills what the screen leaves. */
    private readonly height: () => number = () => 40,
    private readonly shownPath: string = request.planPath,
  ) {
    this.choices = [
      { label: 'Approve', description: 'leave plan mode and implement the plan', answer: { decision: 'approve' } },
      ...request.options.map((o): Choice => ({
        label: `Approve: ${o.label}`,
        description: o.description,
        answer: { decision: 'approve', option: o.label },
      })),
      { label: 'Reject', description: 'stay in plan mode; the agent stops and waits', answer: { decision: 'reject' } },
      {
        label: 'Reject and Exit',
        description: 'leave plan mode without implementing',
        answer: { decision: 'reject_and_exit' },
      },
      { label: 'Revise…', description: 'tell the agent what to change in the plan', revise: true },
    ];
  }

  get choiceLabels(): string[] {
    return this.choices.map((c) => c.label);
  }

  get revising(): boolean {
    return this.feedback !== undefined;
  }

  handleInput(data: string): void {
    if (this.feedback) {
      if (matchesKey(data, 'escape')) this.feedback = undefined;
      else if (matchesKey(data, 'enter')) {
        const text = this.feedback.getValue().trim();
        if (text) this.onAnswer({ decision: 'revise', feedback: text });
      } else this.feedback.handleInput(data);
      return;
    }
    if (matchesKey(data, 'ctrl+e')) {
      this.expanded = !this.expanded;
      this.offset = Math.min(this.offset, this.maxOffset());
      return;
    }
    if (matchesKey(data, 'pageDown')) {
      this.offset = Math.min(this.maxOffset(), this.offset + this.window());
      return;
    }
    if (matchesKey(data, 'pageUp')) {
      this.offset = Math.max(0, this.offset - this.window());
      return;
    }
    if (matchesKey(data, 'escape') || matchesKey(data, 'ctrl+c')) {
      this.onAnswer({ decision: 'reject' });
      return;
    }
    const n = this.choices.length;
    if (matchesKey(data, 'up')) this.selected = (this.selected + n - 1) % n;
    else if (matchesKey(data, 'down')) this.selected = (this.selected + 1) % n;
    else if (matchesKey(data, 'enter')) this.choose(this.selected);
    else if (/^[1-9]$/.test(data) && Number(data) <= n) this.choose(Number(data) - 1);
  }

  private choose(index: number): void {
    this.selected = index;
    const choice = this.choices[index];
    if (choice.revise) {
      this.feedback = new Input();
      this.feedback.focused = true;
      return;
    }
    this.onAnswer(choice.answer!);
  }

  /** Plan lines shown at once. */
  private window(): number {
    if (!this.expanded) return COLLAPSED_PLAN;
    return Math.max(COLLAPSED_PLAN, this.height() - this.choices.length - 12);
  }

  private maxOffset(): number {
    return Math.max(0, (this.planCache?.lines.length ?? 0) - this.window());
  }

  private planLines(width: number): string[] {
    if (this.planCache?.width !== width)
      this.planCache = { width, lines: markdownView(this.request.plan.trim(), this.theme).render(width) };
    return this.planCache.lines;
  }

  invalidate(): void {
    this.planCache = undefined;
  }

  render(width: number): string[] {
    const { fg } = this.theme;
    const box = boxWriter(this.theme, width);
    const lines = [box.top()];
    const room = Math.max(12, box.inner - 16);
    const path = this.shownPath.length > room ? `…${this.shownPath.slice(-(room - 1))}` : this.shownPath;
    lines.push(box.row(`${this.theme.bold(fg.primary('Plan review'))} ${fg.textDim('·')} ${fg.textDim(path)}`));
    const plan = this.planLines(box.inner);
    const win = this.window();
    this.offset = Math.min(this.offset, Math.max(0, plan.length - win));
    for (const l of plan.slice(this.offset, this.offset + win)) lines.push(box.row(l));
    if (plan.length > win) {
      const end = Math.min(plan.length, this.offset + win);
      lines.push(
        box.row(
          fg.textMuted(
            `  lines ${this.offset + 1}–${end} of ${plan.length} · PgUp/PgDn scroll · ctrl+e ${this.expanded ? 'collapse' : 'expand'}`,
          ),
        ),
      );
    } else if (this.expanded) lines.push(box.row(fg.textMuted('  (ctrl+e to collapse)')));
    lines.push(box.row(''));
    this.choices.forEach((c, i) =>
      lines.push(
        ...box.option(
          i === this.selected,
          `${i + 1}. ${c.label}`,
          c.description ? fg.textDim(` — ${c.description}`) : '',
        ),
      ),
    );
    if (this.feedback) {
      lines.push(box.row(fg.textDim('What should change in the plan? (Enter sends, Esc goes back)')));
      for (const l of this.feedback.render(box.inner)) lines.push(box.row(l));
    } else {
      lines.push(
        box.row(
          fg.textMuted(
            `↑/↓ move · Enter select · 1–${this.choices.length} pick · Esc reject · PgUp/PgDn scroll · ctrl+e expand`,
          ),
        ),
      );
    }
    lines.push(box.bottom());
    return lines;
  }
}
