// A hook that is a function of the program rather than a shell command (the SDK's `hooks` option, docs/sdk.md
// "hooks"). It reads the same payload a command reads on stdin (docs/hooks.md) and answers the way a command answers
// on stdout: nothing, a text (context), or the JSON object of a decision. Its answer goes through the same parsing, so
// blocking, `allow`/`ask` and context mean exactly what they mean for `[[hooks]]`. A function that throws, or does not
// settle within the hook's timeout, is a failed hook: a warning, and the event goes ahead (fail-open, as for commands).
import type { HookRun } from './hookRunner';

export type HookCallback = (payload: Record<string, unknown>, context: { signal: AbortSignal }) => unknown;

/** Calls `callback` with its own copy of the payload; resolves how it ended, never rejects. */
export async function runHookCallback(
  callback: HookCallback,
  label: string,
  input: string,
  timeoutSeconds: number,
  signal: AbortSignal | undefined,
): Promise<HookRun> {
  const run: HookRun = { command: label, exitCode: null, stdout: '', stderr: '', timedOut: false };
  if (signal?.aborted) return { ...run, failure: 'was not started: the turn was cancelled' };
  const stop = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const ended = new Promise<'timeout' | 'cancelled'>((resolveEnd) => {
    timer = setTimeout(() => resolveEnd('timeout'), timeoutSeconds * 1000);
    onAbort = () => resolveEnd('cancelled');
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  try {
    const answer = await Promise.race([
      Promise.resolve().then(() => callback(JSON.parse(input) as Record<string, unknown>, { signal: stop.signal })),
      ended,
    ]);
    if (answer === 'timeout' || answer === 'cancelled') {
      stop.abort();
      return answer === 'timeout'
        ? { ...run, timedOut: true }
        : { ...run, failure: 'was stopped: the turn was cancelled' };
    }
    const stdout = answerText(answer);
    if (stdout === undefined)
      return { ...run, failure: `answered ${String(answer)}: expected nothing, a text or a decision object` };
    return { ...run, exitCode: 0, stdout };
  } catch (e) {
    stop.abort();
    return { ...run, failure: `threw: ${e instanceof Error ? e.message : String(e)}` };
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }
}

function answerText(answer: unknown): string | undefined {
  if (answer === undefined || answer === null) return '';
  if (typeof answer === 'string') return answer;
  if (typeof answer === 'object' && !Array.isArray(answer)) return JSON.stringify(answer);
  return undefined;
}
