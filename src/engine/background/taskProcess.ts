// The process a background task's record names, and whether a resumed session may signal it (docs/sessions.md,
// "Background tasks on resume"). When Jarvis starts a task it records the leader's pid with its start time and boot,
// authenticated with the data root's key (store/recordKey.ts). A record read back is trusted only when that tag
// binds it to this session and task, and the pid still names that very process, leading its own group: a record
// another program wrote, a pid since reused, a group of 0, 1 or Jarvis's own is never signalled — it is reported
// as not ours instead.
import { processIdentity, processState, unsignallableGroup } from '../../platform/processIdentity';
import { isGroupAliveAsync } from '../../platform/processes';
import type { RecordSigner } from '../../store/recordKey';
import type { Ending } from './taskEntry';

/** What a task record keeps about its process besides the pid. */
export interface TaskProcessRecord {
  start: string;
  boot: string;
  auth: string;
}

export type TaskProcessVerdict = { ours: true } | { ours: false; gone: boolean; reason: string };

function fieldsOf(sessionId: string, taskId: string, pid: number, start: string, boot: string): unknown[] {
  return ['task', sessionId, taskId, pid, start, boot];
}

/** The authenticated identity of a process this Jarvis just started; undefined where it cannot be read or signed. */
export function recordTaskProcess(
  signer: RecordSigner | undefined,
  sessionId: string,
  taskId: string,
  pid: number,
): TaskProcessRecord | undefined {
  const identity = processIdentity(pid);
  if (!signer || !identity) return undefined;
  const auth = signer.sign(fieldsOf(sessionId, taskId, pid, identity.start, identity.boot));
  return { ...identity, auth };
}

/** Whether the process `record` names may be signalled now, and why not. */
export function checkTaskProcess(
  record: { id: string; pid?: unknown; process?: unknown },
  signer: RecordSigner | undefined,
  sessionId: string,
): TaskProcessVerdict {
  const pid = record.pid;
  if (pid === undefined) return { ours: false, gone: true, reason: 'its record names no process' };
  if (typeof pid !== 'number')
    return { ours: false, gone: false, reason: `${JSON.stringify(pid)} is not a process id` };
  const refused = unsignallableGroup(pid);
  if (refused) return { ours: false, gone: false, reason: refused };
  // No such process: there is nothing to signal, whoever wrote the record.
  const now = processState(pid);
  if (!now) return { ours: false, gone: true, reason: `process ${pid} that it started has ended` };
  const proc = record.process as Partial<TaskProcessRecord> | undefined;
  const authentic =
    !!signer &&
    typeof proc?.start === 'string' &&
    typeof proc.boot === 'string' &&
    signer.verify(fieldsOf(sessionId, record.id, pid, proc.start, proc.boot), proc.auth);
  if (!authentic || !proc?.start || !proc.boot) {
    return {
      ours: false,
      gone: false,
      reason: `its record (naming process ${pid}) is not authenticated by this machine's Jarvis, so it may name a process this session did not start`,
    };
  }
  if (now.state === 'Z' || now.state === 'X' || now.boot !== proc.boot || now.start !== proc.start)
    return { ours: false, gone: true, reason: `process ${pid} that it started has ended` };
  if (now.pgrp !== pid)
    return { ours: false, gone: false, reason: `process ${pid} left the process group it was started in` };
  return { ours: true };
}

/** How a task whose process could not be verified ends: reported, never signalled. */
export function notSignalled(verdict: { gone: boolean; reason: string }): Ending {
  const message = verdict.gone
    ? `${verdict.reason}; nothing of its group was signalled`
    : `not ours: ${verdict.reason}; it was not signalled`;
  return { reason: 'lost', message };
}

/** How often a task inherited from an earlier session is checked for liveness. */
const INHERITED_POLL_MS = 1_000;

/**
 * Watches group `pid` of an inherited task (verified ours when it was adopted) until it is gone, then calls `gone`
 * once; stops when `until` settles. While any member lives the group id cannot be reused, so it stays the same group.
 */
export function watchGroup(pid: number, until: Promise<void>, gone: () => void): void {
  let checking = false;
  const poll = setInterval(() => {
    if (checking) return;
    checking = true;
    // A failed check counts as alive: the next tick looks again.
    void isGroupAliveAsync(pid)
      .catch(() => true)
      .then((alive) => {
        checking = false;
        if (alive) return;
        clearInterval(poll);
        gone();
      });
  }, INHERITED_POLL_MS);
  poll.unref();
  void until.then(() => clearInterval(poll));
}
