// What a memory is (docs/memory.md): its scopes and hard limits, the record and the JSONL line it is stored as,
// the error a refused change carries, and the checks every draft passes (limits, then credentials). The store that
// reads and appends the files is memoryStore.ts.
import { detectSecrets } from './secretDetector';

export const MEMORY_SCOPES = ['user', 'workspace', 'project'] as const;
export type MemoryScope = (typeof MEMORY_SCOPES)[number];

/** Hard limits (SPEC §6.8); not configurable. */
export const MEMORY_LIMITS = { bodyBytes: 4096, nameChars: 200, descriptionChars: 2000, recordsPerScope: 200 } as const;

export type MemoryOrigin = 'tool' | 'extraction';

export interface MemoryRecord {
  scope: MemoryScope;
  name: string;
  description: string;
  body: string;
  createdAt: string;
  updatedAt: string;
  origin: MemoryOrigin;
}

export type MemoryLine =
  /** `created`: kept when a compaction rewrites the file, so a record keeps its first date. */
  | {
      v: 1;
      op: 'put';
      name: string;
      description: string;
      body: string;
      at: string;
      origin: MemoryOrigin;
      created?: string;
    }
  | { v: 1; op: 'forget'; name: string; at: string };

export function isMemoryLine(value: unknown): value is MemoryLine {
  const r = value as Partial<Record<string, unknown>> | null;
  if (!r || r.v !== 1 || typeof r.name !== 'string' || typeof r.at !== 'string') return false;
  if (r.op === 'forget') return true;
  return (
    r.op === 'put' &&
    typeof r.description === 'string' &&
    typeof r.body === 'string' &&
    (r.origin === 'tool' || r.origin === 'extraction')
  );
}

/**
 * Why a change was refused. `terminal` errors will fail again however often they are retried (a
 * limit, a secret, an untrusted workspace); the others (disk full, a lock held too long) may pass later.
 */
export type MemoryErrorCode = 'invalid' | 'limit' | 'secret' | 'untrusted' | 'main_only' | 'not_found' | 'io';

export class MemoryError extends Error {
  constructor(
    readonly code: MemoryErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'MemoryError';
  }

  get terminal(): boolean {
    return this.code !== 'io';
  }
}

export interface MemoryDraft {
  scope: MemoryScope;
  name: string;
  description: string;
  body: string;
}

/** Who asks for a change: only the main agent may change user scope. */
export interface MemoryActor {
  mainAgent: boolean;
  origin: MemoryOrigin;
}

/** The first broken rule of a record (limits, then credentials), or undefined. */
function validationProblem(draft: { name: string; description: string; body: string }): MemoryError | undefined {
  const name = draft.name.trim();
  if (!name) return new MemoryError('invalid', 'A memory needs a name (a short label, e.g. "test command").');
  if (/[\r\n]/.test(name))
    return new MemoryError('invalid', 'A memory name is one line; put details in the description or the body.');
  if ([...name].length > MEMORY_LIMITS.nameChars)
    return new MemoryError(
      'limit',
      `The name has ${[...name].length} characters; the limit is ${MEMORY_LIMITS.nameChars}. Use a short label.`,
    );
  const descriptionChars = [...draft.description].length;
  if (descriptionChars > MEMORY_LIMITS.descriptionChars)
    return new MemoryError(
      'limit',
      `The description has ${descriptionChars} characters; the limit is ${MEMORY_LIMITS.descriptionChars}. Shorten it; details go in the body.`,
    );
  const bodyBytes = Buffer.byteLength(draft.body, 'utf8');
  if (bodyBytes > MEMORY_LIMITS.bodyBytes)
    return new MemoryError(
      'limit',
      `The body is ${bodyBytes} bytes (UTF-8); the limit is ${MEMORY_LIMITS.bodyBytes}. Keep one fact per memory and shorten it.`,
    );
  for (const [field, text] of [
    ['name', name],
    ['description', draft.description],
    ['body', draft.body],
  ] as const) {
    const finding = detectSecrets(text)[0];
    if (finding) {
      return new MemoryError(
        'secret',
        `The ${field} looks like it holds ${finding.kind} (at character ${finding.index + 1}). Memory never stores credentials; nothing was saved. Remember where the credential is kept (an environment variable, a vault path) instead of its value.`,
      );
    }
  }
  return undefined;
}

export function validateDraft(draft: MemoryDraft): { name: string; description: string; body: string } {
  const problem = validationProblem(draft);
  if (problem) throw problem;
  return { name: draft.name.trim(), description: draft.description.trim(), body: draft.body };
}

/** The limits and credential check alone, for drafts that are filtered before any store call. */
export function memoryDraftProblem(draft: {
  name: string;
  description: string;
  body: string;
}): MemoryError | undefined {
  return validationProblem(draft);
}
