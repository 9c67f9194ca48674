// The transcript block for the foreground Agent calls of one model response: one line per subagent
// with its state (running / waiting / completed / failed), elapsed time and what it is doing now.
// It stays in the live region, its clocks ticking, until every member has finished.
import { truncateToWidth } from '@mariozechner/pi-tui';
import type { Theme } from '../theme';
import { Block } from '../transcript/block';

export type MemberStatus = 'waiting' | 'running' | 'completed' | 'failed';

export interface SubagentMember {
  key: string;
  /** The call's description (Agent) or the item (AgentSwarm). */
  label: string;
  /** The subagent type (`coder`, a custom agent) or `resume <id>` until it starts. */
  type: string;
  status: MemberStatus;
  /** When it started waiting or running (ms since epoch). */
  since: number;
  /** Final elapsed time once finished. */
  elapsedMs?: number;
  agentId?: string;
  /** Its latest tool call, e.g. `Bash npm test`. */
  activity?: string;
  error?: string;
}

/** `4s`, `1m 05s`: the elapsed time as the panels show it. */
export function elapsedLabel(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
}

export function memberElapsed(m: SubagentMember, now = Date.now()): number {
  return m.elapsedMs ?? now - m.since;
}

export function statusGlyph(theme: Theme, status: MemberStatus): string {
  const { fg } = theme;
  return { waiting: fg.textMuted('○'), running: fg.warning('◐'), completed: fg.success('✓'), failed: fg.error('✗') }[
    status
  ];
}

/** One member as a line (and, while it runs, a dimmer line with what it is doing). */
export function memberLines(theme: Theme, m: SubagentMember, width: number, indent = '  '): string[] {
  const { fg } = theme;
  const state = m.status === 'waiting' && m.agentId ? 'waiting for you' : m.status;
  const stateStyle = { waiting: fg.textMuted, running: fg.warning, completed: fg.success, failed: fg.error }[m.status];
  const tail = `${stateStyle(state)} ${fg.textDim(`· ${elapsedLabel(memberElapsed(m))}`)}${m.status === 'failed' && m.error ? fg.error(` — ${m.error}`) : ''}`;
  const lines = [
    truncateToWidth(
      `${indent}${statusGlyph(theme, m.status)} ${theme.bold(fg.text(m.label))} ${fg.textDim(`(${m.type})`)} ${tail}`,
      width,
    ),
  ];
  if (m.activity && (m.status === 'running' || m.status === 'waiting'))
    lines.push(truncateToWidth(`${indent}    ${fg.textMuted(`⎿ ${m.activity}`)}`, width));
  return lines;
}

const finished = (m: SubagentMember) => m.status === 'completed' || m.status === 'failed';

export class SubagentGroupBlock extends Block {
  readonly members: SubagentMember[] = [];
  /** The second shown, so the clocks advance once a second without re-rendering every frame. */
  private shownSecond = -1;

  add(member: SubagentMember): void {
    this.members.push(member);
    this.touch();
  }

  /** A member changed: re-render, and the block is done once all have finished. */
  touch(): void {
    this.done = this.members.length > 0 && this.members.every(finished);
    this.changed();
  }

  override render(width: number): string[] {
    const second = Math.floor(Date.now() / 1000);
    if (!this.done && second !== this.shownSecond) {
      this.shownSecond = second;
      this.changed();
    }
    return super.render(width);
  }

  protected build(width: number): string[] {
    const theme = this.view.theme;
    const { fg } = theme;
    const count = (s: string) => this.members.filter((m) => m.status === s).length;
    const counts = (['running', 'waiting', 'completed', 'failed'] as const)
      .filter((s) => count(s))
      .map((s) => `${count(s)} ${s}`)
      .join(' · ');
    const dot = this.done ? (count('failed') ? fg.error('●') : fg.success('●')) : fg.warning('○');
    const title = this.members.length === 1 ? 'Agent' : `${this.members.length} agents`;
    const lines = ['', truncateToWidth(`${dot} ${theme.bold(title)} ${fg.textDim(counts)}`, width)];
    for (const m of this.members) lines.push(...memberLines(theme, m, width));
    return lines;
  }
}
