// What a browser shows live from `jarvis serve` (docs/server.md "Live events"), on the built CLI against the scripted
// model: the answer streams as volatile `message.delta` events (text and thinking) that name their message, are
// never replayed, and carry no SSE id; the to-do list, the goal and subagents (Agent and AgentSwarm members) arrive as
// kept events whose payloads match /openapi.json's schemas, and are in the snapshot; undo restores the list.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCliDirs, mockModelEnv, waitUntil, type CliDirs } from '../helpers/cli';
import { delegateTurn, turnPosition } from '../helpers/liveTurns';
import { startMockModelServer, type MockModelServer, type ScriptedTurn } from '../helpers/mockModelServer';
import { expectDescribed } from '../helpers/describedEvent';
import {
  api,
  startServe,
  stopServed,
  watchedSession,
  WsClient,
  type Served,
  type WsFrame,
} from '../helpers/serveProcess';

let model: MockModelServer;
let dirs: CliDirs;
let served: Served;
let sid: string;
let watcher: WsClient;

const ANSWER = 'The answer streams in small pieces, then arrives whole.';
const THOUGHT = 'Considering how to answer briefly.';

const TODOS = [
  { title: 'Read the schema', status: 'done' },
  { title: 'Write the migration', status: 'in_progress' },
  { title: 'Run the tests', status: 'pending' },
];

function turnFor(messages: Array<{ role: string; content: unknown }>): ScriptedTurn {
  const { text, step } = turnPosition(messages);
  if (text.includes('stream please')) return { thinking: THOUGHT, text: ANSWER };
  if (text.includes('make a todo list'))
    return step === 0 ? { toolCalls: [{ name: 'TodoList', arguments: { todos: TODOS } }] } : { text: 'listed' };
  if (text.includes('pursue a goal')) {
    if (step === 0)
      return {
        toolCalls: [
          { name: 'CreateGoal', arguments: { objective: 'Ship the migration', completionCriterion: 'tests pass' } },
        ],
      };
    if (step === 1) return { toolCalls: [{ name: 'UpdateGoal', arguments: { status: 'complete', summary: 'done' } }] };
    return { text: 'goal reached' };
  }
  if (text.includes('delegate the halves')) return delegateTurn(step);
  if (text.includes('Do task A') || text.includes('Do task B'))
    return step === 0
      ? { toolCalls: [{ name: 'Glob', arguments: { pattern: '*.md' } }] }
      : { text: `finished ${text.includes('task A') ? 'A' : 'B'}` };
  if (text.includes('swarm the items'))
    return step === 0
      ? { toolCalls: [{ name: 'AgentSwarm', arguments: { prompt_template: 'Handle {{item}}.', items: ['x', 'y'] } }] }
      : { text: 'swarm done' };
  if (text.includes('Handle ')) return { text: 'handled' };
  return { text: 'plain answer' };
}

const completed = (pid: string) => (f: WsFrame) =>
  f.session_id === sid && f.type === 'prompt.completed' && f.payload.prompt_id === pid;

async function prompt(text: string): Promise<string> {
  const r = await api(served, 'POST', `/api/v1/sessions/${sid}/prompts`, { content: [{ type: 'text', text }] });
  expect(r.code, r.msg).toBe(0);
  return r.data.prompt_id as string;
}

beforeAll(async () => {
  model = await startMockModelServer({
    script: (req) => turnFor(req.body.messages as Array<{ role: string; content: unknown }>),
  });
  dirs = makeCliDirs();
  writeFileSync(join(dirs.cwd, 'README.md'), '# project\n');
  served = await startServe(dirs, mockModelEnv(model.baseUrlFor('openai')));
  ({ sid, watcher } = await watchedSession(served));
}, 60_000);

afterAll(() => stopServed(watcher, served, model));

