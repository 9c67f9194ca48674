// One POST to an OpenAI-compatible generation endpoint, with a deadline and errors a model (and the
// user reading over its shoulder) can act on: which endpoint, what it answered, what to change.
import type { GenerationEndpoint } from './generationEndpoint';

export const REQUEST_TIMEOUT_MS = 180_000;
/** The most a generated file may weigh (a base64 image, a downloaded image URL, an audio body). */
export const MAX_OUTPUT_BYTES = 64 * 1024 * 1024;

const HINTS: Record<number, string> = {
  400: 'the endpoint refused the arguments; change them (size, model, voice, format) and try again',
  401: 'the API key was refused; check api_key',
  403: 'the API key may not use this model or endpoint; check api_key and model',
  404: 'no such endpoint or model; base_url should end where /images/generations or /audio/speech can be appended (e.g. https://api.openai.com/v1), and model must exist there',
  413: 'the request is too large; shorten the input',
  429: 'rate limited or out of quota; wait and try again later',
};

function hintFor(status: number): string {
  return HINTS[status] ?? (status >= 500 ? 'the service failed; try again later' : 'see the answer above');
}

/** The endpoint's own message: OpenAI's `{error: {message}}` when it is one, else the start of the body. */
function serviceMessage(body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } | string; message?: unknown };
    const message = typeof parsed.error === 'string' ? parsed.error : (parsed.error?.message ?? parsed.message);
    if (typeof message === 'string' && message.trim()) return message.trim().slice(0, 500);
  } catch {
    // not JSON
  }
  return body.trim().slice(0, 300) || '(empty answer)';
}

export class GenerationError extends Error {}

export async function postJson(
  endpoint: GenerationEndpoint,
  path: string,
  body: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<Response> {
  const url = `${endpoint.baseUrl}${path}`;
  const headers: Record<string, string> = { 'content-type': 'application/json', ...endpoint.headers };
  if (endpoint.apiKey) headers.authorization = `Bearer ${endpoint.apiKey}`;
  const deadline = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
      signal: signal ? AbortSignal.any([signal, deadline]) : deadline,
    });
  } catch (e) {
    if (deadline.aborted)
      throw new GenerationError(`${url} did not answer within ${REQUEST_TIMEOUT_MS / 1000} s; try again later.`);
    const cause = (e as Error & { cause?: Error }).cause?.message ?? (e as Error).message;
    throw new GenerationError(`Could not reach ${url}: ${cause}. Check base_url and that the service is running.`);
  }
  if (!response.ok) {
    const text = await response.text().catch(() => '');
    throw new GenerationError(
      `${url} answered HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}: ${serviceMessage(text)} — ${hintFor(response.status)}.`,
    );
  }
  return response;
}

/** The body as bytes, refused past MAX_OUTPUT_BYTES. */
export async function readBytes(response: Response, what: string): Promise<Buffer> {
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > MAX_OUTPUT_BYTES)
    throw new GenerationError(`${what} is ${declared} bytes, over the ${MAX_OUTPUT_BYTES} byte limit.`);
  const bytes = Buffer.from(await response.arrayBuffer());
  if (bytes.length > MAX_OUTPUT_BYTES)
    throw new GenerationError(`${what} is ${bytes.length} bytes, over the ${MAX_OUTPUT_BYTES} byte limit.`);
  return bytes;
}
