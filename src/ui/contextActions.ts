// The user's actions on the conversation itself: `/compact [instruction]` (Esc cancels; the result
// arrives as a compaction block through the engine's events), `/undo [n]` / Esc-Esc (withdraws
// prompts; the transcript is cut back or reprinted and the withdrawn prompt returns to the input box)
// and `/rewind` (also offered in the Esc-Esc selector): the same, with the files put back too
// (docs/sessions.md "Rewind").
import {
  listRewindTargets,
  planFileRewind,
  rewind,
  RewindError,
  type RewindResult,
  type RewindScope,
  type RewindTarget,
} from '../engine/session/rewind';
import { DEFAULT_REWIND_MAX_FILE_BYTES } from '../engine/session/fileHistoryRecorder';
import type { Runtime } from '../engine/runtime/runtime';
import { listUndoTargets, undo, UndoError } from '../engine/session/undo';
import { displayPath } from '../store/paths';
import type { WorkState } from './inputRouter';
import type { PickItem } from './slashCommands';
import type { Block } from './transcript/block';

export interface ContextActionsHost {
  readonly runtime: Runtime | undefined;
  /** What is running now (the agent, a compaction, a shell command). */
  readonly work: WorkState;
  notice(level: 'info' | 'warning' | 'error' | 'success', text: string, hint?: string): void;
  pick(title: string, items: PickItem[], onPick: (value: string) => void, body?: string[]): void;
  popup(title: string, lines: string[]): void;
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

const REWIND_ITEM = 'rewind';
const SCOPE_TEXT: Record<RewindScope, string> = {
  both: 'the conversation and the files',
  files: 'the files',
  conversation: 'the conversation',
};

const CHOICE_MAX = 70;

/** A prompt's first line as a choice: a long one is cut at a word, with an ellipsis (never mid-word). */
export function choiceLabel(text: string): string {
  const line = text.split('\n')[0].trim();
  if (!line) return '(empty)';
  if (line.length <= CHOICE_MAX) return line;
  const cut = line.slice(0, CHOICE_MAX);
  const space = cut.lastIndexOf(' ');
  return `${(space > CHOICE_MAX / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

function fileCount(n: number): string {
  return n === 1 ? '1 file' : `${n} files`;
}

function targetDescription(t: RewindTarget): string {
  const parts = [t.files.length ? `${fileCount(t.files.length)} changed since` : 'no file changes since'];
  if (t.commands.length) parts.push('ran commands (not restorable)');
  if (!t.conversation) parts.push('files only: before a compaction');
  return parts.join(' · ');
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
        host.notice(
          'info',
          rt.session.state.compactions.length
            ? 'Nothing to withdraw since the last compaction (undo cannot cross it).'
            : 'There is no prompt to withdraw yet.',
        );
        return;
      }
      host.pick(
        'Withdraw prompts (undo)',
        [
          ...targets.slice(0, 20).map((t) => ({
            value: String(t.count),
            label: choiceLabel(t.prompt),
            description: t.count === 1 ? 'the last prompt' : `and the ${t.count - 1} after it`,
          })),
          { value: REWIND_ITEM, label: 'Rewind…', description: 'put the files back too (/rewind)' },
        ],
        (value) => (value === REWIND_ITEM ? void this.rewind() : this.undo(Number(value))),
        [
          'The prompt you pick and everything after it leave the conversation (todos and plan mode roll back too); files on disk are not changed. To put files back as well, pick Rewind… at the end.',
        ],
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

  /** `/rewind`: pick a prompt, then what to rewind (conversation, files or both), then confirm overwrites. */
  rewind(): void {
    const { host } = this;
    const rt = host.runtime;
    if (host.work.busy || host.work.compacting) {
      host.notice('warning', 'Cannot rewind while the agent works.', 'Press Esc to interrupt first.');
      return;
    }
    const targets = rt ? listRewindTargets(rt.session.state, 20) : [];
    if (!rt || !targets.length) {
      host.notice('info', 'There is no prompt to rewind to yet.');
      return;
    }
    host.pick(
      'Rewind to before a prompt',
      targets.map((t) => ({
        value: t.turnId,
        label: choiceLabel(t.label),
        description: targetDescription(t),
      })),
      (turnId) =>
        this.chooseScope(
          rt,
          targets.find((t) => t.turnId === turnId)!,
        ),
      [
        'Everything from the prompt you pick on is rewound; next you choose the conversation, the files, or both.',
        'Changes made by commands (Bash) cannot be restored: such turns say "ran commands".',
      ],
    );
  }

  private chooseScope(rt: Runtime, target: RewindTarget): void {
    const files = target.files.length ? fileCount(target.files.length) : 'no files';
    const items = [
      ...(target.conversation
        ? [{ value: 'both', label: 'Conversation and files', description: `withdraw the prompt and restore ${files}` }]
        : []),
      { value: 'files', label: 'Files only', description: `restore ${files}; keep the conversation` },
      ...(target.conversation
        ? [{ value: 'conversation', label: 'Conversation only (undo)', description: 'files stay as they are' }]
        : []),
    ];
    const body = [
      ...target.files.slice(0, 8).map((p) => `  ${displayPath(p)}`),
      ...(target.files.length > 8 ? [`  … and ${target.files.length - 8} more`] : []),
      ...target.commands
        .slice(0, 4)
        .map((c) => `Not restorable: ${c.subject} ran in "${c.turn.slice(0, 40)}"; what it changed stays.`),
      ...(target.conversation ? [] : ['The conversation cannot go back past the last compaction; the files can.']),
    ];
    this.host.pick(
      `Rewind to before "${target.label.slice(0, 50)}"`,
      items,
      (scope) => void this.confirmOverwrites(rt, target, scope as RewindScope),
      body,
    );
  }

  private async confirmOverwrites(rt: Runtime, target: RewindTarget, scope: RewindScope): Promise<void> {
    if (scope === 'conversation') return this.runRewind(rt, target, scope, false);
    let conflicts: Array<{ path: string; conflict?: string }>;
    try {
      const plan = await planFileRewind(
        rt.session.state,
        target.turnId,
        rt.fileHistory?.settings.maxFileBytes ?? DEFAULT_REWIND_MAX_FILE_BYTES,
        rt.workspace.roots,
      );
      conflicts = plan.restore.filter((r) => r.conflict);
    } catch (e) {
      this.host.notice('error', `Rewind failed: ${(e as Error).message}`);
      return;
    }
    if (!conflicts.length) return this.runRewind(rt, target, scope, false);
    this.host.pick(
      conflicts.length === 1
        ? '1 file was changed outside the agent'
        : `${conflicts.length} files were changed outside the agent`,
      [
        { value: 'keep', label: 'Keep them as they are', description: 'restore the other files' },
        { value: 'overwrite', label: 'Overwrite them too', description: 'their current bytes are kept in the session' },
      ],
      (answer) => void this.runRewind(rt, target, scope, answer === 'overwrite'),
      conflicts.map((c) => `  ${displayPath(c.path)}: ${c.conflict}`),
    );
  }

  private async runRewind(rt: Runtime, target: RewindTarget, scope: RewindScope, overwrite: boolean): Promise<void> {
    const { host } = this;
    let result: RewindResult;
    try {
      result = await rewind(rt, { turnId: target.turnId, scope, overwrite });
    } catch (e) {
      if (e instanceof RewindError) host.notice('warning', e.message);
      else host.notice('error', `Rewind failed: ${(e as Error).message}`);
      return;
    }
    if (result.withdrawn.length) this.afterUndo(rt, target.turnId, result.withdrawn, false);
    const restored = result.restored.length ? `${fileCount(result.restored.length)} restored` : 'no file restored';
    const summary =
      scope === 'conversation'
        ? 'the files were not changed'
        : result.skipped.length
          ? `${restored}, ${result.skipped.length} skipped`
          : restored;
    host.notice(
      result.skipped.length ? 'warning' : 'success',
      `Rewound ${SCOPE_TEXT[scope]} to before "${target.label.slice(0, 50)}": ${summary}.`,
    );
    if (result.skipped.length || result.commands.length) {
      host.popup('Rewind', [
        ...result.restored.map((r) => `${r.action.padEnd(9)} ${displayPath(r.path)}`),
        ...result.skipped.map((s) => `skipped   ${displayPath(s.path)}: ${s.reason}`),
        ...result.commands.map((c) => `not restorable: what ${c.subject} changed (in "${c.turn.slice(0, 40)}")`),
      ]);
    }
    host.refreshContext();
    host.requestRender();
  }

  /** `notify`: say what undo did (a rewind says it itself). */
  private afterUndo(rt: Runtime, turnId: string | undefined, withdrawn: string[], notify = true): void {
    const { host } = this;
    host.rewindTranscript(turnId ? this.turnBlocks.get(turnId) : undefined);
    const kept = new Set(rt.session.state.checkpoints.map((c) => c.turnId));
    for (const id of [...this.turnBlocks.keys()]) if (!kept.has(id)) this.turnBlocks.delete(id);
    const n = withdrawn.length;
    if (notify)
      host.notice(
        'info',
        `Withdrew ${n === 1 ? 'the last prompt' : `${n} prompts`}; the conversation is as it was before ${n === 1 ? 'it' : 'them'}.`,
        'The prompt is back in the input box. Files on disk were not changed.',
      );
    host.restoreInput(withdrawn[0] ?? '');
    host.planRestored(rt.plan.active);
    host.refreshContext();
  }
}
