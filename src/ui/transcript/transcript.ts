// The conversation view: finished blocks are handed to the screen's scrollback exactly once, in
// order; blocks still changing (streaming text, running tools) stay in the live region.
import type { Component } from '@mariozechner/pi-tui';
import type { Block } from './block';

export class Transcript implements Component {
  /** Everything already in the scrollback, kept to reprint after a resize or Ctrl-O. */
  readonly committed: Block[] = [];
  private live: Block[] = [];

  constructor(
    private readonly toScrollback: (lines: string[]) => void,
    private readonly width: () => number,
  ) {}

  add(block: Block): void {
    this.live.push(block);
    this.flush();
  }

  /** Moves finished blocks at the front of the live list to the scrollback (order is kept). */
  flush(): void {
    while (this.live.length && this.live[0].done) {
      const block = this.live.shift()!;
      this.committed.push(block);
      const lines = block.render(this.width());
      if (lines.length) this.toScrollback(lines);
    }
  }

  /** Marks every live block done and flushes (turn end, interrupt). */
  settle(): void {
    for (const b of this.live) b.done = true;
    this.flush();
  }

  /** Drops committed blocks from `index` on (undo); the printed scrollback stays (docs/ui.md "Scrollback"). */
  truncate(index: number): void {
    this.committed.length = Math.max(0, Math.min(index, this.committed.length));
  }

  /** Replaces the whole history (undo without a known cut point); what is printed stays as it is. */
  reset(blocks: readonly Block[]): void {
    this.committed.length = 0;
    this.live = [];
    for (const b of blocks) {
      b.done = true;
      this.committed.push(b);
    }
  }

  get liveBlocks(): readonly Block[] {
    return this.live;
  }

  render(width: number): string[] {
    if (this.live.length === 1) return this.live[0].render(width);
    const out: string[] = [];
    for (const b of this.live) for (const l of b.render(width)) out.push(l);
    return out;
  }

  renderHistory(width: number): string[] {
    const out: string[] = [];
    for (const b of this.committed) for (const l of b.render(width)) out.push(l);
    return out;
  }

  invalidate(): void {
    for (const b of this.live) b.invalidate();
  }
}
