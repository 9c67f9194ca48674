// The live "Agent swarm" panel above the input box while an AgentSwarm call runs: how many members
// have started, run, finished and failed, how many still wait for their ramp slot, the elapsed time,
// one glyph per member in start order, and the newest running members with what they are doing.
import { truncateToWidth, type Component } from '@mariozechner/pi-tui';
import type { Theme } from '../theme';
import { elapsedLabel, memberLines, statusGlyph } from './subagentGroup';
import type { SwarmProgress } from './subagentView';

/** Running members listed by name under the counts. */
export const SWARM_PANEL_RUNNING_SHOWN = 3;

export function swarmCounts(swarm: SwarmProgress): {
  started: number;
  running: number;
  waitingForUser: number;
  done: number;
  failed: number;
  queued: number;
} {
  const count = (s: string) => swarm.members.filter((m) => m.status === s).length;
  const started = swarm.members.length;
  return {
    started,
    running: count('running'),
    waitingForUser: count('waiting'),
    done: count('completed'),
    failed: count('failed'),
    queued: Math.max(0, swarm.total - started),
  };
}

export class SwarmPanel implements Component {
  constructor(
    private readonly theme: () => Theme,
    private readonly swarm: () => SwarmProgress | undefined,
  ) {}

  invalidate(): void {}

  render(width: number): string[] {
    const swarm = this.swarm();
    if (!swarm) return [];
    const theme = this.theme();
    const { fg } = theme;
    const c = swarmCounts(swarm);
    const parts = [
      `${c.started}/${swarm.total} started`,
      `${c.running} running`,
      ...(c.waitingForUser ? [`${c.waitingForUser} waiting for you`] : []),
      `${c.done} done`,
      `${c.failed} failed`,
      ...(c.queued ? [`${c.queued} queued`] : []),
      elapsedLabel(Date.now() - swarm.startedAt),
    ];
    const out = [
      '',
      truncateToWidth(`${theme.bold(fg.primary('Agent swarm'))} ${fg.textDim(parts.join(' · '))}`, width),
    ];
    const glyphs = [
      ...swarm.members.map((m) => statusGlyph(theme, m.status)),
      ...Array.from({ length: c.queued }, () => fg.textMuted('·')),
    ];
    const perLine = Math.max(1, Math.floor((width - 2) / 2));
    for (let i = 0; i < glyphs.length; i += perLine) out.push(`  ${glyphs.slice(i, i + perLine).join(' ')}`);
    const running = swarm.members.filter((m) => m.status === 'running' || m.status === 'waiting');
    for (const m of running.slice(-SWARM_PANEL_RUNNING_SHOWN)) out.push(...memberLines(theme, m, width));
    if (running.length > SWARM_PANEL_RUNNING_SHOWN)
      out.push(fg.textMuted(`  … ${running.length - SWARM_PANEL_RUNNING_SHOWN} more running`));
    return out;
  }
}
