import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GoalDriver } from '../../../src/engine/background/goalDriver';
import { GoalController, parseGoalCommand, UPCOMING_GOALS_FILE } from '../../../src/engine/background/goals';
import type { Agent, StepRequest, TurnOutcome } from '../../../src/engine/loop/loop';
import { Session } from '../../../src/engine/session/session';
import type { ScriptedResponse } from '../../../src/llm/scriptedClient';
import { ProviderError, type Message } from '../../../src/llm/types';
import { goalTools } from '../../../src/tools/goal';
import { makeEngine, verifyEnginesAfterEach, skipReplayCheck } from '../../helpers/engineHarness';

verifyEnginesAfterEach();

const call = (name: string, args: Record<string, unknown> = {}): ScriptedResponse => ({
  toolCalls: [{ name, arguments: args }],
});
const textOf = (m: Message) =>
  m.role === 'user' ? m.content.map((p) => (p.type === 'text' ? p.text : '')).join('') : '';

function goalEngine(
  responses: ScriptedResponse[] | ((req: unknown, i: number) => ScriptedResponse),
  extra: Parameters<typeof makeEngine>[0] extends infer O ? Partial<O> : never = {},
) {
  return makeEngine({ responses: responses as ScriptedResponse[], tools: goalTools, ...extra });
}

