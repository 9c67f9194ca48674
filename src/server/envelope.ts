// The reply envelope and error codes of the session API (docs/server.md "Conventions"): every JSON reply is
// `{ code, msg, data, request_id }`, with HTTP 200 for answers (errors too, by their code) and 401/429 for auth.
import { newSessionId } from '../store/sessionStore';
import type { ServerResponse } from 'node:http';

/** A ULID (48 bits of milliseconds, 80 random bits, Crockford base 32): the session ids' generator. */
export const ulid = (now = Date.now()): string => newSessionId(now);

/** A client's X-Request-Id is kept when it is a ULID or a short token of safe characters. */
export function requestIdOf(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  return value && /^[A-Za-z0-9_-]{8,64}$/.test(value) ? value : ulid();
}

/** The error codes this server uses (SPEC §10.2 bands). */
export const Codes = {
  ok: 0,
  validation: 40001,
  unauthorized: 40101,
  noCredential: 40111,
  modelUnresolved: 40113,
  session: 40401,
  prompt: 40402,
  approval: 40404,
  task: 40406,
  route: 40409,
  workspace: 40410,
  skill: 40415,
  busy: 40901,
  alreadyResolved: 40902,
  taskFinished: 40904,
  undoImpossible: 40911,
  sessionLocked: 40919,
  approvalExpired: 41001,
  pathEscape: 41304,
  banned: 42901,
  internal: 50001,
} as const;

export class ApiError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly httpStatus = 200,
    readonly data: unknown = null,
  ) {
    super(message);
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    ...headers,
  });
  res.end(text);
}

export function sendEnvelope(
  res: ServerResponse,
  requestId: string,
  code: number,
  msg: string,
  data: unknown,
  status = 200,
) {
  sendJson(res, status, { code, msg, data, request_id: requestId }, { 'x-request-id': requestId });
}
