// `[[hooks]]` in a real runtime: every event fires with its payload, blocking events block, JSON
// decisions change approvals, Stop keeps the turn going. Each hook appends its stdin to <event>.jsonl.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { HookEventName, HookSpec } from '../../../src/ext/hooks/hookRunner';
import { hookGateHandler } from '../../../src/engine/extensions/hookGate';
import { ProviderError, type ModelRequest } from '../../../src/llm/types';
import { builtinTools } from '../../../src/tools/registry';
import { HOOK_EVENTS } from '../../../src/store/configSchema';
import { defineTool } from '../../../src/tools/defineTool';
import { makeEngine, runPrompt, testTools, verifyEnginesAfterEach } from '../../helpers/engineHarness';

verifyEnginesAfterEach();
const logs = mkdtempSync(join(tmpdir(), 'jarvis-hook-logs-'));
afterAll(() => rmSync(logs, { recursive: true, force: true }));
let n = 0;

/** One recording hook per event (each firing writes its own file, renamed when complete); returns the hooks and a reader. */
function recorder(events: readonly HookEventName[] = HOOK_EVENTS) {
  const dir = join(logs, String(++n));
  mkdirSync(dir);
  const hooks: HookSpec[] = events.map((event) => ({
    event,
    command: `f=$(mktemp -u ${dir}/${event}.XXXXXX); cat > "$f.part" && mv "$f.part" "$f"`,
    timeout: 30,
  }));
  const read = (event: HookEventName): Array<Record<string, unknown>> =>
    readdirSync(dir)
      .filter((f) => f.startsWith(`${event}.`) && !f.endsWith('.part'))
      .map((f) => readFileSync(join(dir, f), 'utf8'))
      .filter(Boolean)
      .map((text) => JSON.parse(text));
  return { hooks, read };
}

const failing = defineTool({
  name: 'Fail',
  description: 'Always fails.',
  schema: z.object({}),
  readOnly: true,
  defaultApproval: 'auto',
  async execute() {
    return { content: 'disk on fire', isError: true };
  },
});

