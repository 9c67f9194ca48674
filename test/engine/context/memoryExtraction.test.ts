import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MEMORY_SETTINGS } from '../../../src/engine/context/memoryRecall';
import { mayHoldMemories, parseDrafts } from '../../../src/engine/context/memoryExtraction';
import { ProviderError, type ModelRequest } from '../../../src/llm/types';
import type { ScriptedResponse } from '../../../src/llm/scriptedClient';
import { MemoryStore } from '../../../src/store/memoryStore';
import { setWorkspaceTrust } from '../../../src/store/trust';
import { makeEngine, runPrompt, verifyEnginesAfterEach } from '../../helpers/engineHarness';

verifyEnginesAfterEach();

const ON = { ...DEFAULT_MEMORY_SETTINGS, extractionEnabled: true };
const isExtraction = (r: ModelRequest) => r.system.startsWith('You keep the long-term memory of a coding agent.');
const requestText = (r: ModelRequest) =>
  r.messages
    .map((m) => (m.role === 'user' ? m.content.map((p) => (p.type === 'text' ? p.text : '')).join('') : ''))
    .join('\n');
const answer = (memories: unknown[]): ScriptedResponse => ({ text: JSON.stringify({ memories }) });
const draft = (name: string, body = `${name} body`) => ({ name, description: `about ${name}`, body });

function dirs() {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'jarvis-extract-')));
  const home = join(root, 'home');
  const cwd = join(root, 'work');
  mkdirSync(cwd, { recursive: true });
  return { home, cwd, store: () => new MemoryStore({ home, cwd, trusted: () => false }) };
}

