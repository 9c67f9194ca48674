// The session API over fetch (docs/server.md "Conventions"): same-origin requests carrying the login cookie
// (docs/web.md "Login"), JSON bodies, the `{ code, msg, data }` envelope unwrapped, and this tab's X-Client-Id.
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** The name events give this tab ("approved from web:…"): random per tab. */
export const CLIENT_ID = `web:${Array.from(crypto.getRandomValues(new Uint8Array(6)), (b) => b.toString(16).padStart(2, '0')).join('')}`;

let onUnauthorized: () => void = () => undefined;
export function whenUnauthorized(handler: () => void): void {
  onUnauthorized = handler;
}

export async function call<T = Record<string, unknown>>(
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      credentials: 'same-origin',
      cache: 'no-store',
      headers: {
        'x-client-id': CLIENT_ID,
        ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
      },
      body: method === 'POST' ? JSON.stringify(body ?? {}) : undefined,
    });
  } catch (e) {
    throw new ApiFailure(0, 0, `the server cannot be reached (${(e as Error).message})`);
  }
  let envelope: { code: number; msg: string; data: T };
  try {
    envelope = (await res.json()) as typeof envelope;
  } catch {
    throw new ApiFailure(res.status, 0, `the server answered ${res.status} without JSON`);
  }
  if (res.status === 401) onUnauthorized();
  // 40909 "question dismissed" is a success (docs/server.md).
  if (envelope.code !== 0 && envelope.code !== 40909) throw new ApiFailure(res.status, envelope.code, envelope.msg);
  return envelope.data;
}

/** Exchanges a one-time login code for the cookie; false when the code is used, expired or unknown. */
export async function logIn(code: string): Promise<{ ok: boolean; message: string }> {
  const res = await fetch('/api/v1/auth/session', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ code }),
  });
  const envelope = (await res.json()) as { code: number; msg: string };
  return { ok: envelope.code === 0, message: envelope.msg };
}
