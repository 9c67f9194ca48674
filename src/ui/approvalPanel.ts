// The approval panel (docs/ui.md): Approve once / Approve for this session / Reject / Reject with
// feedback. ↑/↓ move, Enter confirms, 1–9 pick, Esc / Ctrl-C / Ctrl-D reject, Ctrl-E expands the
// preview. "Reject with feedback" switches to a text field (Enter sends, Esc goes back to the list).
import { Input, matchesKey, wrapTextWithAnsi, type Component, type Focusable } from '@mariozechner/pi-tui';
import type { ApprovalAnswer, ApprovalRequest } from '../engine/policy/approvals';
import { approvalPreview, type Preview } from './approvalPreview';
import { boxWriter } from './dialogs/box';
import type { Theme } from './theme';

const COLLAPSED_PREVIEW = 12;
const MAX_COLLAPSED_COMMANDS = 8;

interface Choice {
  label: string;
  answer?: ApprovalAnswer;
  feedback?: true;
}

export class ApprovalPanel implements Component, Focusable {
  focused = true;
  private selected = 0;
  private expanded = false;
  private feedbackInput: Input | undefined;
  private readonly preview: Preview;
  private readonly choices: Choice[];

  constructor(
    private readonly request: ApprovalRequest,
    private readonly theme: Theme,
    cwd: string,
    private readonly onAnswer: (answer: ApprovalAnswer) => void,
  ) {
    this.preview = approvalPreview(request, cwd, theme);
    const offers = request.offers ?? ['once', 'session'];
    this.choices = [
      ...(offers.includes('once') ? [{ label: 'Approve once', answer: { decision: 'approve' } } as Choice] : []),
      ...(offers.includes('session')
        ? [
            {
              label: `Approve for this session (${request.sessionPattern})`,
              answer: { decision: 'approve_session' },
            } as Choice,
          ]
        : []),
      { label: 'Reject', answer: { decision: 'reject' } },
      { label: 'Reject with feedback…', feedback: true },
    ];
  }

  handleInput(data: string): void {
    if (this.feedbackInput) {
      if (matchesKey(data, 'escape')) {
        this.feedbackInput = undefined;
        return;
      }
      if (matchesKey(data, 'enter')) {
        const text = this.feedbackInput.getValue().trim();
        this.onAnswer(text ? { decision: 'reject', feedback: text } : { decision: 'reject' });
        return;
      }
      this.feedbackInput.handleInput(data);
      return;
    }
    if (matchesKey(data, 'ctrl+e')) {
      this.expanded = !this.expanded;
      return;
    }
    if (matchesKey(data, 'escape') || matchesKey(data, 'ctrl+c') || matchesKey(data, 'ctrl+d')) {
      this.onAnswer({ decision: 'reject' });
      return;
    }
    if (matchesKey(data, 'up')) this.selected = (this.selected + this.choices.length - 1) % this.choices.length;
    else if (matchesKey(data, 'down')) this.selected = (this.selected + 1) % this.choices.length;
    else if (matchesKey(data, 'enter')) this.choose(this.selected);
    else if (/^[1-9]$/.test(data) && Number(data) <= this.choices.length) this.choose(Number(data) - 1);
  }

  private choose(index: number): void {
    this.selected = index;
    const choice = this.choices[index];
    if (choice.feedback) {
      this.feedbackInput = new Input();
      this.feedbackInput.focused = true;
      return;
    }
    this.onAnswer(choice.answer!);
  }

  invalidate(): void {}

  /** The line as bash reads it (line continuations joined), when that differs from what was written. */
  private bashReads(width: number): string[] {
    const joined = this.request.normalised;
    if (joined === undefined) return [];
    const out = [this.theme.fg.textDim('Bash reads it as:')];
    for (const l of joined.split('\n')) out.push(...wrapTextWithAnsi(`  ${l}`, width));
    return out;
  }

  /** A Bash line's simple commands and written files as the parser read them, when there is more than the line. */
  private parsedCommands(width: number): string[] {
    const commands = this.request.commands ?? [];
    const args = this.request.args as { command?: unknown } | undefined;
    if (commands.length === 0 || (commands.length === 1 && commands[0] === String(args?.command ?? '').trim()))
      return [];
    const shown = this.expanded ? commands : commands.slice(0, MAX_COLLAPSED_COMMANDS);
    const out = [this.theme.fg.textDim('Parsed as:')];
    for (const c of shown) out.push(...wrapTextWithAnsi(`  ${this.theme.fg.accent('•')} ${c}`, width));
    if (shown.length < commands.length)
      out.push(this.theme.fg.textMuted(`  … ${commands.length - shown.length} more (ctrl+e to expand)`));
    return out;
  }

  render(width: number): string[] {
    const { fg } = this.theme;
    const box = boxWriter(this.theme, width);
    const { row, inner } = box;
    const lines = [box.top()];
    lines.push(
      ...box.wrapped(
        `${this.theme.bold(fg.warning('Approval needed'))} ${fg.textDim('·')} ${this.theme.bold(this.request.subject)}`,
      ),
    );
    lines.push(...box.wrapped(fg.textDim(`Why: ${this.request.reason}`)));
    for (const l of this.bashReads(inner)) lines.push(row(l));
    for (const l of this.parsedCommands(inner)) lines.push(row(l));
    lines.push(row(this.preview.title));
    const body = this.preview.lines;
    const shown = this.expanded ? body : body.slice(0, COLLAPSED_PREVIEW);
    for (const l of shown) lines.push(row(`  ${l}`));
    const more = body.length - shown.length;
    if (more > 0) lines.push(row(fg.textMuted(`  … ${more} more line${more === 1 ? '' : 's'} (ctrl+e to expand)`)));
    else if (this.expanded && body.length > COLLAPSED_PREVIEW) lines.push(row(fg.textMuted('  (ctrl+e to collapse)')));
    lines.push(row(''));
    this.choices.forEach((c, i) => lines.push(...box.option(i === this.selected, `${i + 1}. ${c.label}`)));
    if (this.feedbackInput) {
      lines.push(...box.wrapped(fg.textDim('Tell the model what to do instead (Enter sends, Esc goes back):')));
      for (const l of this.feedbackInput.render(inner)) lines.push(row(l));
    } else {
      lines.push(...box.wrapped(fg.textMuted('↑/↓ move · Enter select · 1–4 pick · Esc reject · ctrl+e expand')));
    }
    lines.push(box.bottom());
    return lines;
  }
}
