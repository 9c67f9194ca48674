// The footer (docs/ui.md): mode badges, model, context use, cwd, git branch, and a hint line that
// carries exit confirmations and what the keys do right now.
import { truncateToWidth, visibleWidth, type Component } from '@mariozechner/pi-tui';
import type { PermissionMode } from '../engine/records';
import type { GoalStatus } from '../tools/goal/goalService';
import { displayPath } from '../store/paths';
import type { Theme } from './theme';

export interface FooterState {
  mode: PermissionMode;
  plan: boolean;
  /** Swarm mode (/swarm). */
  swarm?: boolean;
  goal?: { status: GoalStatus; turns: number };
  compacting?: boolean;
  model: string;
  contextTokens: number;
  contextLimit: number;
  cwd: string;
  branch?: string;
  hint?: string;
  shell: boolean;
  busy: boolean;
}

export function contextPercent(tokens: number, limit: number): number {
  if (!limit || tokens <= 0) return 0;
  return Math.min(100, Math.round((tokens / limit) * 100));
}

export class Footer implements Component {
  constructor(private readonly getTheme: () => Theme, private readonly state: () => FooterState) {}

  invalidate(): void {}

  render(width: number): string[] {
    const theme = this.getTheme();
    const { fg } = theme;
    const s = this.state();
    const parts: string[] = [];
    if (s.shell) parts.push(theme.bold(fg.shellMode('! shell')));
    if (s.mode === 'yolo') parts.push(theme.bold(fg.warning('YOLO')));
    else if (s.mode === 'auto') parts.push(theme.bold(fg.warning('AUTO')));
    else parts.push(fg.textDim('manual'));
    if (s.plan) parts.push(theme.bold(fg.primary('PLAN')));
    if (s.swarm) parts.push(theme.bold(fg.accent('SWARM')));
    if (s.goal) {
      const style = s.goal.status === 'active' ? fg.accent : s.goal.status === 'complete' ? fg.success : fg.warning;
      parts.push(style(`goal ${s.goal.status}${s.goal.turns ? ` (${s.goal.turns} turn${s.goal.turns === 1 ? '' : 's'})` : ''}`));
    }
    parts.push(fg.primary(s.model));
    const pct = contextPercent(s.contextTokens, s.contextLimit);
    const ctxStyle = pct >= 90 ? fg.error : pct >= 70 ? fg.warning : fg.textDim;
    parts.push(ctxStyle(`context ${pct}%`));
    parts.push(fg.textDim(displayPath(s.cwd)));
    if (s.branch) parts.push(fg.accent(`⎇ ${s.branch}`));
    const line1 = truncateToWidth(parts.join(fg.textMuted(' · ')), width);
    const defaultHint = s.compacting
      ? 'compacting… esc cancels'
      : s.busy
      ? 'esc interrupt · ctrl+s steer · enter queue · ctrl+o expand'
      : s.shell
        ? 'enter run · esc leave shell mode'
        : '/ commands · @ files · ! shell · shift+tab mode/plan · esc esc undo · ctrl+o expand';
    const hint = s.hint ? fg.warning(s.hint) : fg.textMuted(defaultHint);
    const line2 = truncateToWidth(hint, width);
    return visibleWidth(line2) ? [line1, line2] : [line1];
  }
}