describe('jarvis serve live events', () => {
  it('streams text and thinking as volatile message.delta events that name the finished message', async () => {
    const sse = await fetch(`${served.url}/api/v1/sessions/${sid}/events`, {
      headers: { authorization: `Bearer ${served.token}` },
    });
    const reader = sse.body!.getReader();
    let sseText = '';
    const pump = (async () => {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        sseText += new TextDecoder().decode(value);
      }
    })();

    const pid = await prompt('stream please');
    await watcher.waitFor(completed(pid), 'the prompt to end');
    const deltas = watcher.frames.filter((f) => f.type === 'message.delta' && f.payload.prompt_id === pid);
    expect(deltas.length).toBeGreaterThan(2);
    for (const d of deltas) {
      expect(d.seq).toBe(0);
      expect((d as unknown as { volatile: boolean }).volatile).toBe(true);
      expect(d.session_id).toBe(sid);
      expectDescribed(d);
    }
    const text = deltas.filter((d) => d.payload.kind === 'text');
    const thinking = deltas.filter((d) => d.payload.kind === 'thinking');
    expect(text.map((d) => d.payload.delta).join('')).toBe(ANSWER);
    expect(thinking.map((d) => d.payload.delta).join('')).toBe(THOUGHT);
    const messageId = text[0].payload.message_id as string;
    expect(messageId).toMatch(/^msg_t_[0-9a-f]+_\d+$/);
    expect(new Set(deltas.map((d) => d.payload.message_id))).toEqual(new Set([messageId]));
    const final = watcher.frames.find((f) => f.type === 'message' && f.payload.role === 'assistant' && f.seq! > 0)!;
    expect(final.payload).toMatchObject({ content: ANSWER, message_id: messageId });
    // The deltas come before the message they build.
    expect(watcher.frames.indexOf(text.at(-1)!)).toBeLessThan(watcher.frames.indexOf(final));

    // SSE: the deltas arrive too, without an `id:` line (Last-Event-ID stays the last kept event's seq).
    await waitUntil(() => sseText.includes('event: prompt.completed'), 30_000, 'the SSE stream to see the end');
    await reader.cancel();
    await pump.catch(() => undefined);
    const blocks = sseText.split('\n\n').filter((b) => b.includes('event: message.delta'));
    expect(blocks.length).toBe(deltas.length);
    for (const b of blocks) expect(b).not.toMatch(/^id:/m);

    // A client that catches up from the start gets the kept events only: no deltas replayed.
    const late = await WsClient.connect(served, 'late');
    await late.request('subscribe', { session_ids: [sid], cursors: { [sid]: 0 } });
    await late.waitFor(completed(pid), 'the replay');
    expect(late.frames.some((f) => f.type === 'message.delta')).toBe(false);
    expect(late.frames.find((f) => f.type === 'message' && f.payload.role === 'assistant')!.payload.message_id).toBe(
      messageId,
    );
    late.close();
  }, 60_000);

  it('sends the to-do list and the goal as they change, keeps them in the snapshot, and undo restores the list', async () => {
    const pid = await prompt('make a todo list');
    await watcher.waitFor(completed(pid), 'the todo prompt');
    const changed = watcher.frames.filter((f) => f.type === 'session.todos_changed');
    expect(changed).toHaveLength(1);
    expect(changed[0].seq).toBeGreaterThan(0);
    expect(changed[0].payload.todos).toEqual(TODOS);
    expectDescribed(changed[0]);
    let snap = await api(served, 'GET', `/api/v1/sessions/${sid}/snapshot`);
    expect(snap.data.todos).toEqual(TODOS);
    expect(snap.data.goal).toBeNull();

    const gid = await prompt('pursue a goal');
    await watcher.waitFor(completed(gid), 'the goal prompt');
    const goals = watcher.frames.filter((f) => f.type === 'session.goal_changed');
    for (const g of goals) expectDescribed(g);
    expect(goals[0].payload).toMatchObject({
      change: 'created',
      goal: { objective: 'Ship the migration', completion_criterion: 'tests pass', status: 'active' },
    });
    expect(goals.at(-1)!.payload).toMatchObject({ goal: { status: 'complete' } });
    snap = await api(served, 'GET', `/api/v1/sessions/${sid}/snapshot`);
    expect(snap.data.goal).toMatchObject({ objective: 'Ship the migration', status: 'complete' });

    // Undo both prompts: the list is as it was before them (the goal is not rewound), and watchers are told.
    const before = watcher.frames.length;
    const undo = await api(served, 'POST', `/api/v1/sessions/${sid}:undo`, { count: 2 });
    expect(undo.code, undo.msg).toBe(0);
    const restored = await watcher.waitFor(
      (f) => watcher.frames.indexOf(f) >= before && f.type === 'session.todos_changed',
      'the rewind',
    );
    expect(restored.payload.todos).toEqual([]);
    snap = await api(served, 'GET', `/api/v1/sessions/${sid}/snapshot`);
    expect(snap.data.todos).toEqual([]);
  }, 60_000);

  it('reports subagents and swarm members: started, what they do, finished, and lists them in the snapshot', async () => {
    const pid = await prompt('delegate the halves');
    await watcher.waitFor(completed(pid), 'the delegation');
    const started = watcher.frames.filter((f) => f.type === 'subagent.started');
    expect(started.map((f) => f.payload.description).sort()).toEqual(['first half', 'second half']);
    for (const f of started) {
      expectDescribed(f);
      expect(f.payload).toMatchObject({ parent_agent_id: 'main', via: 'Agent', status: 'running' });
    }
    const progress = watcher.frames.filter((f) => f.type === 'subagent.progress');
    expect(progress.length).toBe(2);
    for (const f of progress) {
      expectDescribed(f);
      expect(f.payload.activity).toMatch(/^Glob /);
    }
    const finished = watcher.frames.filter((f) => f.type === 'subagent.finished');
    for (const f of finished) expectDescribed(f);
    expect(finished.map((f) => f.payload.response).sort()).toEqual(['finished A', 'finished B']);
    expect(finished.every((f) => f.payload.status === 'completed')).toBe(true);
    // Each subagent's events come in order: started, progress, finished.
    for (const s of started) {
      const mine = watcher.frames.filter((f) => f.payload?.subagent_id === s.payload.subagent_id);
      expect(mine.map((f) => f.type)).toEqual(['subagent.started', 'subagent.progress', 'subagent.finished']);
    }

    // A swarm (asks first in manual mode): its members share the call and say so.
    const swarm = await prompt('swarm the items');
    const asked = await watcher.waitFor(
      (f) => f.type === 'event.approval.requested' && f.payload.tool === 'AgentSwarm',
      'the swarm approval',
    );
    const ok = await api(served, 'POST', `/api/v1/sessions/${sid}/approvals/${asked.payload.approval_id as string}`, {
      decision: 'approved',
    });
    expect(ok.code, ok.msg).toBe(0);
    await watcher.waitFor(completed(swarm), 'the swarm');
    const members = watcher.frames.filter((f) => f.type === 'subagent.started' && f.payload.via === 'AgentSwarm');
    expect(members).toHaveLength(2);
    expect(new Set(members.map((f) => f.payload.parent_call_id)).size).toBe(1);
    const snap = await api<{ subagents: Array<Record<string, unknown>> }>(
      served,
      'GET',
      `/api/v1/sessions/${sid}/snapshot`,
    );
    expect(snap.data.subagents).toHaveLength(4);
    expect(snap.data.subagents.every((s) => s.status === 'completed' && s.activity === null)).toBe(true);
    expect(snap.data.subagents.filter((s) => s.via === 'AgentSwarm').map((s) => s.response)).toEqual([
      'handled',
      'handled',
    ]);
  }, 90_000);
});
