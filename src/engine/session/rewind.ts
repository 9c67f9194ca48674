// Rewind: one step back that can also put the files back (docs/sessions.md "Rewind"). Pick a user
// prompt; `conversation` withdraws it and what followed (today's undo), `files` restores every file
// the agent changed from then on to its state just before that prompt, `both` does the two. A file
// whose bytes differ from what the agent last left there was changed outside the agent (or by a
// command it ran): it is listed and kept unless the caller says to overwrite it. Changes made by
// commands cannot be restored; the targets and the result say which turns ran commands. The file history is read
// back from disk, so it is untrusted: a file is put back only inside the workspace and never into a version-control
// folder (rewindBounds.ts), from a kept copy whose bytes hash to its name and whose size is the recorded one, with
// plain permission bits (no set-id bits), and without following a link on the way.
import type { Agent } from '../loop/loop';
import {
  sameVersion,
  type FileHistoryTurn,
  type FileVersion,
  type RestoredFile,
  type SkippedFile,
} from './fileHistory';
import { DEFAULT_REWIND_MAX_FILE_BYTES, readVersion, type FileHistoryRecorder } from './fileHistoryRecorder';
import { FileBlobStore, sha256Of } from '../../store/fileBlobs';
import { removeBelow, writeFileBelow } from '../../store/ownedFiles';
import { restoreSpot } from './rewindBounds';
import type { SessionState } from './records';
import type { Session } from './session';
import { undo } from './undo';

export type RewindScope = 'conversation' | 'files' | 'both';

export class RewindError extends Error {}

export interface RewindTarget {
  turnId: string;
  /** The prompt's first line. */
  label: string;
  /** Prompts from this one to the last (what `--turns N` counts). */
  turns: number;
  /** Whether the conversation can go back to here (not before the last compaction). */
  conversation: boolean;
  /** Files the agent changed from this prompt on (what a files rewind would restore). */
  files: string[];
  /** Commands run from this prompt on, with the prompt of the turn that ran them. */
  commands: Array<{ turn: string; subject: string }>;
}

/** Turns that are still in the conversation, oldest first (withdrawn ones only ride along in ranges). */
function liveUserTurns(state: SessionState): Array<{ turn: FileHistoryTurn; index: number }> {
  const out: Array<{ turn: FileHistoryTurn; index: number }> = [];
  state.fileHistory.turns.forEach((turn, index) => {
    if (turn.origin === 'user' && !turn.withdrawn) out.push({ turn, index });
  });
  return out;
}

function labelOf(turns: readonly FileHistoryTurn[], index: number): string {
  for (let i = index; i >= 0; i--) if (turns[i].origin === 'user') return turns[i].label ?? '';
  return '';
}

/** The prompts a rewind can go back to, newest first. */
export function listRewindTargets(state: SessionState, limit = 50): RewindTarget[] {
  const live = liveUserTurns(state);
  const checkpoints = new Set(state.checkpoints.map((c) => c.turnId));
  const turns = state.fileHistory.turns;
  const out: RewindTarget[] = [];
  for (let n = live.length - 1; n >= 0 && out.length < limit; n--) {
    const { turn, index } = live[n];
    const files = new Set<string>();
    const commands: RewindTarget['commands'] = [];
    for (let i = index; i < turns.length; i++) {
      for (const c of turns[i].changes) files.add(c.path);
      for (const run of turns[i].commands) commands.push({ turn: labelOf(turns, i), subject: run.subject });
    }
    out.push({
      turnId: turn.turnId,
      label: turn.label ?? '',
      turns: live.length - n,
      conversation: checkpoints.has(turn.turnId),
      files: [...files],
      commands,
    });
  }
  return out;
}

export interface PlannedRestore {
  path: string;
  /** The workspace folder holding `path`, and `path` below it (rewindBounds.ts). */
  root: string;
  rel: string;
  to: FileVersion;
  /** What is on disk now. */
  current: FileVersion;
  /** Set when the file was changed outside the agent since it last wrote it: overwriting needs consent. */
  conflict?: string;
}

export interface FileRewindPlan {
  restore: PlannedRestore[];
  /** Files already as they were at that point (changed and changed back): nothing to do but forget the changes. */
  unchanged: RestoredFile[];
  /** Files that cannot be put back, with why (too large to have been kept, changed only by a command…). */
  impossible: SkippedFile[];
  /** Commands run from the target on: whatever they changed is not restored. */
  commands: RewindTarget['commands'];
}

function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024
    ? `${(bytes / 1024 / 1024).toFixed(1)} MiB`
    : bytes >= 1024
      ? `${(bytes / 1024).toFixed(1)} KiB`
      : `${bytes} bytes`;
}

/**
 * What a files rewind to just before user turn `turnId` would do; reads the disk (only inside `roots`, the workspace
 * folders), changes nothing.
 */
