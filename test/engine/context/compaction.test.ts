import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { chooseCut, CompactionError } from '../../../src/engine/context/compaction';
import type { JournalRecord } from '../../../src/engine/session/records';
import { Session } from '../../../src/engine/session/session';
import type { Message, ModelRequest } from '../../../src/llm/types';
import { ProviderError } from '../../../src/llm/types';
import { estimateRequestTokens } from '../../../src/llm/tokens';
import { makeEngine, type EngineHarness, runPrompt } from '../../helpers/engineHarness';

let h: EngineHarness | undefined;
afterEach(async () => {
  if (h) {
    h.expectReplayIdentical();
    await h.runtime.close({ force: true });
  }
  h = undefined;
});

const SMALL_WINDOW = { maxContextSize: 10_000 };
const overflow = () =>
  new ProviderError('context_overflow', 'prompt is too long: 12000 tokens > 10000 maximum', { status: 400 });

function requestText(r: ModelRequest): string {
  return JSON.stringify(r.messages);
}
function firstText(m: Message): string {
  return m.role === 'assistant' ? m.text : m.content.map((p) => (p.type === 'text' ? p.text : '')).join('\n');
}
function journal(engine: EngineHarness): JournalRecord[] {
  return readFileSync(engine.runtime.session.journalPath, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as JournalRecord);
}
const prompt = runPrompt;

