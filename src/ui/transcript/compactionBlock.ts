// A compaction in the transcript: one line saying what was replaced; Ctrl-O shows the hand-off note
// the model wrote (docs/plan-goals-context.md: "summary viewable with Ctrl-O").
import { wrapTextWithAnsi } from '@mariozechner/pi-tui';
import { markdownView } from '../markdown';
import { Block, type ViewState } from './block';

export interface CompactionView {
  trigger: 'manual' | 'auto';
  summary: string;
  tokensBefore?: number;
  tokensAfter?: number;
  instruction?: string;
}

export class CompactionBlock extends Block {
  constructor(
    view: ViewState,
    private readonly info: CompactionView,
  ) {
    super(view);
    this.done = true;
  }

  protected build(width: number): string[] {
    const { theme, expanded } = this.view;
    const { fg } = theme;
    const how = this.info.trigger === 'manual' ? 'Conversation compacted' : 'Conversation compacted automatically';
    const sizes =
      this.info.tokensBefore !== undefined && this.info.tokensAfter !== undefined
        ? ` · ~${this.info.tokensBefore} → ~${this.info.tokensAfter} tokens`
        : '';
    const hint = expanded ? '' : fg.textMuted(' (ctrl+o to view the summary)');
    const lines = ['', `${fg.accent('✻')} ${theme.bold(how)}${fg.textDim(sizes)}${hint}`];
    if (this.info.instruction)
      lines.push(
        ...wrapTextWithAnsi(fg.textDim(`Instruction: ${this.info.instruction}`), Math.max(1, width - 2)).map(
          (l) => `  ${l}`,
        ),
      );
    if (expanded) lines.push(...markdownView(this.info.summary, theme, { dim: true }).render(width));
    return lines;
  }
}