export async function planFileRewind(
  state: SessionState,
  turnId: string,
  maxFileBytes: number,
  roots: readonly string[],
): Promise<FileRewindPlan> {
  const turns = state.fileHistory.turns;
  const start = turns.findIndex((t) => t.turnId === turnId);
  if (start < 0) throw new RewindError('That prompt is not in this session’s history.');
  const earliest = new Map<string, { before: FileVersion; index: number }>();
  const lastChange = new Map<string, number>();
  const commandChanged = new Map<string, { index: number; subject: string }>();
  const commands: FileRewindPlan['commands'] = [];
  for (let i = start; i < turns.length; i++) {
    for (const c of turns[i].changes) {
      if (!earliest.has(c.path)) earliest.set(c.path, { before: c.before, index: i });
      lastChange.set(c.path, i);
    }
    for (const run of turns[i].commands) {
      commands.push({ turn: labelOf(turns, i), subject: run.subject });
      for (const path of run.changed) commandChanged.set(path, { index: i, subject: run.subject });
    }
  }
  const restore: PlannedRestore[] = [];
  const unchanged: RestoredFile[] = [];
  const impossible: SkippedFile[] = [];
  for (const [path, { before }] of earliest) {
    const spot = restoreSpot(path, roots);
    if ('refused' in spot) {
      impossible.push({ path, reason: spot.refused });
      continue;
    }
    const current = await readVersion(path, maxFileBytes).catch(() => undefined);
    if (!current) {
      impossible.push({ path, reason: 'it is no longer a regular file (or cannot be read)' });
      continue;
    }
    if (sameVersion(current, before)) {
      unchanged.push({ path, version: current, replaced: current });
      continue;
    }
    if (before.kind === 'file' && !before.kept) {
      impossible.push({
        path,
        reason: `it was ${sizeText(before.size)} when the agent changed it, over the ${sizeText(maxFileBytes)} limit for kept copies ([rewind] max_file_bytes), so its earlier content was not kept`,
      });
      continue;
    }
    const planned: PlannedRestore = { path, ...spot, to: before, current };
    const known = state.fileHistory.known[path];
    if (known && !sameVersion(current, known)) {
      const byCommand = commandChanged.get(path);
      planned.conflict =
        byCommand && byCommand.index >= (lastChange.get(path) ?? 0)
          ? `changed by a command the agent ran (${byCommand.subject}) after the agent last wrote it`
          : 'changed outside the agent since the agent last wrote it';
    }
    restore.push(planned);
  }
  for (const [path, { subject }] of commandChanged) {
    if (earliest.has(path)) continue;
    impossible.push({ path, reason: `changed by a command (${subject}); changes made by commands cannot be restored` });
  }
  return { restore, unchanged, impossible, commands };
}

export interface RewindOptions {
  /** The prompt to go back to (just before it); or `turns`: the n-th prompt from the end (default 1). */
  turnId?: string;
  turns?: number;
  scope: RewindScope;
  /** Overwrite files changed outside the agent: all (`true`) or these paths. */
  overwrite?: boolean | readonly string[];
}

export interface RewindResult {
  turnId: string;
  scope: RewindScope;
  /** Prompts withdrawn from the conversation, oldest first (the first goes back into the input box). */
  withdrawn: string[];
  restored: Array<{ path: string; action: 'restored' | 'removed' | 'recreated' }>;
  skipped: SkippedFile[];
  commands: RewindTarget['commands'];
}

export interface RewindSubject {
  session: Session;
  /** The folders files may be put back in: the runtime's workspace (cwd, --add-dir folders, the scratch folder). */
  workspace: { roots: readonly string[] };
  agent?: Pick<Agent, 'busy'>;
  /** The runtime's recorder, for `[rewind] max_file_bytes` (files up to it are hashed, replaced bytes kept). */
  fileHistory?: Pick<FileHistoryRecorder, 'settings'>;
  /** Overrides the recorder's cap (the shell command has no runtime). */
  maxFileBytes?: number;
}

function resolveTarget(state: SessionState, opts: RewindOptions): RewindTarget {
  const targets = listRewindTargets(state, Number.MAX_SAFE_INTEGER);
  if (!targets.length) throw new RewindError('There is no prompt to rewind to yet.');
  if (opts.turnId !== undefined) {
    const found = targets.find((t) => t.turnId === opts.turnId);
    if (!found) throw new RewindError('That prompt is no longer in the conversation.');
    return found;
  }
  const n = opts.turns ?? 1;
  if (!Number.isInteger(n) || n < 1)
    throw new RewindError(`Rewind needs a whole number of prompts (1 or more), got ${n}.`);
  if (n > targets.length)
    throw new RewindError(`Only ${targets.length === 1 ? '1 prompt' : `${targets.length} prompts`} can be rewound.`);
  return targets[n - 1];
}