describe('automatic compaction', () => {
  it('triggers at the ratio; the next request carries the summary and the re-injected state; the journal keeps everything', async () => {
    h = makeEngine({
      model: SMALL_WINDOW,
      responses: [
        { text: 'Noted: never touch config.ts.', usage: { inputTokens: 1_000, outputTokens: 20 } },
        { text: 'Second answer.', usage: { inputTokens: 9_000, outputTokens: 20 } },
        { text: 'I asked to keep config.ts untouched; next: wire the API.' }, // the summariser
        { text: 'Third answer, after compaction.' },
      ],
    });
    // Reinjectors belong to one runtime: another session in this process does not see these.
    h.runtime.reinjections.register('test-extra', (state) =>
      state.turns ? `turns so far: ${state.turns}` : undefined,
    );
    h.runtime.reinjections.register('test-nothing', () => undefined);
    await prompt(h, 'Build the API. Constraint: never touch config.ts.');
    await prompt(h, 'second prompt');
    expect(h.client.requests).toHaveLength(2);
    const s = h.runtime.session;
    s.commit({
      type: 'todos',
      todos: [
        { title: 'wire the API', status: 'pending' },
        { title: 'read the spec', status: 'done' },
      ],
    });
    const planPath = join(s.dir, 'plan.md');
    writeFileSync(planPath, '# Plan\n1. Wire the API\n');
    s.commit({ type: 'plan_mode', active: true, planPath });
    s.commit({
      type: 'goal',
      change: 'created',
      goal: {
        id: 'g1',
        objective: 'Ship the API',
        completionCriterion: 'tests pass',
        status: 'active',
        createdAt: '2025-01-01T00:00:00Z',
        budget: {},
        used: { turns: 1, tokens: 0, timeMs: 0 },
      },
    });
    const outcome = await prompt(h, 'third prompt');
    expect(outcome.reason).toBe('completed');

    const summariser = h.client.requests[2];
    expect(summariser.tools).toEqual([]);
    expect(summariser.system).toMatch(/hand-off note/);
    expect(summariser.system).toMatch(/first person/);
    expect(requestText(summariser)).toContain('never touch config.ts');

    const next = h.client.requests[3];
    const opening = next.messages[0];
    expect(opening.role).toBe('user');
    expect(firstText(opening)).toContain('<compaction-summary>');
    expect(firstText(opening)).toContain('next: wire the API.');
    expect(firstText(opening)).toContain(
      '<current-state name="todos">\nTodo list:\n- [pending] wire the API\n- [done] read the spec\n</current-state>',
    );
    expect(firstText(opening)).toContain(
      `<current-state name="plan">\nPlan mode is on. Plan file: ${planPath}\n\n# Plan\n1. Wire the API\n</current-state>`,
    );
    expect(firstText(opening)).toContain(
      '<current-state name="goal">\nGoal (active): Ship the API\nDone when: tests pass\n</current-state>',
    );
    expect(firstText(opening)).toContain('<current-state name="test-extra">\nturns so far: 3');
    expect(firstText(opening)).not.toContain('name="test-nothing"');
    // The two most recent exchanges stay verbatim; of the first one only the user's words remain,
    // verbatim, before the summary; the answer is gone.
    expect(next.messages.slice(1, 4).map(firstText)).toEqual(['second prompt', 'Second answer.', 'third prompt']);
    const note = firstText(opening);
    expect(
      note.indexOf('<user-message>\nBuild the API. Constraint: never touch config.ts.\n</user-message>'),
    ).toBeLessThan(note.indexOf('<compaction-summary>'));
    expect(requestText(next)).not.toContain('Noted: never touch config.ts.');
    expect(next.system).toBe(h.client.requests[0].system);

    const [start] = h.eventsOf('compaction_start');
    const [end] = h.eventsOf('compaction_end');
    expect(start).toMatchObject({ trigger: 'auto' });
    expect(start.tokenCount).toBeGreaterThanOrEqual(8_500);
    expect(end).toMatchObject({
      trigger: 'auto',
      tokensBefore: start.tokenCount,
      summary: 'I asked to keep config.ts untouched; next: wire the API.',
    });
    // On the provider's basis (its 9,000 for a tiny conversation, carried over): accountingAgreement.test.ts.
    expect(end.estimatedTokenCount).toBeGreaterThan(0);

    const state = h.runtime.session.state;
    expect(state.compactions).toEqual([
      expect.objectContaining({ trigger: 'auto', summarised: 2, summary: end.summary }),
    ]);
    expect(state.usage.inputTokens).toBe(1_000 + 9_000 + 100 + 100); // the summariser's cost counts too
    const records = journal(h);
    const texts = records
      .filter((r) => r.type === 'message')
      .map((r) => firstText((r as { message: Message }).message));
    expect(texts).toContain('Build the API. Constraint: never touch config.ts.');
    expect(texts).toContain('Noted: never touch config.ts.');
    expect(records.findIndex((r) => r.type === 'compaction')).toBeGreaterThan(
      records.findIndex((r) => r.type === 'message' && firstText(r.message) === 'third prompt'),
    );

    const resumed = Session.open(h.runtime.session.location);
    expect(resumed.state.messages).toEqual(state.messages);
    expect(resumed.state.compactions[0].summary).toBe(end.summary);
  });

  it('triggers when fewer than reserved_context_size tokens remain', async () => {
    h = makeEngine({
      model: SMALL_WINDOW,
      compaction: { triggerRatio: 0.99, reservedContextSize: 3_000 },
      responses: [{ text: 'a', usage: { inputTokens: 7_500, outputTokens: 5 } }, { text: 'summary' }, { text: 'b' }],
    });
    await prompt(h, 'one');
    await prompt(h, 'two');
    expect(h.eventsOf('compaction_start')).toHaveLength(1);
    expect(firstText(h.client.requests[2].messages[0])).toContain('summary');
  });

  it('does not compact below the threshold', async () => {
    h = makeEngine({
      model: SMALL_WINDOW,
      responses: [{ text: 'a', usage: { inputTokens: 8_000, outputTokens: 5 } }, { text: 'b' }],
    });
    await prompt(h, 'one');
    await prompt(h, 'two');
    expect(h.eventsOf('compaction_start')).toHaveLength(0);
  });

  it('a failed summary leaves the context as it was and the turn goes on', async () => {
    h = makeEngine({
      model: SMALL_WINDOW,
      responses: [
        { text: 'a', usage: { inputTokens: 9_500, outputTokens: 5 } },
        { error: new ProviderError('bad_request', 'summariser refused') },
        { text: 'b', usage: { inputTokens: 9_600, outputTokens: 5 } },
      ],
    });
    await prompt(h, 'one');
    const outcome = await prompt(h, 'two');
    expect(outcome).toMatchObject({ reason: 'completed', text: 'b' });
    expect(h.eventsOf('compaction_end')[0].error).toMatch(/summariser refused/);
    expect(
      h
        .eventsOf('notice')
        .map((n) => n.text)
        .join('\n'),
    ).toMatch(/Automatic compaction failed/);
    expect(h.runtime.session.state.compactions).toEqual([]);
    expect(h.client.requests[2].messages.map(firstText)).toEqual(['one', 'a', 'two']);
  });
});

