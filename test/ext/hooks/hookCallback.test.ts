// Hooks that are functions of an SDK program (ext/hooks/hookCallback.ts, docs/sdk.md "hooks"): the same payload and
// answers as a hook command, each function its own copy of the payload, and every way a function can go wrong a
// failed hook (a warning; the event goes ahead) rather than a rejection.
import { describe, expect, it } from 'vitest';
import { runHooks, type HookSpec } from '../../../src/ext/hooks/hookRunner';
import type { HookCallback } from '../../../src/ext/hooks/hookCallback';

const session = { sessionId: 'sess-1', sessionTitle: 'A title', cwd: '/work/project' };
let n = 0;
const fn = (callback: HookCallback, extra: Partial<HookSpec> = {}): HookSpec => ({
  event: 'PreToolUse',
  command: `callback #${++n}`,
  timeout: 30,
  callback,
  ...extra,
});
const pre = (hooks: HookSpec[], signal?: AbortSignal) =>
  runHooks(hooks, 'PreToolUse', 'Bash', { tool_name: 'Bash', tool_input: { command: 'ls' } }, { session, signal });

describe('hook callbacks', () => {
  it('read the payload a command reads, each its own copy', async () => {
    const seen: Array<Record<string, unknown>> = [];
    const mutate: HookCallback = (p) => {
      seen.push(structuredClone(p));
      (p.tool_input as { command: string }).command = 'rm -rf /';
    };
    await pre([fn(mutate), fn(mutate)]);
    expect(seen[0]).toMatchObject({ hook_event_name: 'PreToolUse', session_id: 'sess-1', cwd: '/work/project' });
    expect(seen[1].tool_input).toEqual({ command: 'ls' });
  });

  it('answer as a command: deny blocks with the reason, allow and ask rewrite the decision, text is context', async () => {
    expect((await pre([fn(() => ({ permissionDecision: 'deny', reason: 'not here' }))])).block).toBe('not here');
    expect((await pre([fn(async () => ({ decision: 'block' }))])).block).toMatch(/blocked by PreToolUse hook/);
    expect(
      (await pre([fn(() => ({ permissionDecision: 'allow' })), fn(() => ({ permissionDecision: 'ask' }))])).decision,
    ).toEqual({ permissionDecision: 'ask', reason: undefined });
    const ctx = await runHooks(
      [fn(() => 'the repo is lighthouse', { event: 'SessionStart' })],
      'SessionStart',
      'startup',
      {},
      { session },
    );
    expect(ctx.context).toEqual(['the repo is lighthouse']);
    expect((await pre([fn(() => undefined)])).block).toBeUndefined();
  });

  it('a throw, a wrong answer, a timeout and a cancelled turn are failed hooks: warnings, nothing blocked', async () => {
    const threw = await pre([
      fn(() => {
        throw new Error('audit log unreachable');
      }),
    ]);
    expect(threw.block).toBeUndefined();
    expect(threw.warnings).toEqual([expect.stringContaining('threw: audit log unreachable (ignored)')]);
    const wrong = await pre([fn(() => 42)]);
    expect(wrong.warnings).toEqual([expect.stringContaining('answered 42: expected nothing, a text or a decision')]);

    let sawAbort = false;
    const slow = await pre([
      fn((_p, { signal }) => new Promise<never>(() => signal.addEventListener('abort', () => (sawAbort = true))), {
        timeout: 0.05,
      }),
    ]);
    expect(slow.warnings).toEqual([expect.stringContaining('timed out after 0.05s')]);
    expect(sawAbort).toBe(true);

    const turn = new AbortController();
    const pending = pre([fn(() => new Promise<never>(() => undefined))], turn.signal);
    turn.abort();
    expect((await pending).warnings).toEqual([expect.stringContaining('was stopped: the turn was cancelled')]);
    turn.abort();
    expect((await pre([fn(() => 'never called')], turn.signal)).warnings).toEqual([
      expect.stringContaining('was not started'),
    ]);
  });
});