describe('goal driver', () => {
  it('a scripted goal run continues turn after turn until the agent completes it', async () => {
    const engine = goalEngine([
      { text: 'Started: wrote the failing test.' },
      { text: 'Made it pass; now checking the rest.' },
      call('UpdateGoal', { status: 'complete', summary: 'All 12 tests pass.' }),
      { text: 'Done: all tests pass.' },
    ]);
    expect(engine.runtime.goals.start('Make the test suite pass')).toEqual({ ok: true, message: 'Goal started.' });
    const outcomes = await engine.runtime.agent.idle();
    expect(outcomes.map((o) => o.reason)).toEqual(['completed', 'completed', 'completed']);
    const starts = engine.eventsOf('turn_start');
    expect(starts.map((e) => e.origin)).toEqual(['user', 'system', 'system']);
    expect(starts[0].prompt).toBe('Make the test suite pass');
    expect(starts[1].prompt).toContain('Continue working toward the goal');
    const goal = engine.runtime.goals.current()!;
    expect(goal).toMatchObject({ status: 'complete', reason: 'All 12 tests pass.', used: { turns: 3, tokens: 40 } });
    // The goal is injected once per turn, at its first step only.
    const injected = engine.client.requests[3].messages.filter((m) => textOf(m).includes('<goal-mode>'));
    expect(injected).toHaveLength(3);
    expect(textOf(injected[0])).toContain('Objective: Make the test suite pass');
    expect(engine.eventsOf('goal').map((e) => e.change)).toEqual([
      'created',
      'progress',
      'progress',
      'status',
      'progress',
    ]);
  });

  it('a turn budget blocks the goal; from 75 % the continuation asks to wrap up', async () => {
    const engine = goalEngine([
      call('CreateGoal', { objective: 'Refactor the parser', completionCriterion: 'tests pass' }),
      call('SetGoalBudget', { value: 4, unit: 'turns' }),
      { text: 'turn 1 done' },
      { text: 'turn 2 done' },
      { text: 'turn 3 done' },
      { text: 'turn 4 done' },
    ]);
    engine.runtime.agent.submit({ kind: 'prompt', text: 'refactor the parser, stop after 4 turns' });
    const outcomes = await engine.runtime.agent.idle();
    expect(outcomes).toHaveLength(4);
    const goal = engine.runtime.goals.current()!;
    expect(goal).toMatchObject({ status: 'blocked', reason: 'budget reached: 4 of 4 turns used', used: { turns: 4 } });
    const prompts = engine.eventsOf('turn_start').map((e) => e.prompt);
    expect(prompts[1]).toContain('Continue working');
    expect(prompts[2]).toContain('Continue working');
    expect(prompts[3]).toContain('Wrap up now');
    expect(engine.runtime.goals.resume()).toMatchObject({
      ok: false,
      message: expect.stringContaining('budget reached'),
    });
  });

  it('a token budget counts completion tokens', async () => {
    const engine = goalEngine([
      call('CreateGoal', { objective: 'Write docs' }),
      call('SetGoalBudget', { value: 35, unit: 'tokens' }),
      { text: 'first part', usage: { inputTokens: 100, outputTokens: 10 } },
      { text: 'second part', usage: { inputTokens: 100, outputTokens: 10 } },
    ]);
    engine.runtime.agent.submit({ kind: 'prompt', text: 'write docs' });
    await engine.runtime.agent.idle();
    expect(engine.runtime.goals.current()).toMatchObject({
      status: 'blocked',
      used: { turns: 2, tokens: 40 },
      reason: 'budget reached: 40 of 35 tokens used',
    });
    // The starting turn (3 responses × 10 tokens) counts too.
    expect(engine.eventsOf('goal').find((e) => e.change === 'progress')?.goal?.used.tokens).toBe(30);
  });

  it('blocked needs the same blocker on 3 consecutive goal turns', async () => {
    const blocked = call('UpdateGoal', { status: 'blocked', blocker: 'The API key is missing' });
    const engine = goalEngine([
      call('CreateGoal', { objective: 'Deploy' }),
      blocked,
      { text: 'trying another way' },
      call('UpdateGoal', { status: 'blocked', blocker: 'the API key  is MISSING' }),
      { text: 'still stuck' },
      blocked,
      { text: 'blocked for real' },
    ]);
    engine.runtime.agent.submit({ kind: 'prompt', text: 'deploy it' });
    await engine.runtime.agent.idle();
    const results = engine.eventsOf('tool_result').filter((r) => r.toolName === 'UpdateGoal');
    expect(results.map((r) => r.isError)).toEqual([true, true, false]);
    expect(results[0].text).toContain('1 of 3');
    expect(results[1].text).toContain('2 of 3');
    expect(engine.runtime.goals.current()).toMatchObject({
      status: 'blocked',
      reason: 'The API key is missing',
      used: { turns: 3 },
    });
  });

  it('a blocker streak restarts after a goal turn without it', async () => {
    const blocked = call('UpdateGoal', { status: 'blocked', blocker: 'no network' });
    const engine = goalEngine([
      call('CreateGoal', { objective: 'Sync' }),
      blocked,
      { text: '1' },
      { text: '2 (no report)' },
      blocked,
      { text: '3' },
      call('UpdateGoal', { status: 'complete', summary: 'synced' }),
      { text: 'done' },
    ]);
    engine.runtime.agent.submit({ kind: 'prompt', text: 'sync' });
    await engine.runtime.agent.idle();
    const results = engine.eventsOf('tool_result').filter((r) => r.toolName === 'UpdateGoal');
    expect(results[1].text).toContain('1 of 3');
    expect(engine.runtime.goals.current()?.status).toBe('complete');
  });

  it('an interrupt pauses the goal; /goal resume continues it', async () => {
    const engine = goalEngine([
      { text: 'working…', hangAfterText: true },
      { text: 'resumed' },
      call('UpdateGoal', { status: 'complete', summary: 'ok' }),
      { text: 'done' },
    ]);
    engine.runtime.goals.start('Long task');
    while (!engine.eventsOf('text_delta').length) await new Promise((r) => setTimeout(r, 5));
    engine.runtime.agent.cancel();
    await engine.runtime.agent.idle();
    expect(engine.runtime.goals.current()).toMatchObject({
      status: 'paused',
      reason: 'paused: the turn was interrupted',
      used: { turns: 1 },
    });
    expect(engine.runtime.goals.resume()).toEqual({ ok: true, message: 'Goal resumed.' });
    await engine.runtime.agent.idle();
    expect(engine.runtime.goals.current()).toMatchObject({ status: 'complete', used: { turns: 3 } });
    expect(engine.eventsOf('turn_start')[1].origin).toBe('system');
  });

  it('a provider error pauses the goal', async () => {
    const engine = goalEngine([{ error: new ProviderError('auth', 'invalid api key') }], { maxAttempts: 1 });
    engine.runtime.goals.start('Anything');
    const [outcome] = await engine.runtime.agent.idle();
    expect(outcome.reason).toBe('failed');
    expect(engine.runtime.goals.current()).toMatchObject({
      status: 'paused',
      reason: expect.stringContaining('invalid api key'),
    });
  });

  it('resuming a session with an active goal pauses it', async () => {
    const engine = goalEngine([
      call('CreateGoal', { objective: 'Keep going' }),
      { text: 'step' },
      { text: 'never reached', hangAfterText: true },
    ]);
    engine.runtime.agent.submit({ kind: 'prompt', text: 'go' });
    while (engine.eventsOf('turn_start').length < 2) await new Promise((r) => setTimeout(r, 5));
    // Simulate a process that stops while the goal is active: reopen from disk.
    const reopened = makeEngine({
      responses: [],
      tools: goalTools,
      resume: engine.runtime.session.location,
      dirs: { home: engine.home, cwd: engine.cwd },
    });
    expect(reopened.runtime.goals.current()).toMatchObject({ status: 'paused', reason: 'the session was resumed' });
    reopened.expectReplayIdentical();
    // Both engines now write the one journal, so neither's memory matches it afterwards.
    skipReplayCheck(engine, reopened);
    engine.runtime.agent.cancel();
    await engine.runtime.agent.idle();
    await reopened.runtime.close({ force: true });
  });

  it('a goal whose turns only talk pauses for "no progress" after max_idle_turns turns', async () => {
    const engine = goalEngine(
      [
        { text: 'Thinking about it.' },
        { text: 'Still thinking.' },
        call('GetGoal'),
        { text: 'Hmm.' },
        { text: 'Well.' },
        { text: 'Maybe.' },
        { text: 'never' },
      ],
      { goal: { maxIdleTurns: 2 } },
    );
    engine.runtime.goals.start('Write the parser');
    const outcomes = await engine.runtime.agent.idle();
    // Two text-only turns → paused.
    expect(outcomes).toHaveLength(2);
    expect(engine.runtime.goals.current()).toMatchObject({
      status: 'paused',
      reason: 'no progress: 2 goal turns in a row without a tool call ([goal] max_idle_turns)',
    });
    // /goal resume starts afresh: a turn with a tool call in between resets the count.
    expect(engine.runtime.goals.resume()).toMatchObject({ ok: true });
    await engine.runtime.agent.idle();
    expect(engine.client.requests).toHaveLength(6);
    expect(engine.runtime.goals.current()).toMatchObject({
      status: 'paused',
      reason: expect.stringMatching(/^no progress: 2 goal turns/),
    });
  });

  it('the same final answer twice in a row pauses the goal, even with tool calls in between', async () => {
    const engine = goalEngine([
      call('GetGoal'),
      { text: 'Working on it.' },
      call('GetGoal'),
      { text: 'Working on it.' },
      { text: 'never' },
    ]);
    engine.runtime.goals.start('Write the parser');
    await engine.runtime.agent.idle();
    expect(engine.runtime.goals.current()).toMatchObject({
      status: 'paused',
      reason: 'no progress: the model gave the same answer two turns in a row',
    });
    expect(engine.client.requests).toHaveLength(4);
  });

  it('a time budget is booked from the turn clock', () => {
    const session = makeEngine({ responses: [] });
    const goals = new GoalController(session.runtime.session, () => {});
    let now = 0;
    const driver = new GoalDriver(session.runtime.session, goals, () => now);
    goals.create({ objective: 'timed', replace: false });
    goals.setBudget('timeMs', 2_000);
    const submitted: StepRequest[] = [];
    const agent = { submit: (r: StepRequest) => submitted.push(r) } as unknown as Agent;
    const turn = (id: string, ms: number) => {
      session.runtime.session.commit({ type: 'turn_start', turnId: id, origin: 'user', prompt: 'x' });
      driver.extension.beforeStep!(agent, new AbortController().signal);
      now += ms;
      session.runtime.session.commit({ type: 'turn_end', turnId: id, reason: 'completed' });
      const outcome: TurnOutcome = { turnId: id, reason: 'completed', text: '', toolCalls: 1 };
      return driver.extension.afterTurn!(agent, outcome);
    };
    void turn('t1', 1_500);
    expect(goals.current()).toMatchObject({ status: 'active', used: { timeMs: 1_500 } });
    expect((submitted[0] as { text: string }).text).toContain('Wrap up now');
    void turn('t2', 600);
    expect(goals.current()).toMatchObject({ status: 'blocked', reason: 'budget reached: 2100 of 2000 ms used' });
    expect(submitted).toHaveLength(1);
  });
});