describe("the user's own words survive a compaction", () => {
  const userWordsOf = (m: Message) =>
    m.role === 'user'
      ? m.content.flatMap((p) =>
          p.type === 'text' && p.text.startsWith('<user-message>\n') ? [p.text.slice(15, -16)] : [],
        )
      : [];

  it('a one-prompt session that compacts mid-turn still carries the prompt, even when the summary forgets it', async () => {
    const big = 'y'.repeat(40_000);
    h = makeEngine({
      model: SMALL_WINDOW,
      mode: 'yolo',
      responses: [
        { toolCalls: [{ id: 'c1', name: 'Peek', arguments: { key: big, ms: 0 } }] },
        { text: 'I looked at a long value.' }, // the summariser forgets the instruction
        { text: 'Renamed, and left config.ts alone.' },
      ],
    });
    const outcome = await prompt(h, 'Rename foo to bar everywhere except config.ts.');
    expect(outcome).toMatchObject({ reason: 'completed', text: 'Renamed, and left config.ts alone.' });
    expect(h.runtime.session.state.compactions).toHaveLength(1);
    const next = h.client.requests[2];
    expect(userWordsOf(next.messages[0])).toEqual(['Rename foo to bar everywhere except config.ts.']);
    expect(firstText(next.messages[0])).toMatch(
      /<user-message>[\s\S]*<compaction-summary>[\s\S]*I looked at a long value\./,
    );
  });

  it('keeps the newest messages within about a fifth of the window, and carries them through a second compaction', async () => {
    // Window 10 000 tokens: 2 000 for the user's words; each long prompt is ~750 tokens.
    const long = (n: number) => `prompt ${n}: ${'z'.repeat(3_000)}`;
    const answers = ['a1', 'a2', 'a3', 'a4', 'note one', 'a5', 'note two'].map((text) => ({ text }));
    h = makeEngine({ model: SMALL_WINDOW, responses: answers });
    for (const n of [1, 2, 3, 4]) await prompt(h, long(n));
    await h.runtime.compaction.compact();
    let words = userWordsOf(h.runtime.session.state.messages[0]);
    // Prompts 3 and 4 are kept verbatim in the tail; 1 and 2 fit the budget in the note, oldest first.
    expect(words).toEqual([long(1), long(2)]);
    await prompt(h, 'short five');
    await h.runtime.compaction.compact();
    words = userWordsOf(h.runtime.session.state.messages[0]);
    // Newest first until the budget is spent: 1 no longer fits.
    expect(words.at(-1)).toBe(long(3));
    expect(words).not.toContain(long(1));
    expect(words.length).toBeGreaterThanOrEqual(2);
  });

  it('never mistakes injected text (notifications, reminders, goal context) for the user', async () => {
    h = makeEngine({ responses: [{ text: 'a1' }, { text: 'a2' }, { text: 'a3' }, { text: 'the note' }] });
    h.runtime.session.commit({
      type: 'message',
      message: {
        role: 'user',
        content: [{ type: 'text', text: '<system-notification>\ntask done\n</system-notification>' }],
      },
    });
    for (const p of ['p1', 'p2', 'p3']) await prompt(h, p);
    await h.runtime.compaction.compact();
    expect(userWordsOf(h.runtime.session.state.messages[0])).toEqual(['p1']);
  });
});

