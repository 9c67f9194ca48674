// The user's actions on the conversation itself: `/compact [instruction]` (Esc cancels; the result
// arrives as a compaction block through the engine's events) and `/undo [n]` / Esc-Esc (withdraws
// prompts; the transcript is cut back or reprinted and the withdrawn prompt returns to the input box).
import type { Runtime } from '../engine/runtime';
import { listUndoTargets, undo, UndoError } from '../engine/undo';
import type { WorkState } from './inputRouter';
import type { PickItem } from './slashCommands';
import type { Block } from './transcript/block';

export interface ContextActionsHost {
  readonly runtime: Runtime | undefined;
  /** What is running now (the agent, a compaction, a shell command). */
  readonly work: WorkState;
  notice(level: 'info' | 'warning' | 'error' | 'success', text: string, hint?: string): void;
  pick(title: string, items: PickItem[], onPick: (value: string) => void, body?: string[]): void;
  startActivity(label: string): void;
  stopActivity(): void;
  refreshContext(): void;
  requestRender(): void;
  /** Cuts the transcript back to `block` (the UserBlock of a withdrawn turn), or reprints it from the state. */
  rewindTranscript(block: Block | undefined): void;
  /** Puts a withdrawn prompt back in the input box. */
  restoreInput(text: string): void;
  /** Plan mode after an undo (it rolls back with the conversation). */
  planRestored(active: boolean): void;
}

export class ContextActions {
  /** The UserBlock of each user turn, so /undo can cut the transcript where the turn began. */
  readonly turnBlocks = new Map<string, Block>();
  private compactAbort: AbortController | undefined;

  constructor(private readonly host: ContextActionsHost) {}

  /** Esc: stops a running manual compaction. */
  cancelCompaction(): void {
    this.compactAbort?.abort();
  }

  async compact(instruction: string): Promise<void> {
    const { host } = this;
    const rt = host.runtime;
    if (!rt) {
      host.notice('info', 'Nothing to compact yet: the session starts with the first message.');
      return;
    }
    const abort = new AbortController();
    this.compactAbort = abort;
    host.startActivity('Compacting the conversation…');
    try {
      await rt.compaction.compact({ instruction, signal: abort.signal });
    } catch (e) {
      if (abort.signal.aborted) host.notice('warning', 'Compaction cancelled; the conversation is unchanged.');
      else host.notice('warning', (e as Error).message);
    } finally {
      this.compactAbort = undefined;
      if (!host.work.busy && !host.work.shellRunning) host.stopActivity();
      host.refreshContext();
      host.requestRender();
    }
  }

  /** Without `count`: a selector of recent prompts. */
  undo(count?: number): void {
    const { host } = this;
    const rt = host.runtime;
    if (host.work.busy || host.work.compacting) {
      host.notice('warning', 'Cannot undo while the agent works.', 'Press Esc to interrupt first.');
      return;
    }
    if (!rt) {
      host.notice('info', 'There is no prompt to withdraw yet.');
      return;
    }
    const targets = listUndoTargets(rt.session.state);
    if (count === undefined) {
      if (!targets.length) {
        host.notice('info', rt.session.state.compactions.length ? 'Nothing to withdraw since the last compaction (undo cannot cross it).' : 'There is no prompt to withdraw yet.');
        return;
      }
      host.pick(
        'Withdraw prompts (undo)',
        targets.slice(0, 20).map((t) => ({ value: String(t.count), label: t.prompt.split('\n')[0].slice(0, 70) || '(empty)', description: t.count === 1 ? 'the last prompt' : `and the ${t.count - 1} after it` })),
        (value) => this.undo(Number(value)),
        ['The prompt you pick and everything after it leave the conversation (todos and plan mode roll back too); files on disk are not changed.'],
      );
      return;
    }
    let withdrawn: string[];
    try {
      withdrawn = undo(rt, count).withdrawn;
    } catch (e) {
      if (e instanceof UndoError) host.notice('warning', e.message);
      else host.notice('error', `Undo failed: ${(e as Error).message}`);
      return;
    }
    this.afterUndo(rt, targets[count - 1]?.turnId, withdrawn);
  }

  private afterUndo(rt: Runtime, turnId: string | undefined, withdrawn: string[]): void {
    const { host } = this;
    host.rewindTranscript(turnId ? this.turnBlocks.get(turnId) : undefined);
    const kept = new Set(rt.session.state.checkpoints.map((c) => c.turnId));
    for (const id of [...this.turnBlocks.keys()]) if (!kept.has(id)) this.turnBlocks.delete(id);
    const n = withdrawn.length;
    host.notice('info', `Withdrew ${n === 1 ? 'the last prompt' : `${n} prompts`}; the conversation is as it was before ${n === 1 ? 'it' : 'them'}.`, 'The prompt is back in the input box. Files on disk were not changed.');
    host.restoreInput(withdrawn[0] ?? '');
    host.planRestored(rt.plan.active);
    host.refreshContext();
  }
}
