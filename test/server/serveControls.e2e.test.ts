// The controls a browser needs from `jarvis serve` (docs/server.md), on the built CLI against the scripted model: an
// approval nobody answers expires; a queued prompt is listed and steered into the running turn; the permission mode
// and model are switched; undo rewinds a prompt and its file; a background task is listed, read and cancelled;
// skills, tools and MCP servers are listed; bad requests get their specific codes; the models of the home config are
// listed, a switch during a turn is refused and one after it reaches the model.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCliDirs, mockModelEnv, writeTwoModelConfig, type CliDirs } from '../helpers/cli';
import { startMockModelServer, type MockModelServer, type ScriptedTurn } from '../helpers/mockModelServer';
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
let release: () => void = () => undefined;
let gate = Promise.resolve();

/** EnterPlanMode → Write the plan → ExitPlanMode with an alternative → an answer (as test/ui/planGoal.e2e.test.ts). */
function planTurn(messages: Array<{ role: string; content: unknown }>, body: string): ScriptedTurn {
  const lastUser = messages.map((m) => m.role).lastIndexOf('user');
  const step = messages.slice(lastUser).filter((m) => m.role === 'tool').length;
  if (step === 0) return { toolCalls: [{ name: 'EnterPlanMode', arguments: {} }] };
  if (step === 1) {
    const path = /(\/[^"\\\s]*\/plans\/(?:[^"\\\s/]+\/)?plan-[0-9a-f]+\.md)/.exec(body)![1];
    return { toolCalls: [{ name: 'Write', arguments: { path, content: '# Plan\n\n1. Add the table\n' } }] };
  }
  if (step === 2)
    return {
      toolCalls: [
        { name: 'ExitPlanMode', arguments: { options: [{ label: 'Quick route', description: 'skip the backfill' }] } },
      ],
    };
  return { text: 'implementing the plan' };
}

function turnFor(messages: Array<{ role: string; content: unknown }>, body: string): ScriptedTurn {
  if (JSON.stringify(messages.filter((m) => m.role === 'user').at(-1)?.content ?? '').includes('plan the migration'))
    return planTurn(messages, body);
  if (messages.at(-1)!.role === 'tool') return { text: 'tool done' };
  const text = JSON.stringify(messages.filter((m) => m.role === 'user').at(-1)?.content ?? '');
  if (text.includes('write the file'))
    return { toolCalls: [{ name: 'Write', arguments: { path: 'made.txt', content: 'made\n' } }] };
  if (text.includes('wait for the gate')) return { before: () => gate, text: 'the gate opened' };
  if (text.includes('ask me'))
    return {
      toolCalls: [
        {
          name: 'AskUserQuestion',
          arguments: {
            questions: [
              {
                question: 'Which database?',
                header: 'Database',
                options: [
                  { label: 'Postgres', description: 'relational' },
                  { label: 'SQLite', description: 'a file' },
                ],
                multiSelect: false,
              },
            ],
          },
        },
      ],
    };
  if (text.includes('start a task'))
    return {
      toolCalls: [
        { name: 'Bash', arguments: { command: 'sleep 300', run_in_background: true, description: 'a long sleep' } },
      ],
    };
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
    script: (req) => turnFor(req.body.messages as Array<{ role: string; content: unknown }>, JSON.stringify(req.body)),
  });
  dirs = makeCliDirs();
  mkdirSync(join(dirs.cwd, '.git'));
  mkdirSync(join(dirs.cwd, '.jarvis-code', 'skills', 'release-notes'), { recursive: true });
  writeFileSync(
    join(dirs.cwd, '.jarvis-code', 'skills', 'release-notes', 'SKILL.md'),
    '---\r\nname: release-notes\r\ndescription: Writes release notes from the git log\r\n---\r\nRead the log.\r\n',
  );
  writeTwoModelConfig(dirs.home, model.baseUrlFor('openai'));
  served = await startServe(dirs, mockModelEnv(model.baseUrlFor('openai')), ['--approval-expiry', '1']);
  ({ sid, watcher } = await watchedSession(served));
}, 60_000);

afterAll(() => stopServed(watcher, served, model));