describe('context overflow recovery', () => {
  it('a provider context-overflow error compacts and retries the step', async () => {
    h = makeEngine({
      model: SMALL_WINDOW,
      responses: [
        { text: 'first answer' },
        { error: overflow() },
        { text: 'summary of the first exchange' },
        { text: 'recovered answer' },
      ],
    });
    await prompt(h, 'one');
    const outcome = await prompt(h, 'two');
    expect(outcome).toMatchObject({ reason: 'completed', text: 'recovered answer' });
    expect(firstText(h.client.requests[3].messages[0])).toContain('summary of the first exchange');
    expect(h.client.requests[3].messages.at(-1)).toEqual({ role: 'user', content: [{ type: 'text', text: 'two' }] });
    expect(h.eventsOf('retry')).toHaveLength(0);
  });

  it('cuts deeper on each try, and gives up with the provider message after three', async () => {
    h = makeEngine({
      model: SMALL_WINDOW,
      responses: [
        { text: 'answer one' },
        { text: 'answer two' },
        { error: overflow() },
        { text: 'note 1' },
        { error: overflow() },
        { text: 'note 2' },
        { error: overflow() },
        { text: 'note 3' },
        { error: overflow() },
      ],
    });
    await prompt(h, 'one');
    await prompt(h, 'two');
    const outcome = await prompt(h, 'three');
    expect(outcome.reason).toBe('failed');
    expect(outcome.error).toMatch(/prompt is too long/);
    const sizes = [4, 6, 8].map((i) => h!.client.requests[i].messages.length);
    expect(sizes[0]).toBeGreaterThan(sizes[1]);
    expect(sizes[1]).toBeGreaterThanOrEqual(sizes[2]);
    expect(h.client.requests[8].messages).toHaveLength(1); // the last cut keeps only the note
    expect(h.runtime.session.state.compactions).toHaveLength(3);
  });

  it('a summariser that overflows too is retried with a shorter transcript', async () => {
    const big = 'x'.repeat(3_000);
    h = makeEngine({
      model: SMALL_WINDOW,
      responses: (_req: ModelRequest, i: number) => {
        if (i === 0) return { toolCalls: [{ id: 'c1', name: 'Peek', arguments: { key: big, ms: 0 } }] };
        if (i === 1) return { text: 'read it' };
        if (i === 2) return { error: overflow() };
        if (i === 3) return { error: overflow() }; // the summariser, first cut
        if (i === 4) return { text: 'short note' };
        return { text: 'done' };
      },
      mode: 'yolo',
    });
    await prompt(h, 'one');
    const outcome = await prompt(h, 'two');
    expect(outcome.reason).toBe('completed');
    expect(requestText(h.client.requests[4]).length).toBeLessThan(requestText(h.client.requests[3]).length);
    expect(h.runtime.session.state.compactions).toHaveLength(1);
  });
});

