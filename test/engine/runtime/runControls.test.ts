// A headless run's controls at the engine level (engine/runtime/runControls.ts): the output schema's tool and turn
// extension and the caps reach the main agent only, end its turns the way docs/print-mode.md says, and leave a
// journal that replays to the live state (verifyEnginesAfterEach).
import { describe, expect, it } from 'vitest';
import { makeEngine, runPrompt, verifyEnginesAfterEach } from '../../helpers/engineHarness';
import { waitUntil } from '../../helpers/cli';
import { RunControls } from '../../../src/engine/runtime/runControls';
import type { ScriptedResponse } from '../../../src/llm/scriptedClient';

verifyEnginesAfterEach();

const SCHEMA = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] };
const peek: ScriptedResponse = { toolCalls: [{ name: 'Peek', arguments: { key: 'a', ms: 0 } }] };

async function engineWith(controls: RunControls, responses: ScriptedResponse[]) {
  const engine = makeEngine({
    responses,
    mode: 'auto',
    nonInteractive: true,
    mainAgent: controls.mainAgent,
    observe: (e) => controls.observe(e),
  });
  controls.attach({ agent: engine.runtime.agent, tasks: engine.runtime.tasks });
  return engine;
}

describe('run controls in the engine', () => {
  it('the output schema: the main agent is offered StructuredOutput and told the schema; a subagent is not', async () => {
    const controls = await RunControls.open({ outputSchema: { schema: SCHEMA } });
    const engine = await engineWith(controls, [{ toolCalls: [{ name: 'StructuredOutput', arguments: { ok: true } }] }]);
    expect(engine.runtime.agent.tools.map((t) => t.name)).toContain('StructuredOutput');
    const child = engine.runtime.agents.spawn({ systemPrompt: 'child' });
    expect(child.tools.map((t) => t.name)).not.toContain('StructuredOutput');
    const outcome = await runPrompt(engine, 'is it ok?');
    expect(outcome.reason).toBe('completed');
    expect(controls.structuredOutput()).toEqual({ value: { ok: true } });
    expect(controls.verdict(true)).toBeUndefined();
    expect(engine.client.requests).toHaveLength(1);
    const prompt = engine.client.requests[0].messages.at(-1)!;
    expect(JSON.stringify(prompt)).toContain('\\"required\\": [\\n    \\"ok\\"');
    await engine.runtime.agents.release(child.id);
    controls.close();
  });

  it('an answer that never fits: the turn fails after the bound, and the verdict is schema_failed', async () => {
    const controls = await RunControls.open({ outputSchema: { schema: SCHEMA, maxRetries: 1 } });
    const engine = await engineWith(controls, [{ text: 'yes' }, { text: '{"ok": "yes"}' }, { text: 'unused' }]);
    const outcome = await runPrompt(engine, 'is it ok?');
    expect(outcome).toMatchObject({ reason: 'failed' });
    expect(outcome.error).toContain('after 2 answers');
    expect(controls.verdict(false)).toMatchObject({
      outcome: 'schema_failed',
      schemaErrors: ['/ok: must be boolean'],
    });
    expect(engine.client.requests).toHaveLength(2);
    controls.close();
  });

  it('--max-turns: the turn ends before the request past the cap, after the last response’s tools ran', async () => {
    const controls = await RunControls.open({ maxTurns: 2 });
    const engine = await engineWith(controls, [peek, peek, peek]);
    const outcome = await runPrompt(engine, 'peek');
    expect(outcome).toMatchObject({
      reason: 'max_turns',
      error: 'The run stopped after 2 model turns (--max-turns 2).',
    });
    expect(engine.client.requests).toHaveLength(2);
    expect(engine.eventsOf('tool_result')).toHaveLength(2);
    expect(controls.verdict(false)).toMatchObject({ outcome: 'max_turns', cap: { limit: 2, used: 2 } });
    expect(controls.signal.aborted).toBe(true);
    // A later turn of the same run (a notification) ends before its first request.
    const again = await runPrompt(engine, 'more');
    expect(again.reason).toBe('max_turns');
    expect(engine.client.requests).toHaveLength(2);
    controls.close();
  });

  it('--max-budget-usd: a reported cost past the budget stops the running turn at once', async () => {
    const controls = await RunControls.open({ maxBudgetUsd: 1 });
    const usage = { inputTokens: 10, outputTokens: 1, costUsd: 0.6 };
    const engine = await engineWith(controls, [
      { ...peek, usage },
      { ...peek, usage },
      { text: 'never', usage },
    ]);
    const outcome = await runPrompt(engine, 'peek');
    expect(outcome.reason).toBe('budget_exceeded');
    expect(controls.verdict(false)).toMatchObject({ outcome: 'budget_exceeded', cap: { limit: 1, used: 1.2 } });
    // The second response's call never ran.
    expect(engine.eventsOf('tool_result')).toHaveLength(1);
    controls.close();
  });

  it('--timeout: a response that never ends is stopped, and the turn ends with timeout', async () => {
    const controls = await RunControls.open({ timeoutMs: 50 });
    const engine = makeEngine({
      responses: [{ text: 'thinking about it', hangAfterText: true }],
      mode: 'auto',
      nonInteractive: true,
      mainAgent: controls.mainAgent,
      observe: (e) => controls.observe(e),
    });
    engine.runtime.agent.submit({ kind: 'prompt', text: 'wait' });
    // The clock is attached once the response is streaming, so the stop always lands in the middle of it.
    await waitUntil(() => engine.eventsOf('text_delta').length > 0, 10_000, 'the response to start');
    controls.attach({ agent: engine.runtime.agent, tasks: engine.runtime.tasks });
    const [outcome] = await engine.runtime.agent.idle();
    expect(outcome.reason).toBe('timeout');
    expect(controls.verdict(false)).toMatchObject({ outcome: 'timeout', cap: { name: 'timeout', limit: 50 } });
    // The partial text is journalled, and the model is told why the run stopped.
    const messages = engine.runtime.session.state.messages;
    expect(messages.at(-2)).toMatchObject({ role: 'assistant', text: 'thinking about it' });
    expect(JSON.stringify(messages.at(-1))).toContain('--timeout 50ms');
    controls.close();
  });
});