describe('jarvis serve controls', () => {
  it('an approval nobody answers expires; the call is refused and a late answer gets 41001', async () => {
    const pid = await prompt('please write the file');
    const asked = await watcher.waitFor((f) => f.type === 'event.approval.requested', 'the approval');
    const aid = asked.payload.approval_id as string;
    const resolved = await watcher.waitFor((f) => f.type === 'event.approval.resolved', 'the expiry');
    expect(resolved.payload).toEqual({ approval_id: aid, resolution: 'expired', client_id: null });
    await watcher.waitFor(completed(pid), 'the prompt to end');
    expect(existsSync(join(dirs.cwd, 'made.txt'))).toBe(false);
    const late = await api(served, 'POST', `/api/v1/sessions/${sid}/approvals/${aid}`, { decision: 'approved' });
    expect(late.code).toBe(41001);
  }, 60_000);

  it('lists a queued prompt behind a running one and steers it into the running turn', async () => {
    gate = new Promise((r) => (release = r));
    const running = await prompt('wait for the gate');
    await watcher.waitFor((f) => f.type === 'prompt.started' && f.payload.prompt_id === running, 'the start');
    const queued = await prompt('also mention the weather');
    const list = await api<{ items: Array<{ prompt_id: string; status: string }> }>(
      served,
      'GET',
      `/api/v1/sessions/${sid}/prompts`,
    );
    expect(list.data.items.map((p) => [p.prompt_id, p.status])).toEqual([
      [running, 'running'],
      [queued, 'queued'],
    ]);
    const steered = await api(served, 'POST', `/api/v1/sessions/${sid}/prompts/${queued}:steer`, {});
    expect(steered.data).toEqual({ steered: [queued] });
    const before = model.requests.length;
    release();
    await watcher.waitFor(completed(running), 'the steered turn');
    // The steer joined the same turn: the model was asked again with it, and no prompt of its own ran.
    expect(JSON.stringify(model.requests.slice(before - 1).map((r) => r.body.messages))).toContain(
      'also mention the weather',
    );
    expect(watcher.frames.some((f) => f.type === 'prompt.started' && f.payload.prompt_id === queued)).toBe(false);
    const again = await api(served, 'POST', `/api/v1/sessions/${sid}/prompts/${queued}:abort`, {});
    expect(again.code).toBe(40903);
    expect((await api(served, 'POST', `/api/v1/sessions/${sid}/prompts:steer`, {})).code).toBe(40901);
  }, 60_000);

  it('switches the permission mode, refuses an unknown model, and undo rewinds a prompt with its file', async () => {
    const yolo = await api(served, 'POST', `/api/v1/sessions/${sid}/profile`, {
      agent_config: { permission_mode: 'yolo' },
    });
    expect(yolo.data).toMatchObject({ permission_mode: 'yolo', plan_mode: false });
    await watcher.waitFor((f) => f.type === 'session.status_changed', 'the status event');
    const unknown = await api(served, 'POST', `/api/v1/sessions/${sid}/profile`, {
      agent_config: { model: 'no-such-alias' },
    });
    expect(unknown.code).toBe(40113);
    const asked = watcher.frames.filter((f) => f.type === 'event.approval.requested').length;
    const pid = await prompt('now write the file');
    await watcher.waitFor(completed(pid), 'the write');
    expect(watcher.frames.filter((f) => f.type === 'event.approval.requested').length).toBe(asked);
    expect(existsSync(join(dirs.cwd, 'made.txt'))).toBe(true);
    const undo = await api<{ withdrawn: string[]; restored: Array<{ path: string; action: string }> }>(
      served,
      'POST',
      `/api/v1/sessions/${sid}:undo`,
      { count: 1 },
    );
    expect(undo.code, undo.msg).toBe(0);
    expect(undo.data.withdrawn).toEqual(['now write the file']);
    expect(undo.data.restored).toEqual([expect.objectContaining({ action: 'removed' })]);
    expect(existsSync(join(dirs.cwd, 'made.txt'))).toBe(false);
    expect((await api(served, 'POST', `/api/v1/sessions/${sid}:undo`, { count: 99 })).code).toBe(40911);
  }, 60_000);

  it('a question of the model waits for any client; the answer reaches the model; a dismissal is 40909', async () => {
    const pid = await prompt('ask me something');
    const asked = await watcher.waitFor((f) => f.type === 'event.question.requested', 'the question');
    expect(asked.payload).toMatchObject({
      kind: 'questions',
      questions: [expect.objectContaining({ question: 'Which database?' })],
    });
    const qid = asked.payload.question_id as string;
    const listed = await api<{ items: Array<{ question_id: string }> }>(
      served,
      'GET',
      `/api/v1/sessions/${sid}/questions?status=pending`,
    );
    expect(listed.data.items.map((q) => q.question_id)).toEqual([qid]);
    const wrongShape = await api(served, 'POST', `/api/v1/sessions/${sid}/questions/${qid}`, {
      plan_decision: 'approve',
    });
    expect(wrongShape.code).toBe(40001);
    const answered = await api(
      served,
      'POST',
      `/api/v1/sessions/${sid}/questions/${qid}`,
      { answers: [{ question: 'Which database?', kind: 'single', selected: ['SQLite'] }] },
      { 'x-client-id': 'browser-1' },
    );
    expect(answered.code, answered.msg).toBe(0);
    await watcher.waitFor(completed(pid), 'the answered turn');
    const event = watcher.frames.find((f) => f.type === 'event.question.answered')!;
    expect(event.payload).toMatchObject({ question_id: qid, client_id: 'browser-1' });
    const tool = watcher.frames.find(
      (f) => f.type === 'message' && f.payload.role === 'tool' && f.payload.name === 'AskUserQuestion',
    )!;
    expect(String(tool.payload.content)).toContain('SQLite');
    expect((await api(served, 'POST', `/api/v1/sessions/${sid}/questions/${qid}:dismiss`, {})).code).toBe(40902);

    const second = await prompt('ask me again');
    const again = await watcher.waitFor(
      (f) => f.type === 'event.question.requested' && f.payload.question_id !== qid,
      'the second question',
    );
    const dismissed = await api(
      served,
      'POST',
      `/api/v1/sessions/${sid}/questions/${String(again.payload.question_id)}:dismiss`,
      {},
    );
    expect([dismissed.code, dismissed.msg]).toEqual([40909, 'question dismissed']);
    await watcher.waitFor(completed(second), 'the dismissed turn');
  }, 60_000);

  it('a plan review waits for a client; approving with an alternative leaves plan mode', async () => {
    const made = await api(served, 'POST', '/api/v1/sessions', { permission_mode: 'yolo' });
    const planSid = made.data.session_id as string;
    const planner = await WsClient.connect(served, 'planner');
    await planner.request('subscribe', { session_ids: [planSid] });
    const r = await api(served, 'POST', `/api/v1/sessions/${planSid}/prompts`, {
      content: [{ type: 'text', text: 'plan the migration' }],
    });
    const review = await planner.waitFor((f) => f.type === 'event.question.requested', 'the plan review');
    expect(review.payload).toMatchObject({
      kind: 'plan_review',
      plan: {
        text: expect.stringContaining('Add the table'),
        options: [expect.objectContaining({ label: 'Quick route' })],
      },
    });
    const rid = review.payload.question_id as string;
    expect(
      (await api(served, 'POST', `/api/v1/sessions/${planSid}/questions/${rid}`, { plan_decision: 'revise' })).msg,
    ).toContain('needs feedback');
    const ok = await api(served, 'POST', `/api/v1/sessions/${planSid}/questions/${rid}`, {
      plan_decision: 'approve',
      option: 'Quick route',
    });
    expect(ok.code, ok.msg).toBe(0);
    await planner.waitFor(
      (f) => f.type === 'prompt.completed' && f.payload.prompt_id === r.data.prompt_id,
      'the approved plan',
    );
    const exit = planner.frames.find((f) => f.type === 'message' && f.payload.name === 'ExitPlanMode')!;
    expect(String(exit.payload.content)).toContain('Quick route');
    expect((await api(served, 'GET', `/api/v1/sessions/${planSid}/status`)).data.plan_mode).toBe(false);
    planner.close();
  }, 60_000);

  it('lists, reads and cancels a background task', async () => {
    const pid = await prompt('start a task now');
    await watcher.waitFor(completed(pid), 'the task start');
    const tasks = (
      await api<{ items: Array<{ id: string; status: string; description: string }> }>(
        served,
        'GET',
        `/api/v1/sessions/${sid}/tasks?status=running`,
      )
    ).data.items;
    expect(tasks).toEqual([expect.objectContaining({ status: 'running', description: 'a long sleep' })]);
    const one = await api(served, 'GET', `/api/v1/sessions/${sid}/tasks/${tasks[0].id}?with_output=true`);
    expect(one.data).toMatchObject({ id: tasks[0].id, output: expect.any(Object) });
    const cancel = await api(served, 'POST', `/api/v1/sessions/${sid}/tasks/${tasks[0].id}:cancel`, {});
    expect(cancel.code, cancel.msg).toBe(0);
    expect(cancel.data.status).not.toBe('running');
    expect((await api(served, 'POST', `/api/v1/sessions/${sid}/tasks/${tasks[0].id}:cancel`, {})).code).toBe(40904);
    expect((await api(served, 'GET', `/api/v1/sessions/${sid}/tasks/nope`)).code).toBe(40406);
  }, 60_000);

  it('lists skills, tools and MCP servers, and answers bad requests with specific codes', async () => {
    const skills = await api<{ items: Array<{ name: string; description: string }> }>(
      served,
      'GET',
      `/api/v1/sessions/${sid}/skills`,
    );
    expect(skills.data.items).toContainEqual(
      expect.objectContaining({ name: 'release-notes', description: 'Writes release notes from the git log' }),
    );
    const tools = await api<{ items: Array<{ name: string; active: boolean }> }>(
      served,
      'GET',
      `/api/v1/sessions/${sid}/tools`,
    );
    expect(tools.data.items).toContainEqual(expect.objectContaining({ name: 'Write', active: true }));
    // The bundled documents plugin's MCP server, started lazily on first use.
    const mcp = await api<{ items: Array<{ name: string; status: string; tools: string[] }> }>(
      served,
      'GET',
      `/api/v1/sessions/${sid}/mcp/servers`,
    );
    expect(mcp.data.items).toContainEqual(
      expect.objectContaining({ name: 'plugin-jarvis-documents_documents', status: 'lazy', tools: expect.any(Array) }),
    );

    const noContent = await api(served, 'POST', `/api/v1/sessions/${sid}/prompts`, {});
    expect([noContent.code, noContent.msg]).toEqual([
      40001,
      expect.stringContaining("must have required property 'content'"),
    ]);
    const extra = await api(served, 'POST', `/api/v1/sessions/${sid}:abort`, { force: true });
    expect(extra.code).toBe(40001);
    expect((await api(served, 'POST', `/api/v1/sessions/${sid}:explode`, {})).msg).toBe('unsupported action: explode');
    expect((await api(served, 'GET', `/api/v1/sessions?page_size=0`)).code).toBe(40001);
    expect((await api(served, 'GET', `/api/v1/sessions?colour=red`)).code).toBe(40001);
    expect((await api(served, 'GET', `/api/v1/sessions/01ARZ3NDEKTSV4RRFFQ69G5FAV`)).code).toBe(40401);
    const notJson = await fetch(`${served.url}/api/v1/sessions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${served.token}`, 'content-type': 'application/json' },
      body: '{"metadata":',
    });
    expect(((await notJson.json()) as { code: number }).code).toBe(40001);
  }, 60_000);

  it('lists the models of the config, refuses a switch during a turn, and the next request goes to the pick', async () => {
    type Choice = { alias: string; model: string; current: boolean; context_window: number | null };
    const list = () => api<{ items: Choice[] }>(served, 'GET', `/api/v1/sessions/${sid}/models`);
    const before = await list();
    expect(before.code, before.msg).toBe(0);
    expect(before.data.items).toEqual([
      expect.objectContaining({ alias: 'JARVIS_MODEL', model: 'mock-model', current: true }),
      {
        alias: 'fast',
        provider: 'gateway',
        model: 'fast-model-v1',
        display_name: 'fast-model-v1',
        current: false,
        context_window: 128000,
        thinking: 'none',
        problem: null,
      },
      {
        alias: 'deep',
        provider: 'gateway',
        model: 'deep-model-v2',
        display_name: 'Deep thinker',
        current: false,
        context_window: 180000,
        thinking: 'optional',
        problem: null,
      },
    ]);

    gate = new Promise((r) => (release = r));
    const running = await prompt('wait for the gate');
    await watcher.waitFor((f) => f.type === 'prompt.started' && f.payload.prompt_id === running, 'the start');
    const refused = await api(served, 'POST', `/api/v1/sessions/${sid}/profile`, { agent_config: { model: 'deep' } });
    expect([refused.code, refused.msg]).toEqual([40901, expect.stringContaining('while a turn runs')]);
    release();
    await watcher.waitFor(completed(running), 'the gated turn');

    const switched = await api(served, 'POST', `/api/v1/sessions/${sid}/profile`, { agent_config: { model: 'deep' } });
    expect(switched.data).toMatchObject({ model: 'deep', model_id: 'deep-model-v2' });
    const after = await list();
    expect(after.data.items.map((m) => [m.alias, m.current])).toEqual([
      ['fast', false],
      ['deep', true],
    ]);
    const sent = model.requests.length;
    await watcher.waitFor(completed(await prompt('who answers now?')), 'the prompt on the new model');
    expect(model.requests.slice(sent).map((r) => r.body.model)).toContain('deep-model-v2');
    expect((await api(served, 'GET', `/api/v1/sessions/01ARZ3NDEKTSV4RRFFQ69G5FAV/models`)).code).toBe(40401);
  }, 60_000);
});
