import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HOOK_EVENTS } from '../../../src/store/configSchema';
import { runHooks, type HookEventName, type HookSpec } from '../../../src/ext/hooks/hookRunner';

const dir = mkdtempSync(join(tmpdir(), 'jarvis-hooks-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const session = { sessionId: 'sess-1', sessionTitle: 'A title', cwd: dir };
let n = 0;
const file = (name: string) => join(dir, `${++n}-${name}`);
const hook = (event: HookEventName, command: string, extra: Partial<HookSpec> = {}): HookSpec => ({
  event,
  command,
  timeout: 30,
  ...extra,
});

describe('hook runner: payload and matching', () => {
  it.each(HOOK_EVENTS.map((e) => [e]))(
    '%s: the payload reaches stdin with the base fields and the event fields',
    async (event) => {
      const out = file('payload.json');
      const r = await runHooks(
        [hook(event, `cat > ${out}`)],
        event,
        'subject',
        { tool_name: 'Bash', extra: [1, 2] },
        { session },
      );
      expect(r.warnings).toEqual([]);
      expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual({
        hook_event_name: event,
        session_id: 'sess-1',
        session_title: 'A title',
        client_type: 'jarvis_code_cli',
        cwd: dir,
        tool_name: 'Bash',
        extra: [1, 2],
      });
    },
  );

  it('runs in the project directory, with JARVIS_PROJECT_DIR and a hook-specific environment', async () => {
    const out = file('env');
    await runHooks(
      [hook('Stop', `printf '%s|%s|%s' "$PWD" "$JARVIS_PROJECT_DIR" "$EXTRA" > ${out}`, { env: { EXTRA: 'x' } })],
      'Stop',
      '',
      {},
      { session },
    );
    expect(readFileSync(out, 'utf8')).toBe(`${dir}|${dir}|x`);
  });

  it('the matcher is a regular expression searched in the subject; an absent matcher matches everything; other events never run', async () => {
    const marks = ['a', 'b', 'c', 'd'].map((m) => file(m));
    await runHooks(
      [
        hook('PreToolUse', `touch ${marks[0]}`, { matcher: '^(Bash|Write)$' }),
        hook('PreToolUse', `touch ${marks[1]}`, { matcher: 'Read' }),
        hook('PreToolUse', `touch ${marks[2]}`),
        hook('PostToolUse', `touch ${marks[3]}`),
      ],
      'PreToolUse',
      'Bash',
      {},
      { session },
    );
    expect(marks.map((m) => existsSync(m))).toEqual([true, false, true, false]);
  });
});

describe('hook runner: exit codes', () => {
  it('exit 0 allows', async () => {
    const r = await runHooks([hook('PreToolUse', 'exit 0')], 'PreToolUse', 'Bash', {}, { session });
    expect([r.block, r.decision, r.warnings]).toEqual([undefined, undefined, []]);
  });

  it.each(['PreToolUse', 'UserPromptSubmit', 'Stop'] as const)(
    'exit 2 blocks %s with stderr as the reason',
    async (event) => {
      const r = await runHooks([hook(event, 'echo "no rm -rf here" >&2; exit 2')], event, '', {}, { session });
      expect(r.block).toBe('no rm -rf here');
    },
  );

  it('exit 2 without stderr still blocks, with a reason that names the hook', async () => {
    const r = await runHooks([hook('PreToolUse', 'exit 2')], 'PreToolUse', 'Bash', {}, { session });
    expect(r.block).toMatch(/blocked by PreToolUse hook `exit 2`/);
  });

  it('exit 2 on an event that cannot block is a warning, not a block', async () => {
    const r = await runHooks([hook('PostToolUse', 'echo nope >&2; exit 2')], 'PostToolUse', 'Bash', {}, { session });
    expect(r.block).toBeUndefined();
    expect(r.warnings[0]).toMatch(/PostToolUse cannot be blocked/);
  });

  it('any other exit code fails open with a warning carrying the first stderr line', async () => {
    const r = await runHooks(
      [hook('PreToolUse', 'echo "linter broke" >&2; exit 1', { origin: 'config.toml' })],
      'PreToolUse',
      'Bash',
      {},
      { session },
    );
    expect(r.block).toBeUndefined();
    expect(r.warnings).toEqual([
      'PreToolUse hook `echo "linter broke" >&2; exit 1` (config.toml) exited 1: linter broke (ignored)',
    ]);
  });

  it('a command that does not exist fails open (exit 127)', async () => {
    const r = await runHooks(
      [hook('PreToolUse', 'definitely-not-a-command-xyz')],
      'PreToolUse',
      'Bash',
      {},
      { session },
    );
    expect(r.block).toBeUndefined();
    expect(r.warnings[0]).toMatch(/exited 127: .*not found/);
  });

  it('a hook that crashes (killed by a signal) fails open', async () => {
    const r = await runHooks([hook('PreToolUse', 'kill -9 $$')], 'PreToolUse', 'Bash', {}, { session });
    expect(r.block).toBeUndefined();
    expect(r.warnings[0]).toMatch(/was killed by SIGKILL \(ignored\)/);
  });

  it('a hook that does not read its stdin is fine', async () => {
    const big = 'x'.repeat(1_000_000);
    const r = await runHooks([hook('PreToolUse', 'exit 0')], 'PreToolUse', 'Bash', { tool_input: big }, { session });
    expect(r.warnings).toEqual([]);
  });
});

describe('hook runner: JSON decisions on stdout', () => {
  const json = (v: unknown) => `printf '%s' '${JSON.stringify(v)}'`;

  it.each([
    [{ permissionDecision: 'deny', reason: 'flat form' }, 'flat form'],
    [{ hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'nested form' } }, 'nested form'],
    [{ decision: 'block', reason: 'block form' }, 'block form'],
  ])('%j blocks', async (answer, reason) => {
    const r = await runHooks([hook('PreToolUse', json(answer))], 'PreToolUse', 'Bash', {}, { session });
    expect(r.block).toBe(reason);
  });

  it('allow and ask rewrite the approval; ask is stricter than allow; a deny from any hook wins', async () => {
    const allow = await runHooks(
      [hook('PreToolUse', json({ permissionDecision: 'allow', reason: 'safe' }))],
      'PreToolUse',
      'Bash',
      {},
      { session },
    );
    expect(allow.decision).toEqual({ permissionDecision: 'allow', reason: 'safe' });
    const both = await runHooks(
      [
        hook('PreToolUse', json({ permissionDecision: 'allow' })),
        hook('PreToolUse', json({ permissionDecision: 'ask', reason: 'check' })),
      ],
      'PreToolUse',
      'Bash',
      {},
      { session },
    );
    expect(both.decision).toEqual({ permissionDecision: 'ask', reason: 'check' });
    const deny = await runHooks(
      [
        hook('PreToolUse', json({ permissionDecision: 'allow' })),
        hook('PreToolUse', json({ permissionDecision: 'deny', reason: 'no' })),
      ],
      'PreToolUse',
      'Bash',
      {},
      { session },
    );
    expect([deny.block, deny.decision]).toEqual(['no', undefined]);
  });

  it('an unknown decision or broken JSON is a warning and allows', async () => {
    const odd = await runHooks(
      [hook('PreToolUse', json({ permissionDecision: 'maybe' }))],
      'PreToolUse',
      'Bash',
      {},
      { session },
    );
    expect(odd.block).toBeUndefined();
    expect(odd.warnings[0]).toMatch(/permissionDecision "maybe" is not "allow", "deny" or "ask"/);
    const broken = await runHooks(
      [hook('PreToolUse', `printf '{"permissionDecision": "deny"'`)],
      'PreToolUse',
      'Bash',
      {},
      { session },
    );
    expect(broken.block).toBeUndefined();
    expect(broken.warnings[0]).toMatch(/starts like JSON but does not parse/);
  });

  it('UserPromptSubmit and SessionStart stdout becomes context (plain or additionalContext); other events ignore stdout', async () => {
    const prompt = await runHooks(
      [
        hook('UserPromptSubmit', 'echo "Branch: main"'),
        hook('UserPromptSubmit', json({ hookSpecificOutput: { additionalContext: 'Ticket: 42' } })),
      ],
      'UserPromptSubmit',
      'hi',
      {},
      { session },
    );
    expect(prompt.context).toEqual(['Branch: main', 'Ticket: 42']);
    const start = await runHooks([hook('SessionStart', 'echo ready')], 'SessionStart', 'startup', {}, { session });
    expect(start.context).toEqual(['ready']);
    const post = await runHooks([hook('PostToolUse', 'echo ignored')], 'PostToolUse', 'Bash', {}, { session });
    expect(post.context).toEqual([]);
  });
});

describe('hook runner: timeouts, parallelism, dedupe', () => {
  it('a hook past its timeout gets SIGTERM, then SIGKILL when it ignores it, and fails open', async () => {
    // 5 s: on a loaded machine a shell can take seconds to reach its trap and touch (measured: > 3 s at load 9 on 2 cores).
    const started = file('started');
    const r = await runHooks(
      [hook('PreToolUse', `trap '' TERM; touch ${started}; while :; do sleep 0.05; done`, { timeout: 5 })],
      'PreToolUse',
      'Bash',
      {},
      { session, killGraceMs: 200 },
    );
    expect(existsSync(started)).toBe(true);
    expect(r.block).toBeUndefined();
    expect(r.runs[0].timedOut).toBe(true);
    expect(r.warnings[0]).toMatch(/timed out after 5s and was stopped \(ignored\)/);
  });

  it('a timed-out hook takes the processes it started with it (own process group)', async () => {
    const pidFile = file('child.pid');
    // 5 s, so that the shell surely wrote the pid on a loaded machine before it is stopped.
    await runHooks(
      [hook('Stop', `sleep 300 & echo $! > ${pidFile}; wait`, { timeout: 5 })],
      'Stop',
      '',
      {},
      { session, killGraceMs: 200 },
    );
    const pid = Number(readFileSync(pidFile, 'utf8'));
    // Gone, or a zombie waiting to be reaped by init (it no longer runs).
    const running = () => {
      try {
        return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
      } catch {
        return false;
      }
    };
    await expect.poll(running).toBe(false);
  });

  it('matching hooks run in parallel: two hooks that each wait for the other both finish', async () => {
    const [a, b] = [file('a'), file('b')];
    const wait = (mine: string, other: string) => `touch ${mine}; while [ ! -f ${other} ]; do sleep 0.02; done`;
    const r = await runHooks(
      [hook('PreToolUse', wait(a, b), { timeout: 20 }), hook('PreToolUse', wait(b, a), { timeout: 20 })],
      'PreToolUse',
      'Bash',
      {},
      { session },
    );
    expect(r.runs.map((x) => [x.exitCode, x.timedOut])).toEqual([
      [0, false],
      [0, false],
    ]);
  });

  it('identical commands run once; different ones each run', async () => {
    const log = file('log');
    writeFileSync(log, '');
    const r = await runHooks(
      [
        hook('PreToolUse', `echo one >> ${log}`),
        hook('PreToolUse', `echo one >> ${log}`, { matcher: 'Bash' }),
        hook('PreToolUse', `echo two >> ${log}`),
      ],
      'PreToolUse',
      'Bash',
      {},
      { session },
    );
    expect(r.runs).toHaveLength(2);
    expect(readFileSync(log, 'utf8').split('\n').filter(Boolean).sort()).toEqual(['one', 'two']);
  });

  it('a cancelled turn stops its running hooks', async () => {
    const started = file('started');
    const controller = new AbortController();
    const pending = runHooks(
      [hook('PreToolUse', `touch ${started}; sleep 300`)],
      'PreToolUse',
      'Bash',
      {},
      { session, signal: controller.signal, killGraceMs: 200 },
    );
    await expect.poll(() => existsSync(started), { timeout: 15_000 }).toBe(true);
    controller.abort();
    const r = await pending;
    expect(r.block).toBeUndefined();
    expect(r.warnings[0]).toMatch(/turn was cancelled/);
  });
});