describe('hooks fire for every event with their payload', () => {
  it('a turn with an approved tool call: SessionStart, UserPromptSubmit, TurnStarted, PreToolUse, PermissionRequest/Result, PostToolUse, Stop, SessionEnd', async () => {
    const r = recorder();
    const h = makeEngine({
      hooks: r.hooks,
      answer: () => ({ decision: 'approve' }),
      responses: [{ toolCalls: [{ id: 'c1', name: 'Poke', arguments: { key: 'a', ms: 0 } }] }, { text: 'done' }],
    });
    await runPrompt(h, 'write a');
    await h.runtime.close();
    const base = {
      session_id: h.runtime.session.id,
      client_type: 'jarvis_code_cli',
      cwd: h.cwd,
      session_title: expect.any(String),
    };
    expect(r.read('SessionStart')).toEqual([
      { ...base, hook_event_name: 'SessionStart', source: 'startup', model: 'test', profile: 'agent' },
    ]);
    expect(r.read('UserPromptSubmit')).toEqual([
      { ...base, hook_event_name: 'UserPromptSubmit', prompt: 'write a', is_steer: false },
    ]);
    expect(r.read('TurnStarted')).toEqual([
      {
        ...base,
        hook_event_name: 'TurnStarted',
        turn_id: expect.stringMatching(/^t_/),
        origin_kind: 'user',
        origin_name: 'user',
        prompt: 'write a',
      },
    ]);
    expect(r.read('PreToolUse')).toEqual([
      {
        ...base,
        hook_event_name: 'PreToolUse',
        tool_name: 'Poke',
        tool_input: { key: 'a', ms: 0 },
        tool_call_id: 'c1',
      },
    ]);
    expect(r.read('PermissionRequest')).toEqual([
      {
        ...base,
        hook_event_name: 'PermissionRequest',
        tool_name: 'Poke',
        tool_call_id: 'c1',
        subject: `Write(${h.cwd}/a)`,
        reason: expect.any(String),
      },
    ]);
    expect(r.read('PermissionResult')).toEqual([
      {
        ...base,
        hook_event_name: 'PermissionResult',
        tool_call_id: 'c1',
        subject: `Write(${h.cwd}/a)`,
        decision: 'allow',
        decided_by: 'user',
      },
    ]);
    expect(r.read('PostToolUse')).toEqual([
      {
        ...base,
        hook_event_name: 'PostToolUse',
        tool_name: 'Poke',
        tool_input: { key: 'a', ms: 0 },
        tool_call_id: 'c1',
        tool_output: 'wrote a',
      },
    ]);
    expect(r.read('Stop')).toEqual([
      { ...base, hook_event_name: 'Stop', stop_hook_active: false, turn_id: expect.stringMatching(/^t_/) },
    ]);
    expect(r.read('SessionEnd')).toEqual([{ ...base, hook_event_name: 'SessionEnd', reason: 'exit' }]);
    for (const quiet of ['PostToolUseFailure', 'StopFailure', 'Interrupt', 'UserPromptQueued'] as const)
      expect(r.read(quiet)).toEqual([]);
  });

  it('PostToolUseFailure carries the error; tool_output is cut to 2 000 characters', async () => {
    const long = defineTool({
      name: 'Long',
      description: 'x',
      schema: z.object({}),
      readOnly: true,
      defaultApproval: 'auto',
      execute: async () => ({ content: 'y'.repeat(5000) }),
    });
    const r = recorder(['PostToolUse', 'PostToolUseFailure']);
    const h = makeEngine({
      hooks: r.hooks,
      tools: [failing, long],
      responses: [
        {
          toolCalls: [
            { id: 'f', name: 'Fail', arguments: {} },
            { id: 'l', name: 'Long', arguments: {} },
          ],
        },
        { text: 'ok' },
      ],
    });
    await runPrompt(h, 'go');
    await h.runtime.close();
    expect(r.read('PostToolUseFailure')).toEqual([
      expect.objectContaining({
        tool_name: 'Fail',
        tool_call_id: 'f',
        error: 'disk on fire',
        tool_output: 'disk on fire',
      }),
    ]);
    expect((r.read('PostToolUse')[0].tool_output as string).length).toBe(2000);
  });

  it('StopFailure names the error kind; Interrupt fires on cancel and Stop does not', async () => {
    const r = recorder(['StopFailure', 'Stop', 'Interrupt']);
    const failed = makeEngine({
      hooks: r.hooks,
      maxAttempts: 1,
      responses: [{ error: new ProviderError('rate_limit', '429 Too Many Requests', { status: 429 }) }],
    });
    await runPrompt(failed, 'x');
    await failed.runtime.close();
    expect(r.read('StopFailure')).toEqual([
      expect.objectContaining({ hook_event_name: 'StopFailure', error: expect.stringMatching(/429/) }),
    ]);

    const r2 = recorder(['Stop', 'Interrupt']);
    const hung = makeEngine({ hooks: r2.hooks, responses: [{ text: 'thinking…', hangAfterText: true }] });
    hung.runtime.agent.submit({ kind: 'prompt', text: 'long task' });
    await expect.poll(() => hung.eventsOf('text_delta').length).toBeGreaterThan(0);
    hung.runtime.agent.cancel();
    await hung.runtime.agent.idle();
    await hung.runtime.close();
    expect(r2.read('Interrupt')).toEqual([expect.objectContaining({ hook_event_name: 'Interrupt', reason: 'user' })]);
    expect(r2.read('Stop')).toEqual([]);
  });

  it('UserPromptQueued fires for a prompt sent while a turn runs', async () => {
    const r = recorder(['UserPromptQueued']);
    const h = makeEngine({ hooks: r.hooks, responses: [{ text: 'busy', hangAfterText: true }] });
    h.runtime.agent.submit({ kind: 'prompt', text: 'first' });
    await expect.poll(() => h.eventsOf('text_delta').length).toBeGreaterThan(0);
    h.runtime.agent.submit({ kind: 'prompt', text: 'second' });
    h.runtime.agent.cancel(true);
    await h.runtime.agent.idle();
    await h.runtime.close();
    expect(r.read('UserPromptQueued')).toEqual([expect.objectContaining({ prompt: 'second', queue_length: 1 })]);
  });

  it('PreCompact and PostCompact around a manual compaction', async () => {
    const r = recorder(['PreCompact', 'PostCompact']);
    const h = makeEngine({ hooks: r.hooks, responses: [{ text: 'answer' }, { text: 'the summary' }] });
    await runPrompt(h, 'hello');
    await h.runtime.compaction.compact();
    await h.runtime.close();
    expect(r.read('PreCompact')).toEqual([
      expect.objectContaining({ trigger: 'manual', token_count: expect.any(Number) }),
    ]);
    expect(r.read('PostCompact')).toEqual([
      expect.objectContaining({ trigger: 'manual', estimated_token_count: expect.any(Number) }),
    ]);
  });

  it('TaskStarted and Notification follow a background task', async () => {
    const r = recorder(['TaskStarted', 'Notification']);
    const h = makeEngine({ hooks: r.hooks, responses: [] });
    const task = h.runtime.tasks.startProcess({
      command: 'true',
      cwd: h.cwd,
      description: 'quick job',
      timeoutMs: 60_000,
    });
    await expect.poll(() => h.runtime.tasks.list({}).find((t) => t.id === task.id)?.status).toBe('completed');
    await h.runtime.close();
    expect(r.read('TaskStarted')).toEqual([
      expect.objectContaining({ task_id: task.id, description: 'quick job', detached: true, kind: 'process' }),
    ]);
    expect(r.read('Notification')).toEqual([
      expect.objectContaining({ type: 'task.completed', task_id: task.id, status: 'completed' }),
    ]);
  });

  it('SubagentStart and SubagentStop fire around each subagent run with its name, prompt and response', async () => {
    const r = recorder(['SubagentStart', 'SubagentStop']);
    const h = makeEngine({
      hooks: r.hooks,
      tools: builtinTools(),
      mode: 'yolo',
      responses: (req: ModelRequest) =>
        /# Your role: subagent/.test(req.system)
          ? { text: 'found 3 callers' }
          : req.messages.some((m) => m.role === 'tool')
            ? { text: 'done' }
            : {
                toolCalls: [
                  {
                    name: 'Agent',
                    arguments: {
                      description: 'find callers',
                      prompt: 'find the callers of parse()',
                      subagent_type: 'explore',
                    },
                  },
                ],
              },
    });
    await runPrompt(h, 'delegate');
    await h.runtime.close();
    expect(r.read('SubagentStart')).toEqual([
      expect.objectContaining({
        hook_event_name: 'SubagentStart',
        agent_name: 'explore',
        prompt: 'find the callers of parse()',
      }),
    ]);
    expect(r.read('SubagentStop')).toEqual([
      expect.objectContaining({
        hook_event_name: 'SubagentStop',
        agent_name: 'explore',
        response: 'found 3 callers',
        status: 'completed',
      }),
    ]);
  });

  it('SessionHeartbeat fires on its timer only when configured', async () => {
    const r = recorder(['SessionHeartbeat']);
    const handler = hookGateHandler({
      hooks: r.hooks,
      title: () => '',
      profile: 'agent',
      warn: () => {},
      heartbeatMs: 20,
    });
    const h = makeEngine({ gateHandlers: [handler], responses: [{ text: 'x' }] });
    await runPrompt(h, 'hi');
    await expect.poll(() => r.read('SessionHeartbeat').length, { timeout: 15_000 }).toBeGreaterThan(0); // each fire spawns the hook command: slow under load
    await h.runtime.close();
    await handler.close();
    expect(r.read('SessionHeartbeat')[0]).toMatchObject({
      hook_event_name: 'SessionHeartbeat',
      uptime_ms: expect.any(Number),
    });
  });
});