/** A model that answers the conversation with "done" and extraction requests from `extractions`, in order. */
function model(extractions: Array<ScriptedResponse | (() => ScriptedResponse)>) {
  let n = 0;
  return (req: ModelRequest): ScriptedResponse => {
    if (!isExtraction(req)) return { text: 'done' };
    const next = extractions[n++] ?? answer([]);
    return typeof next === 'function' ? next() : next;
  };
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; !check(); i++) {
    if (i > 500) throw new Error('timed out waiting for the extraction');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('automatic memory extraction', () => {
  it('after a completed turn: one side request, at most 8 drafts, sanitized, deduplicated, stored in workspace scope (untrusted)', async () => {
    const d = dirs();
    await d
      .store()
      .remember(
        { scope: 'workspace', name: 'known fact', description: '', body: 'already known' },
        { mainAgent: true, origin: 'tool' },
      );
    const drafts = [
      draft('test command', 'npx vitest run'),
      draft('Test Command', 'a duplicate by name'),
      draft('same body', 'npx vitest run'),
      draft('known fact', 'restated'),
      draft('token', 'the deploy token is ghp_FAKE0aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3'),
      draft('huge', 'x'.repeat(5000)),
      draft('style', 'two spaces'),
      draft('eighth', 'kept'),
      draft('ninth', 'beyond the 8 drafts'),
    ];
    const engine = makeEngine({ responses: model([answer(drafts)]), dirs: d, memory: ON });
    await runPrompt(engine, 'Set up the tests');
    await engine.runtime.close();
    const extractions = engine.client.requests.filter(isExtraction);
    expect(extractions).toHaveLength(1);
    expect(extractions[0].tools).toEqual([]);
    expect(requestText(extractions[0])).toContain('- known fact: already known');
    expect(requestText(extractions[0])).toContain('[user]\nSet up the tests');
    const records = d.store().list().records;
    expect(records.map((r) => r.name).sort()).toEqual(['eighth', 'known fact', 'style', 'test command']);
    for (const r of records.filter((r) => r.name !== 'known fact'))
      expect(r).toMatchObject({ scope: 'workspace', origin: 'extraction' });
    expect(engine.eventsOf('notice').map((e) => e.text)).toContain(
      'Remembered 3 facts: "test command", "style", "eighth" (workspace memory).',
    );
  });

  it('stores in project scope in a trusted workspace, never in user scope', async () => {
    const d = dirs();
    setWorkspaceTrust(d.home, d.cwd, true);
    const engine = makeEngine({
      responses: model([{ text: `Sure:\n${JSON.stringify([{ ...draft('pm'), scope: 'user' }])}` }]),
      dirs: d,
      memory: ON,
    });
    await runPrompt(engine, 'use pnpm');
    await engine.runtime.close();
    const store = new MemoryStore({ home: d.home, cwd: d.cwd, trusted: () => true });
    expect(store.list('user').records).toEqual([]);
    expect(store.list('project').records.map((r) => r.name)).toEqual(['pm']);
  });

  it('a transient provider failure is retried after a later completed turn, with the messages it missed', async () => {
    const d = dirs();
    const engine = makeEngine({
      responses: model([{ error: new ProviderError('server', 'HTTP 503') }, answer([draft('retried fact')])]),
      dirs: d,
      memory: ON,
    });
    await runPrompt(engine, 'first prompt');
    await until(() => engine.client.requests.filter(isExtraction).length === 1);
    expect(d.store().list().records).toEqual([]);
    await runPrompt(engine, 'second prompt');
    await engine.runtime.close();
    const [, second] = engine.client.requests.filter(isExtraction);
    expect(requestText(second)).toContain('first prompt');
    expect(requestText(second)).toContain('second prompt');
    expect(
      d
        .store()
        .list()
        .records.map((r) => r.name),
    ).toEqual(['retried fact']);
  });

  it('a draft the disk refused is stored after a later turn; a terminal refusal is dropped, not retried', async () => {
    const d = dirs();
    mkdirSync(d.home, { recursive: true });
    writeFileSync(join(d.home, 'memory'), 'a file where the memory folder should be');
    const engine = makeEngine({ responses: model([answer([draft('disk fact')]), answer([])]), dirs: d, memory: ON });
    await runPrompt(engine, 'first');
    await until(() => engine.client.requests.filter(isExtraction).length === 1);
    await until(() => !engine.runtime.agent.busy);
    rmSync(join(d.home, 'memory'));
    await runPrompt(engine, 'second');
    await engine.runtime.close();
    expect(
      d
        .store()
        .list()
        .records.map((r) => r.name),
    ).toEqual(['disk fact']);
  });

  it('leaves recalled memories out of what it reads', async () => {
    const d = dirs();
    await d
      .store()
      .remember(
        { scope: 'workspace', name: 'deploy', description: 'deploying', body: 'RECALLED-ONLY deploy notes' },
        { mainAgent: true, origin: 'tool' },
      );
    const engine = makeEngine({ responses: model([answer([])]), dirs: d, memory: ON });
    await runPrompt(engine, 'deploy the app');
    await engine.runtime.close();
    const [extraction] = engine.client.requests.filter(isExtraction);
    expect(requestText(extraction).split('<conversation>')[1]).not.toContain('RECALLED-ONLY');
  });

  it('runs again at session close for what a turn that did not complete added; nothing new means no request', async () => {
    const d = dirs();
    let failNext = true;
    const engine = makeEngine({
      responses: (req) =>
        isExtraction(req)
          ? answer([draft('from close')])
          : failNext
            ? ((failNext = false), { error: new ProviderError('auth', 'bad key') })
            : { text: 'done' },
      dirs: d,
      memory: ON,
    });
    await runPrompt(engine, 'a turn that fails');
    expect(engine.client.requests.filter(isExtraction)).toHaveLength(0);
    await engine.runtime.close();
    // The provider has just failed the turn (issue 39): close does not send it an extraction request.
    expect(engine.client.requests.filter(isExtraction)).toHaveLength(0);

    const second = makeEngine({
      responses: model([answer([]), answer([draft('closing fact')])]),
      dirs: dirs(),
      memory: ON,
    });
    await runPrompt(second, 'a turn that completes');
    await until(() => second.client.requests.filter(isExtraction).length === 1);
    await second.runtime.close();
    // Nothing new after the last extraction: close makes no second request.
    expect(second.client.requests.filter(isExtraction)).toHaveLength(1);
  });

  it('a resumed session does not read its old history again', async () => {
    const d = dirs();
    const first = makeEngine({ responses: model([answer([])]), dirs: d, memory: ON });
    await runPrompt(first, 'OLD-HISTORY prompt');
    await first.runtime.close();
    const resumed = makeEngine({
      responses: model([answer([])]),
      dirs: d,
      memory: ON,
      resume: first.runtime.session.location,
    });
    await runPrompt(resumed, 'new prompt');
    await resumed.runtime.close();
    const [extraction] = resumed.client.requests.filter(isExtraction);
    expect(requestText(extraction)).toContain('new prompt');
    expect(requestText(extraction)).not.toContain('OLD-HISTORY');
  });

  it('subagents are extracted too, as non-main agents (never user scope)', async () => {
    const d = dirs();
    const engine = makeEngine({ responses: model([answer([draft('sub fact')])]), dirs: d, memory: ON });
    const sub = engine.runtime.agents.spawn({ systemPrompt: 'You are a helper.' });
    const outcome = await sub.run('look around');
    expect(outcome.reason).toBe('completed');
    await engine.runtime.close();
    expect(requestText(engine.client.requests.filter(isExtraction)[0])).toContain('look around');
    expect(d.store().list().records).toEqual([expect.objectContaining({ name: 'sub fact', scope: 'workspace' })]);
  });

  it('a run with nothing to remember (small talk, no tool) makes no extraction request, then or at close', async () => {
    const engine = makeEngine({ responses: model([answer([draft('never')])]), dirs: dirs(), memory: ON });
    await runPrompt(engine, 'Hi!');
    await engine.runtime.close();
    expect(engine.client.requests.filter(isExtraction)).toHaveLength(0);
    const u = (text: string) => ({ role: 'user' as const, content: [{ type: 'text' as const, text }] });
    const a = (text: string) => ({ role: 'assistant' as const, text, toolCalls: [] });
    expect(mayHoldMemories([u('thanks'), a('You are welcome.')])).toBe(false);
    expect(mayHoldMemories([u('use pnpm'), a('ok')])).toBe(true);
    expect(mayHoldMemories([u('We deploy on Fridays.')])).toBe(false); // no answer yet: read with the next turn
  });

  it('closing waits for a slow extraction only up to extraction_exit_timeout_ms, then stops it, warning', async () => {
    const hanging = model([{ text: '{"memories": [', hangAfterText: true }]);
    const engine = makeEngine({ responses: hanging, dirs: dirs(), memory: { ...ON, extractionExitTimeoutMs: 50 } });
    await runPrompt(engine, 'We deploy with make ship.');
    await until(() => engine.client.requests.filter(isExtraction).length === 1);
    await engine.runtime.close();
    const stopped =
      /^memory extraction did not finish within 50 ms of closing and was stopped \(\[memory\] extraction_exit_timeout_ms\)/;
    expect(engine.eventsOf('notice').map((n) => n.text)).toContainEqual(expect.stringMatching(stopped));
  });

  it('extraction_enabled = false makes no side request', async () => {
    const d = dirs();
    const engine = makeEngine({
      responses: model([answer([draft('x')])]),
      dirs: d,
      memory: { ...ON, extractionEnabled: false },
    });
    await runPrompt(engine, 'hello');
    await engine.runtime.close();
    expect(engine.client.requests.filter(isExtraction)).toHaveLength(0);
  });

  it('parses drafts from an object, a bare array or text around JSON; malformed answers give none', () => {
    expect(parseDrafts('{"memories":[{"name":"a","body":"b"}]}')).toEqual([{ name: 'a', description: '', body: 'b' }]);
    expect(parseDrafts('Here:\n[{"name":" a ","description":"d","body":" b "}]\nDone.')).toEqual([
      { name: 'a', description: 'd', body: 'b' },
    ]);
    expect(parseDrafts('no json')).toEqual([]);
    expect(parseDrafts('{"memories": [{"name": 1, "body": "b"}, {"name": "x"}, null]}')).toEqual([]);
    expect(parseDrafts('{"memories": ')).toEqual([]);
  });
});