describe('/goal API', () => {
  it.each<[string, ReturnType<typeof parseGoalCommand>]>([
    ['/goal', { kind: 'status' }],
    ['/goal status', { kind: 'status' }],
    ['/goal pause', { kind: 'pause' }],
    ['/goal resume', { kind: 'resume' }],
    ['/goal cancel', { kind: 'cancel' }],
    ['/goal next manage', { kind: 'next_manage' }],
    ['/goal Fix the status bar', { kind: 'create', objective: 'Fix the status bar' }],
    ['/goal -- status report for every module', { kind: 'create', objective: 'status report for every module' }],
    ['/goal replace Ship v2', { kind: 'replace', objective: 'Ship v2' }],
    ['/goal next Write docs', { kind: 'next', objective: 'Write docs' }],
    ['/goal next -- manage the queue', { kind: 'next', objective: 'manage the queue' }],
    ['/goal pause now', { kind: 'invalid', message: expect.stringContaining('/goal -- pause now') }],
    ['/goal replace', { kind: 'invalid', message: '/goal replace needs an objective.' }],
    ['/goals', undefined],
    ['fix /goal', undefined],
  ])('parses %j', (input, expected) => {
    expect(parseGoalCommand(input)).toEqual(expected);
  });

  it('status, pause, cancel and replace; objective limit', async () => {
    const engine = goalEngine([
      { text: 'a' },
      { text: 'b', hangAfterText: true },
      { text: 'replaced' },
      call('UpdateGoal', { status: 'complete', summary: 's' }),
      { text: 'fin' },
    ]);
    const goals = engine.runtime.goals;
    expect(goals.run({ kind: 'status' })).toEqual({ ok: true, message: 'No goal.' });
    expect(goals.start('x'.repeat(4001)).ok).toBe(false);
    expect(goals.pause().ok).toBe(false);
    goals.start('First objective');
    expect(goals.start('Another').message).toContain('/goal replace');
    while (engine.eventsOf('turn_start').length < 2) await new Promise((r) => setTimeout(r, 5));
    expect(goals.run({ kind: 'pause' })).toEqual({ ok: true, message: 'Goal paused. /goal resume continues it.' });
    expect(goals.replace('Second objective').ok).toBe(false); // idle only
    expect(goals.resume().ok).toBe(false); // idle only
    engine.runtime.agent.cancel();
    await engine.runtime.agent.idle();
    expect(goals.status().text).toMatch(/^Goal paused \(paused by the user\): First objective\nUsed: 2 turns/);
    expect(goals.replace('Second objective')).toEqual({ ok: true, message: 'Goal replaced.' });
    await engine.runtime.agent.idle();
    expect(goals.current()).toMatchObject({ objective: 'Second objective', status: 'complete', used: { turns: 2 } });
    expect(goals.cancel()).toEqual({ ok: true, message: 'Goal cancelled.' });
    expect(goals.current()).toBeUndefined();
    expect(engine.eventsOf('goal').at(-1)).toEqual({ type: 'goal', change: 'cancelled', goal: null, agentId: 'main' });
  });

  it('an unreadable upcoming-goals.json is kept aside, not overwritten; the next queue change says so', async () => {
    const done = (n: number) => [
      call('UpdateGoal', { status: 'complete', summary: `goal ${n} done` }),
      { text: `finished ${n}` },
    ];
    const engine = goalEngine([...done(1), ...done(2), ...done(3)]);
    const goals = engine.runtime.goals;
    expect(goals.next('First').ok).toBe(true);
    const file = join(engine.runtime.session.dir, UPCOMING_GOALS_FILE);
    writeFileSync(file, '["Second", "Thi');
    const queued = goals.next('Fourth');
    expect(queued.message).toMatch(/^Queued as upcoming goal 1; .* Note: the earlier queue in .* could not be read \(/);
    const aside = /it was kept as (\S+)\.$/.exec(queued.message)?.[1];
    expect(aside && readFileSync(aside, 'utf8')).toBe('["Second", "Thi');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(['Fourth']);
    expect(goals.next('Fifth').message).not.toContain('Note:');
    await engine.runtime.agent.idle();
    expect(goals.current()).toMatchObject({ objective: 'Fifth', status: 'complete' });
  });

  it('next queues an upcoming goal in upcoming-goals.json and starts it when the current one completes', async () => {
    const engine = goalEngine([
      call('UpdateGoal', { status: 'complete', summary: 'first done' }),
      { text: 'first finished' },
      call('UpdateGoal', { status: 'complete', summary: 'second done' }),
      { text: 'second finished' },
    ]);
    const goals = engine.runtime.goals;
    expect(goals.next('First')).toEqual({ ok: true, message: 'Goal started.' });
    expect(goals.next('Second').message).toContain('Queued as upcoming goal 1');
    expect(goals.next('Third').message).toContain('upcoming goal 2');
    const file = join(engine.runtime.session.dir, UPCOMING_GOALS_FILE);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(['Second', 'Third']);
    expect(goals.run({ kind: 'next_manage' }).message).toBe('1. Second\n2. Third');
    expect(goals.setUpcoming(['Second']).ok).toBe(true);
    expect(goals.setUpcoming(['']).ok).toBe(false);
    await engine.runtime.agent.idle();
    expect(goals.current()).toMatchObject({ objective: 'Second', status: 'complete' });
    expect(goals.upcoming()).toEqual([]);
    expect(existsSync(file)).toBe(true);
    // The queue is invisible to the agent.
    expect(JSON.stringify(engine.client.requests.map((r) => r.messages))).not.toContain('Third');
  });

  it('a paused, cancelled or blocked goal does not start the queue', async () => {
    const engine = goalEngine([
      call('UpdateGoal', { status: 'blocked', blocker: 'x', reason: 'impossible' }),
      { text: 'blocked' },
    ]);
    const goals = engine.runtime.goals;
    goals.start('First');
    goals.next('Queued');
    await engine.runtime.agent.idle();
    expect(goals.current()?.status).toBe('blocked');
    expect(goals.upcoming()).toEqual(['Queued']);
    expect(goals.status().text).toContain('1 upcoming goal(s) queued');
  });

  it('the goal state is rebuilt identically from the journal', async () => {
    const engine = goalEngine([
      call('CreateGoal', { objective: 'o' }),
      call('SetGoalBudget', { value: 2, unit: 'turns' }),
      { text: '1' },
      { text: '2' },
    ]);
    engine.runtime.agent.submit({ kind: 'prompt', text: 'go' });
    await engine.runtime.agent.idle();
    const reopened = Session.open(engine.runtime.session.location);
    expect(reopened.state.goal).toEqual(engine.runtime.session.state.goal);
    expect(reopened.state.goal?.status).toBe('blocked');
  });
});