describe('hooks that decide', () => {
  const hook = (event: HookEventName, command: string, matcher?: string): HookSpec => ({
    event,
    command,
    matcher,
    timeout: 30,
  });

  it('PreToolUse exit 2: the tool does not run, no approval is asked, the model reads stderr', async () => {
    const h = makeEngine({
      hooks: [hook('PreToolUse', 'echo "frozen for the release" >&2; exit 2', '^Poke$')],
      answer: () => ({ decision: 'approve' }),
      responses: [{ toolCalls: [{ id: 'c', name: 'Poke', arguments: { key: 'a', ms: 0 } }] }, { text: 'ok' }],
    });
    await runPrompt(h, 'write');
    expect(h.approvals).toEqual([]);
    expect(h.eventsOf('tool_result')[0]).toMatchObject({
      isError: true,
      text: expect.stringMatching(/was blocked before it ran: frozen for the release$/),
    });
    expect(existsSync(join(h.cwd, 'a'))).toBe(false);
  });

  it('PreToolUse JSON allow skips the question; ask asks even in yolo', async () => {
    const allow = makeEngine({
      hooks: [hook('PreToolUse', `echo '{"permissionDecision":"allow","reason":"trusted path"}'`)],
      answer: () => ({ decision: 'reject' }),
      responses: [{ toolCalls: [{ id: 'c', name: 'Poke', arguments: { key: 'a', ms: 0 } }] }, { text: 'ok' }],
    });
    await runPrompt(allow, 'write');
    expect(allow.approvals).toEqual([]);
    expect(allow.eventsOf('tool_result')[0].isError).toBe(false);

    const ask = makeEngine({
      mode: 'yolo',
      hooks: [
        hook(
          'PreToolUse',
          `echo '{"hookSpecificOutput":{"permissionDecision":"ask","permissionDecisionReason":"double-check"}}'`,
        ),
      ],
      answer: () => ({ decision: 'approve' }),
      responses: [{ toolCalls: [{ id: 'c', name: 'Poke', arguments: { key: 'a', ms: 0 } }] }, { text: 'ok' }],
    });
    await runPrompt(ask, 'write');
    expect(ask.approvals.map((a) => a.reason)).toEqual(['double-check']);
  });

  it('Stop exit 2 keeps the turn going with the reason; the next time stop_hook_active is true', async () => {
    const dir = join(logs, `stop-${++n}`);
    const command = `mkdir -p ${dir}; cat >> ${dir}/stop.jsonl; echo >> ${dir}/stop.jsonl; if [ ! -f ${dir}/once ]; then touch ${dir}/once; echo "run the tests before you finish" >&2; exit 2; fi`;
    const h = makeEngine({
      hooks: [hook('Stop', command)],
      responses: [{ text: 'all done' }, { text: 'tests pass, done' }],
    });
    const outcome = await runPrompt(h, 'fix it');
    expect(outcome.text).toBe('tests pass, done');
    expect(JSON.stringify(h.client.requests[1].messages.at(-1))).toContain('run the tests before you finish');
    const seen = readFileSync(join(dir, 'stop.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l).stop_hook_active);
    expect(seen).toEqual([false, true]);
  });

  it('UserPromptSubmit exit 2 blocks the prompt; SessionStart output reaches the model with the first prompt only', async () => {
    const blocked = makeEngine({
      hooks: [hook('UserPromptSubmit', 'echo "no secrets" >&2; exit 2', 'secret')],
      responses: [{ text: 'never' }],
    });
    const outcome = await runPrompt(blocked, 'the secret is 42');
    expect(outcome.reason).toBe('blocked');
    expect(blocked.client.requests).toEqual([]);

    const ctx = makeEngine({
      hooks: [hook('SessionStart', 'echo "Branch: main"')],
      responses: [{ text: 'a' }, { text: 'b' }],
    });
    await runPrompt(ctx, 'one');
    await runPrompt(ctx, 'two');
    expect(JSON.stringify(ctx.client.requests[0].messages.at(-1))).toContain('Branch: main');
    expect(JSON.stringify(ctx.client.requests[1].messages.at(-1))).not.toContain('Branch: main');
  });

  it('a hook that times out or crashes fails open with a warning notice', async () => {
    const h = makeEngine({
      mode: 'yolo',
      tools: testTools(),
      hooks: [hook('PreToolUse', 'kill -9 $$')],
      responses: [{ toolCalls: [{ id: 'c', name: 'Poke', arguments: { key: 'a', ms: 0 } }] }, { text: 'ok' }],
    });
    await runPrompt(h, 'write');
    expect(h.eventsOf('tool_result')[0].isError).toBe(false);
    expect(h.eventsOf('notice').map((e) => e.text)).toContainEqual(
      expect.stringMatching(/PreToolUse hook `kill -9 \$\$` was killed by SIGKILL \(ignored\)/),
    );
  });
});