async function putBack(entry: PlannedRestore, blobs: FileBlobStore, maxFileBytes: number): Promise<RestoredFile> {
  // The bytes being replaced are kept too (within the cap): overwriting someone's change must not lose it.
  let replaced: FileVersion = entry.current;
  try {
    replaced = (await readVersion(entry.path, maxFileBytes, blobs)) ?? entry.current;
  } catch (e) {
    if (entry.conflict) throw e;
  }
  if (entry.to.kind === 'absent') {
    removeBelow(entry.root, entry.rel);
    return { path: entry.path, version: { kind: 'absent' }, replaced };
  }
  const bytes = await blobs.get(entry.to.hash ?? '');
  if (bytes.byteLength !== entry.to.size)
    throw new Error(`its kept copy holds ${bytes.byteLength} bytes, not the ${entry.to.size} its record says`);
  // Plain permission bits only: a record never makes a set-user-id or set-group-id file.
  const mode = (entry.to.mode ?? 0o644) & 0o777;
  const written = writeFileBelow(entry.root, entry.rel, bytes, { makeDirs: true, dirMode: 0o777, mode });
  const version: FileVersion = {
    kind: 'file',
    size: bytes.byteLength,
    hash: sha256Of(bytes),
    mode: written.mode & 0o7777,
    mtimeMs: written.mtimeMs,
    kept: false,
  };
  return { path: entry.path, version, replaced };
}

function actionOf(entry: PlannedRestore): RewindResult['restored'][number]['action'] {
  if (entry.to.kind === 'absent') return 'removed';
  return entry.current.kind === 'absent' ? 'recreated' : 'restored';
}

/**
 * Rewinds to just before a user prompt. Journals one record (`undo` for the conversation alone,
 * `rewind` otherwise), so resume and fork see the result.
 */
export async function rewind(subject: RewindSubject, opts: RewindOptions): Promise<RewindResult> {
  const { session } = subject;
  if (subject.agent?.busy) throw new RewindError('Cannot rewind while a turn is running; press Esc to stop it first.');
  const target = resolveTarget(session.state, opts);
  const withConversation = opts.scope !== 'files';
  const checkpointIndex = session.state.checkpoints.findIndex((c) => c.turnId === target.turnId);
  if (withConversation && checkpointIndex < 0) {
    throw new RewindError(
      'The conversation cannot go back past the last compaction; rewind the files only (they do not depend on it).',
    );
  }
  const withdrawn = withConversation ? session.state.checkpoints.slice(checkpointIndex).map((c) => c.prompt) : [];
  if (opts.scope === 'conversation') {
    undo(subject, session.state.checkpoints.length - checkpointIndex);
    return {
      turnId: target.turnId,
      scope: opts.scope,
      withdrawn,
      restored: [],
      skipped: [],
      commands: target.commands,
    };
  }
  const maxFileBytes =
    subject.maxFileBytes ?? subject.fileHistory?.settings.maxFileBytes ?? DEFAULT_REWIND_MAX_FILE_BYTES;
  const blobs = new FileBlobStore(session.dir);
  const plan = await planFileRewind(session.state, target.turnId, maxFileBytes, subject.workspace.roots);
  const overwrite = (path: string) =>
    opts.overwrite === true || (Array.isArray(opts.overwrite) && opts.overwrite.includes(path));
  const restored: RestoredFile[] = [...plan.unchanged];
  const done: RewindResult['restored'] = [];
  const skipped: SkippedFile[] = [...plan.impossible];
  for (const entry of plan.restore) {
    if (entry.conflict && !overwrite(entry.path)) {
      skipped.push({ path: entry.path, reason: `${entry.conflict}; kept as it is (confirm to overwrite it)` });
      continue;
    }
    try {
      restored.push(await putBack(entry, blobs, maxFileBytes));
      done.push({ path: entry.path, action: actionOf(entry) });
    } catch (e) {
      skipped.push({
        path: entry.path,
        reason: `it could not be restored: ${e instanceof Error ? e.message : String(e)}`,
      });
    }
  }
  const scope = opts.scope;
  session.commit({ type: 'rewind', turnId: target.turnId, scope, restored, skipped });
  // The conversation is back at a point where the agent saw these files as they are again.
  if (scope === 'both') {
    for (const r of restored) {
      if (r.version.kind === 'file')
        session.commit({
          type: 'file_snapshot',
          snapshot: {
            path: r.path,
            size: r.version.size,
            mtimeMs: r.version.mtimeMs ?? 0,
            ...(r.version.hash ? { hash: r.version.hash } : {}),
          },
        });
    }
  }
  session.saveSummary();
  return { turnId: target.turnId, scope, withdrawn, restored: done, skipped, commands: plan.commands };
}
