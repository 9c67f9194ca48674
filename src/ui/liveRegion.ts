// The bottom of the screen, top to bottom: live transcript blocks, the activity line, queued
// messages, then either a panel (approval, dialog) or the input box, then the footer.
import { truncateToWidth, type Component } from '@mariozechner/pi-tui';
import type { Theme } from './theme';

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

export interface LiveRegionParts {
  theme(): Theme;
  transcript: Component;
  /** The todo list, between the transcript and the activity line (renders nothing when hidden). */
  todos?: Component;
  /** The running AgentSwarm's progress, under the todo list (renders nothing without a swarm). */
  swarm?: Component;
  activity(): { since: number; frame: number; label: string } | undefined;
  queued(): readonly string[];
  panel(): Component | undefined;
  input: Component;
  footer: Component;
}

export class LiveRegion implements Component {
  constructor(private readonly parts: LiveRegionParts) {}

  invalidate(): void {}

  render(width: number): string[] {
    const { elastic, fixed } = this.renderParts(width);
    return [...elastic, ...fixed];
  }

  /** The live transcript (which the screen may show only the newest lines of, screen.ts) and the rest. */
  renderParts(width: number): { elastic: string[]; fixed: string[] } {
    const { fg } = this.parts.theme();
    const elastic = this.parts.transcript.render(width);
    const out: string[] = [];
    if (this.parts.todos) for (const l of this.parts.todos.render(width)) out.push(l);
    if (this.parts.swarm) for (const l of this.parts.swarm.render(width)) out.push(l);
    const activity = this.parts.activity();
    out.push('');
    if (activity) {
      const secs = Math.floor((Date.now() - activity.since) / 1000);
      out.push(
        truncateToWidth(
          `${fg.accent(SPINNER[activity.frame % SPINNER.length])} ${fg.text(activity.label)} ${fg.textMuted(`${secs}s · esc to interrupt`)}`,
          width,
        ),
      );
    }
    for (const q of this.parts.queued())
      out.push(truncateToWidth(fg.textDim(`  ⏳ queued: ${q.split('\n')[0]}`), width));
    const panel = this.parts.panel();
    for (const l of (panel ?? this.parts.input).render(width)) out.push(l);
    for (const l of this.parts.footer.render(width)) out.push(l);
    return { elastic, fixed: out };
  }
}
