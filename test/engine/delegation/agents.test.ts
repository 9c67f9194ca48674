import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../../src/engine/loop/events';
import type { JournalRecord } from '../../../src/engine/session/records';
import { Session } from '../../../src/engine/session/session';
import { ScriptedClient } from '../../../src/llm/scriptedClient';
import { makeEngine, testTools, verifyEnginesAfterEach, type EngineHarness } from '../../helpers/engineHarness';

verifyEnginesAfterEach();

function journal(h: EngineHarness, agentId: string): JournalRecord[] {
  return readFileSync(join(h.runtime.session.dir, 'agents', agentId, 'wire.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as JournalRecord);
}

function eventTypes(events: EngineEvent[], agentId: string): string[] {
  return events
    .filter((e) => e.agentId === agentId && e.type !== 'text_delta' && e.type !== 'usage')
    .map((e) => e.type);
}

describe('many agents in one session', () => {
  it('two agents run at the same time; their events, journals and replayed states stay apart', async () => {
    const h = makeEngine({
      tools: testTools(),
      mode: 'yolo',
      responses: [{ toolCalls: [{ name: 'Poke', arguments: { key: 'main.txt', ms: 30 } }] }, { text: 'main is done' }],
    });
    const childClient = new ScriptedClient([
      { toolCalls: [{ name: 'Peek', arguments: { key: 'child.txt', ms: 30 } }] },
      { text: 'child found it' },
    ]);
    const child = h.runtime.agents.spawn({
      name: 'explore',
      systemPrompt: 'You explore. Read only.',
      client: childClient,
      tools: (t) => t.readOnly,
    });
    expect(child.id).toMatch(/^a[0-9a-f]{10}$/);
    expect(h.runtime.agents.get(child.id)).toBe(child);

    h.runtime.agent.submit({ kind: 'prompt', text: 'write main.txt' });
    const [childOutcome] = await Promise.all([child.run('find child.txt'), h.runtime.agent.idle()]);
    expect(childOutcome).toMatchObject({ reason: 'completed', text: 'child found it' });

    // Events: every one names its agent, and each agent's stream is a whole turn of its own.
    expect(h.events.every((e) => e.agentId === 'main' || e.agentId === child.id)).toBe(true);
    const turn = [
      'turn_start',
      'step_start',
      'tool_call_start',
      'assistant_message',
      'tool_call',
      'approval_decision',
      'tool_result',
      'step_start',
      'assistant_message',
      'turn_end',
    ];
    expect(eventTypes(h.events, 'main')).toEqual(turn);
    expect(eventTypes(h.events, child.id)).toEqual(turn);
    expect(h.events.filter((e) => e.type === 'tool_result').map((e) => [e.agentId, e.toolName])).toEqual(
      expect.arrayContaining([
        ['main', 'Poke'],
        [child.id, 'Peek'],
      ]),
    );

    // Requests: each agent its own system prompt, tools and conversation.
    expect(childClient.requests[0].system).toBe('You explore. Read only.');
    expect(childClient.requests[0].tools.map((t) => t.name)).toEqual(['Peek']);
    expect(JSON.stringify(childClient.requests)).not.toContain('write main.txt');
    expect(JSON.stringify(h.client.requests)).not.toContain('find child.txt');

    // Journals: one per agent, each with its own turn only.
    const mainPrompts = journal(h, 'main').flatMap((r) => (r.type === 'turn_start' ? [r.prompt] : []));
    const childRecords = journal(h, child.id);
    expect(mainPrompts).toEqual(['write main.txt']);
    expect(childRecords.flatMap((r) => (r.type === 'turn_start' ? [r.prompt] : []))).toEqual(['find child.txt']);
    expect(childRecords[0]).toMatchObject({
      type: 'session_meta',
      sessionId: h.runtime.session.id,
      agent: { id: child.id, parent: 'main', name: 'explore' },
    });

    // Replay: each journal rebuilds exactly its agent's state.
    const childSession = h.runtime.agents.parts(child.id)!.session;
    const replayed = Session.open(h.runtime.session.location, child.id);
    expect(replayed.state).toEqual(childSession.state);
    expect(replayed.state.messages).toHaveLength(4);
    expect(replayed.guard.entries()).toEqual(childSession.guard.entries());
    expect(Session.open(h.runtime.session.location).state).toEqual(h.runtime.session.state);
    expect(h.runtime.session.state.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    // The session summary speaks for the main agent only.
    expect(JSON.parse(readFileSync(join(h.runtime.session.dir, 'state.json'), 'utf8')).lastPrompt).toBe(
      'write main.txt',
    );
  });

  it('a subagent inherits the parent\'s mode (live) and "approve for this session"; its own approvals stay its own', async () => {
    const answers: Array<{ agentId?: string; subject: string }> = [];
    const h = makeEngine({
      tools: testTools(),
      answer: (req) => {
        answers.push({ agentId: req.agentId, subject: req.subject });
        return { decision: 'approve_session' };
      },
      responses: [{ toolCalls: [{ name: 'Poke', arguments: { key: 'shared.txt', ms: 0 } }] }, { text: 'ok' }],
    });
    await h.runtime.agent.run('poke shared');
    const childClient = new ScriptedClient([
      { toolCalls: [{ name: 'Poke', arguments: { key: 'shared.txt', ms: 0 } }] },
      { toolCalls: [{ name: 'Poke', arguments: { key: join(h.home, 'own.txt'), ms: 0 } }] },
      { text: 'child done' },
    ]);
    const child = h.runtime.agents.spawn({ systemPrompt: 'child', client: childClient });
    expect(await child.run('poke twice')).toMatchObject({ reason: 'completed', text: 'child done' });
    // Writes in the work folder were approved for the session by the parent: the child was not asked again.
    expect(answers).toEqual([
      { agentId: 'main', subject: `Write(${h.cwd}/shared.txt)` },
      { agentId: child.id, subject: `Write(${h.home}/own.txt)` },
    ]);
    const childState = h.runtime.agents.parts(child.id)!.session.state;
    expect(childState.sessionApprovals).toEqual([`Write(${h.home}/**)`]);
    expect(h.runtime.session.state.sessionApprovals).toEqual([`Write(${h.cwd}/**)`]);

    // A later switch of the parent's mode reaches the running subagent at once.
    h.runtime.session.commit({ type: 'mode', mode: 'yolo' });
    expect(child.permissionState().mode).toBe('yolo');
  });

  it("cancelling a subagent's run stops its turn; the id resumes it from its journal after release", async () => {
    const h = makeEngine({ tools: testTools(), responses: [] });
    const abort = new AbortController();
    const child = h.runtime.agents.spawn({
      agentId: 'worker-1',
      systemPrompt: 'child',
      client: new ScriptedClient([{ text: 'thinking hard', hangAfterText: true }]),
    });
    const running = child.run('long job', { signal: abort.signal });
    await new Promise<void>((resolve) => {
      const poll = () =>
        h.events.some((e) => e.agentId === 'worker-1' && e.type === 'text_delta') ? resolve() : setTimeout(poll, 5);
      poll();
    });
    abort.abort();
    expect(await running).toMatchObject({ reason: 'cancelled' });
    expect(() => h.runtime.agents.spawn({ agentId: 'worker-1', systemPrompt: 'x' })).toThrow(/already running/);
    await h.runtime.agents.release('worker-1');
    expect(h.runtime.agents.get('worker-1')).toBeUndefined();

    const resumedClient = new ScriptedClient([{ text: 'picked up again' }]);
    const again = h.runtime.agents.spawn({
      agentId: 'worker-1',
      systemPrompt: 'ignored on resume',
      client: resumedClient,
    });
    expect(await again.run('continue')).toMatchObject({ text: 'picked up again' });
    expect(resumedClient.requests[0].system).toBe('child');
    expect(resumedClient.requests[0].messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(JSON.stringify(resumedClient.requests[0].messages[1])).toContain('thinking hard');
    expect(Session.open(h.runtime.session.location, 'worker-1').state).toEqual(
      h.runtime.agents.parts('worker-1')!.session.state,
    );
  });

  it('refuses ids that cannot name a folder, and "main"', () => {
    const h = makeEngine({ tools: testTools(), responses: [] });
    for (const id of ['main', '../escape', 'a/b', ''])
      expect(() => h.runtime.agents.spawn({ agentId: id, systemPrompt: 'x' })).toThrow(/cannot name a subagent/);
    expect(existsSync(join(h.runtime.session.dir, 'escape'))).toBe(false);
  });

  it('closing the runtime stops running subagents', async () => {
    const h = makeEngine({ tools: testTools(), responses: [] });
    const child = h.runtime.agents.spawn({
      systemPrompt: 'child',
      client: new ScriptedClient([{ text: 'working', hangAfterText: true }]),
    });
    const running = child.run('hang');
    await h.runtime.close({ force: true });
    expect(await running).toMatchObject({ reason: 'cancelled' });
  });
});
