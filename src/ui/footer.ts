// The footer (docs/ui.md "Status line"): the status line, then a hint line that carries exit
// confirmations and what the keys do right now. tui.toml `[status_line] items` picks and orders the
// status line's items (unset: the default layout); `[status_line] command` output, when there is
// some, replaces the status line (statusLineCommand.ts).
import { truncateToWidth, visibleWidth, type Component } from '@mariozechner/pi-tui';
import type { PermissionMode } from '../engine/session/records';
import type { GoalStatus } from '../tools/goal/goalService';
import { displayPath } from '../store/paths';
import type { StatusLineItem } from '../store/tuiConfig';
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
  /** Provider-reported totals of the session. */
  tokens?: { input: number; output: number };
  /** Background tasks still running. */
  tasks?: number;
  cwd: string;
  branch?: string;
  hint?: string;
  shell: boolean;
  busy: boolean;
  /** `[status_line] items`; empty = the default layout. */
  items?: readonly StatusLineItem[];
  /** The status-line command's line, shown instead of the built-in status line. */
  custom?: string;
}

/** The default layout: every item but `tokens` (tasks only while some run), then the tips line. */
const DEFAULT_ITEMS: readonly StatusLineItem[] = ['mode', 'goal', 'model', 'context', 'tasks', 'cwd', 'git', 'tips'];

export function contextPercent(tokens: number, limit: number): number {
  if (!limit || tokens <= 0) return 0;
  return Math.min(100, Math.round((tokens / limit) * 100));
}

/** 950 → "950", 12_345 → "12.3k", 2_500_000 → "2.5M". */
export function compactCount(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0).replace(/\.0$/, '')}k`;
  return `${(n / 1_000_000).toFixed(1).replace(/\.0$/, '')}M`;
}

export class Footer implements Component {
  constructor(
    private readonly getTheme: () => Theme,
    private readonly state: () => FooterState,
  ) {}

  invalidate(): void {}

  render(width: number): string[] {
    const theme = this.getTheme();
    const { fg } = theme;
    const s = this.state();
    const items = s.items?.length ? s.items : DEFAULT_ITEMS;
    const line1 = truncateToWidth(s.custom ?? this.statusParts(s, items, theme).join(fg.textMuted(' · ')), width);
    const defaultHint = s.compacting
      ? 'compacting… esc cancels'
      : s.busy
        ? 'esc interrupt · ctrl+s steer · enter queue · ctrl+o expand'
        : s.shell
          ? 'enter run · esc leave shell mode'
          : '/ commands · @ files · ! shell · shift+tab mode/plan · esc esc undo · ctrl+o expand';
    const hint = s.hint ? fg.warning(s.hint) : items.includes('tips') ? fg.textMuted(defaultHint) : '';
    const line2 = truncateToWidth(hint, width);
    const lines = visibleWidth(line1) ? [line1] : [];
    if (visibleWidth(line2)) lines.push(line2);
    return lines;
  }

  private statusParts(s: FooterState, items: readonly StatusLineItem[], theme: Theme): string[] {
    const { fg } = theme;
    const parts: string[] = [];
    for (const item of items) {
      switch (item) {
        case 'mode':
          if (s.shell) parts.push(theme.bold(fg.shellMode('! shell')));
          if (s.mode === 'yolo') parts.push(theme.bold(fg.warning('YOLO')));
          else if (s.mode === 'auto') parts.push(theme.bold(fg.warning('AUTO')));
          else parts.push(fg.textDim('manual'));
          if (s.plan) parts.push(theme.bold(fg.primary('PLAN')));
          if (s.swarm) parts.push(theme.bold(fg.accent('SWARM')));
          break;
        case 'goal':
          if (s.goal) {
            const style =
              s.goal.status === 'active' ? fg.accent : s.goal.status === 'complete' ? fg.success : fg.warning;
            parts.push(
              style(
                `goal ${s.goal.status}${s.goal.turns ? ` (${s.goal.turns} turn${s.goal.turns === 1 ? '' : 's'})` : ''}`,
              ),
            );
          }
          break;
        case 'model':
          parts.push(fg.primary(s.model));
          break;
        case 'context': {
          const pct = contextPercent(s.contextTokens, s.contextLimit);
          parts.push((pct >= 90 ? fg.error : pct >= 70 ? fg.warning : fg.textDim)(`context ${pct}%`));
          break;
        }
        case 'tokens':
          if (s.tokens)
            parts.push(fg.textDim(`↑${compactCount(s.tokens.input)} ↓${compactCount(s.tokens.output)} tokens`));
          break;
        case 'tasks':
          if (s.tasks) parts.push(fg.accent(`${s.tasks} task${s.tasks === 1 ? '' : 's'} running`));
          break;
        case 'cwd':
          parts.push(fg.textDim(displayPath(s.cwd)));
          break;
        case 'git':
          if (s.branch) parts.push(fg.accent(`⎇ ${s.branch}`));
          break;
        case 'tips':
          break;
      }
    }
    return parts;
  }
}