describe('the summariser request', () => {
  it('is never larger than the window, even when one message alone is', async () => {
    h = makeEngine({ model: SMALL_WINDOW, responses: () => ({ text: 'noted' }) });
    await prompt(h, `${'HEAD '.repeat(10)}${'y'.repeat(120_000)}${' TAIL'.repeat(10)}`);
    const summarisers = h.client.requests.filter(
      (r) => r.tools.length === 0 && firstText(r.messages[0]).startsWith('<conversation>'),
    );
    expect(summarisers.length).toBeGreaterThan(0);
    for (const r of summarisers) expect(estimateRequestTokens(r)).toBeLessThan(SMALL_WINDOW.maxContextSize);
    const text = firstText(summarisers[0].messages[0]);
    expect(text).toMatch(/characters cut: this message alone did not fit the summariser's window/);
    expect(text).toContain('HEAD HEAD');
    expect(text).toContain('TAIL TAIL');
  });
});

describe('manual compaction', () => {
  it('passes the instruction to the summariser and records it', async () => {
    h = makeEngine({
      responses: [{ text: 'a1' }, { text: 'a2' }, { text: 'a3' }, { text: 'the note' }, { text: 'after' }],
    });
    for (const p of ['p1', 'p2', 'p3']) await prompt(h, p);
    const result = await h.runtime.compaction.compact({ instruction: '  focus on the API decisions ' });
    expect(result).toMatchObject({ trigger: 'manual', summary: 'the note', summarised: 2, kept: 4 });
    const summariser = h.client.requests[3];
    const text = firstText(summariser.messages[0]);
    expect(text).toContain('<user-instruction>\nfocus on the API decisions\n</user-instruction>');
    expect(text).toContain('[user]\np1');
    expect(h.eventsOf('compaction_start')[0]).toMatchObject({
      trigger: 'manual',
      instruction: 'focus on the API decisions',
    });
    expect(h.runtime.session.state.compactions[0]).toMatchObject({
      trigger: 'manual',
      instruction: 'focus on the API decisions',
    });
    await prompt(h, 'p4');
    expect(h.client.requests[4].messages.map(firstText).slice(1)).toEqual(['p2', 'a2', 'p3', 'a3', 'p4']);
  });

  it('a second compaction summarises the previous note with the newer messages', async () => {
    h = makeEngine({
      responses: [{ text: 'a1' }, { text: 'a2' }, { text: 'note one' }, { text: 'a3' }, { text: 'note two' }],
    });
    await prompt(h, 'p1');
    await prompt(h, 'p2');
    await h.runtime.compaction.compact();
    await prompt(h, 'p3');
    await h.runtime.compaction.compact();
    expect(firstText(h.client.requests[4].messages[0])).toContain('[earlier hand-off note]\n<user-messages>');
    expect(firstText(h.client.requests[4].messages[0])).toContain('<compaction-summary>');
    expect(firstText(h.runtime.session.state.messages[0])).toContain('note two');
    expect(h.runtime.session.state.compactions.map((c) => c.summary)).toEqual(['note one', 'note two']);
  });

  it('refuses while a turn runs, and when there is nothing to compact', async () => {
    h = makeEngine({ responses: [{ text: 'slow', delayMs: 30 }] });
    await expect(h.runtime.compaction.compact()).rejects.toThrow(/Nothing to compact/);
    h.runtime.agent.submit({ kind: 'prompt', text: 'go' });
    await expect(h.runtime.compaction.compact()).rejects.toBeInstanceOf(CompactionError);
    await h.runtime.agent.idle();
  });
});

describe('choosing the cut', () => {
  const user = (t: string): Message => ({ role: 'user', content: [{ type: 'text', text: t }] });
  const call = (...ids: string[]): Message => ({
    role: 'assistant',
    text: '',
    toolCalls: ids.map((id) => ({ id, name: 'Peek', arguments: '{}' })),
  });
  const result = (id: string): Message => ({
    role: 'tool',
    toolCallId: id,
    toolName: 'Peek',
    content: [{ type: 'text', text: 'r' }],
  });
  const answer = (t: string): Message => ({ role: 'assistant', text: t });

  it('prefers an exchange boundary and keeps at most the given number of prompts', () => {
    const m = [user('1'), answer('a'), user('2'), call('x'), result('x'), answer('b'), user('3'), answer('c')];
    expect(chooseCut(m, 0, 2, Infinity)).toBe(2);
    expect(chooseCut(m, 0, 1, Infinity)).toBe(6);
    expect(chooseCut(m, 0, 0, 0)).toBe(8);
  });

  it('never separates a tool call from its results, even inside one long turn', () => {
    const m = [user('1'), call('a', 'b'), result('a'), result('b'), call('c'), result('c'), answer('done')];
    for (const budget of [0, 5, 10, 20, 40, 80, Infinity]) {
      const cut = chooseCut(m, 0, 1, budget)!;
      const kept = m.slice(cut);
      const called = new Set(kept.flatMap((x) => (x.role === 'assistant' ? (x.toolCalls ?? []).map((c) => c.id) : [])));
      for (const x of kept) if (x.role === 'tool') expect(called.has(x.toolCallId)).toBe(true);
    }
    expect(chooseCut([user('only')], 0, 0, 0)).toBe(1);
    expect(chooseCut([user('note')], 1, 0, 0)).toBeUndefined();
  });
});
