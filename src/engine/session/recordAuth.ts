// The journal records a resume takes permissions from — the permission mode and the approvals given "for this
// session" — carry an authentication tag made with the data root's key (store/recordKey.ts). A resume applies such a
// record only when its tag binds it to this session, this agent and exactly what it grants; anything else (a record a
// command or another program appended, a journal copied from elsewhere, one written before tags existed) is skipped
// and the session keeps the mode it is started with (docs/sessions.md, "What a resume trusts").
import type { RecordSigner } from '../../store/recordKey';
import type { RecordBody } from './records';

export type PermissionRecord = Extract<RecordBody, { type: 'mode' | 'session_approval' }>;

export function isPermissionRecord(record: RecordBody): record is PermissionRecord {
  return record.type === 'mode' || record.type === 'session_approval';
}

/** What a tag binds: the journal it belongs to (session and agent) and what the record grants. */
function fieldsOf(record: PermissionRecord, sessionId: string, agentId: string): unknown[] {
  return ['journal', sessionId, agentId, record.type, record.type === 'mode' ? record.mode : record.pattern];
}

/** The record with its tag. */
export function authenticate<R extends PermissionRecord>(
  record: R,
  signer: RecordSigner,
  sessionId: string,
  agentId: string,
): R {
  return { ...record, auth: signer.sign(fieldsOf(record, sessionId, agentId)) };
}

export function isAuthentic(
  record: PermissionRecord,
  signer: RecordSigner | undefined,
  sessionId: string,
  agentId: string,
): boolean {
  return !!signer && signer.verify(fieldsOf(record, sessionId, agentId), record.auth);
}

/** The warning for permission records a resume did not apply; undefined when none would have granted anything. */
export function unauthenticatedWarning(journal: string, skipped: readonly PermissionRecord[]): string | undefined {
  const granting = skipped.filter((r) => r.type === 'session_approval' || r.mode !== 'manual');
  if (!granting.length) return undefined;
  const what = granting.map((r) => (r.type === 'mode' ? `mode ${r.mode}` : `approval ${r.pattern}`));
  const shown = what.length > 5 ? [...what.slice(0, 5), `${what.length - 5} more`] : what;
  return (
    `${journal}: ${granting.length === 1 ? '1 permission record was' : `${granting.length} permission records were`} ` +
    `not applied (${shown.join('; ')}): ${granting.length === 1 ? 'it is' : 'they are'} not authenticated by this ` +
    "machine's Jarvis (written by an older version, copied from elsewhere, or added by something else). The session " +
    'keeps the mode it is started with and asks again for what they approved.'
  );
}
