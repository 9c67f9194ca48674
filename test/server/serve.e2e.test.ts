// `jarvis serve` end to end on the built CLI against the scripted model (docs/server.md): a session created over
// HTTP, prompts streamed to two WebSocket clients, an approval answered by one of them, a client killed mid-turn that
// reconnects and catches up from its last seq, resync_required past the buffer, SSE, fork, abort, archive and
// `jarvis --continue` resuming a server-made session.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, makeCliDirs, mockModelEnv, runJarvis, waitUntil, type CliDirs } from '../helpers/cli';
import { startMockModelServer, type MockModelServer, type ScriptedTurn } from '../helpers/mockModelServer';
import { api, startServe, WsClient, type Served, type WsFrame } from '../helpers/serveProcess';

let model: MockModelServer;
let dirs: CliDirs;
let served: Served;
let release: () => void = () => undefined;
let gate = Promise.resolve();

function lastUserText(messages: Array<{ role: string; content: unknown }>): string {
  const last = messages.at(-1)!;
  if (last.role === 'tool') return '<tool>';
  return JSON.stringify(messages.filter((m) => m.role === 'user').at(-1)?.content ?? '');
}

function turnFor(text: string): ScriptedTurn {
  if (text === '<tool>') return { text: 'the file is written' };
  if (text.includes('write the file'))
    return { toolCalls: [{ name: 'Write', arguments: { path: 'out.txt', content: 'from the server\n' } }] };
  if (text.includes('wait for the gate')) return { before: () => gate, text: 'the gate opened' };
  if (text.includes('never answer')) return { hang: true };
  return { text: 'plain answer' };
}

beforeAll(async () => {
  model = await startMockModelServer({
    script: (req) => turnFor(lastUserText(req.body.messages as Array<{ role: string; content: unknown }>)),
  });
  dirs = makeCliDirs();
  served = await startServe(dirs, mockModelEnv(model.baseUrlFor('openai')));
}, 60_000);

afterAll(async () => {
  if (served) process.stderr.write(`serve stderr:\n${served.stderr()}\n`);
  await served?.stop();
  await model?.close();
});

const completed = (sid: string, pid: string) => (f: WsFrame) =>
  f.session_id === sid && f.type === 'prompt.completed' && f.payload.prompt_id === pid;

describe('jarvis serve: sessions, prompts and events', () => {
  let sid: string;
  let a: WsClient;
  let b: WsClient;

  it('creates a session and streams a prompt to two watching clients, who answer an approval', async () => {
    const health = await fetch(`${served.url}/api/v1/healthz`);
    expect(await health.json()).toEqual({ ok: true });
    const doc = await fetch(`${served.url}/openapi.json`, { headers: { authorization: `Bearer ${served.token}` } });
    expect(((await doc.json()) as { openapi: string }).openapi).toBe('3.1.0');
    const created = await api(served, 'POST', '/api/v1/sessions', {});
    expect(created.code, created.msg).toBe(0);
    sid = created.data.session_id as string;
    expect(created.data.permission_mode).toBe('manual');
    a = await WsClient.connect(served, 'client-a');
    b = await WsClient.connect(served, 'client-b');
    for (const c of [a, b]) expect((await c.request('subscribe', { session_ids: [sid] })).code).toBe(0);

    const prompt = await api(served, 'POST', `/api/v1/sessions/${sid}/prompts`, {
      content: [{ type: 'text', text: 'please write the file' }],
    });
    expect(prompt.code, prompt.msg).toBe(0);
    const pid = prompt.data.prompt_id as string;
    const asked = await a.waitFor((f) => f.type === 'event.approval.requested', 'the approval');
    await b.waitFor((f) => f.type === 'event.approval.requested', 'the approval on b');
    expect(asked.payload).toMatchObject({ tool: 'Write' });
    const aid = asked.payload.approval_id as string;
    const listed = await api<{ items: Array<{ approval_id: string }> }>(
      served,
      'GET',
      `/api/v1/sessions/${sid}/approvals?status=pending`,
    );
    expect(listed.data.items.map((x) => x.approval_id)).toEqual([aid]);

    const answer = await api(
      served,
      'POST',
      `/api/v1/sessions/${sid}/approvals/${aid}`,
      { decision: 'approved' },
      { 'x-client-id': 'client-a' },
    );
    expect(answer.data).toEqual({ approval_id: aid, resolution: 'approved' });
    const late = await api(
      served,
      'POST',
      `/api/v1/sessions/${sid}/approvals/${aid}`,
      { decision: 'rejected' },
      { 'x-client-id': 'client-b' },
    );
    expect(late.code).toBe(40902);

    for (const c of [a, b]) {
      await c.waitFor(completed(sid, pid), 'prompt.completed');
      const resolved = c.events(sid).find((f) => f.type === 'event.approval.resolved')!;
      expect(resolved.payload).toEqual({ approval_id: aid, resolution: 'approved', client_id: 'client-a' });
    }
    expect(readFileSync(join(dirs.cwd, 'out.txt'), 'utf8')).toBe('from the server\n');
    // Both clients saw the same events, in order, each seq one more than the one before.
    const seqs = a.events(sid).map((f) => f.seq);
    expect(seqs).toEqual(b.events(sid).map((f) => f.seq));
    expect(seqs).toEqual(seqs.map((_, i) => seqs[0]! + i));
    const messages = a
      .events(sid)
      .filter((f) => f.type === 'message')
      .map((f) => f.payload.type ?? f.payload.role);
    expect(messages).toEqual(['assistant', 'tool', 'assistant', 'result']);
    const result = a.events(sid).find((f) => f.type === 'message' && f.payload.type === 'result')!;
    expect(result.payload).toMatchObject({ outcome: 'success', session_id: sid, text: 'the file is written' });
  }, 120_000);

  it('keeps the turn going when a client is killed mid-turn; the client catches up from its last seq', async () => {
    // The watching client is a process of its own, killed with SIGKILL mid-turn: no close frame, no goodbye.
    b.close();
    const watcher = spawn(
      process.execPath,
      [
        join(__dirname, 'fixtures', 'watchClient.mjs'),
        `${served.url.replace('http', 'ws')}/api/v1/ws`,
        served.token,
        sid,
      ],
      { cwd: join(__dirname, '../..'), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let printed = '';
    watcher.stdout!.on('data', (d) => (printed += d));
    // Whole lines only: a read may end mid-line.
    const frames = () =>
      printed
        .split('\n')
        .slice(0, -1)
        .map((l) => JSON.parse(l) as WsFrame);
    await waitUntil(() => frames().some((f) => f.type === 'ack'), 20_000, 'the watcher to subscribe');
    gate = new Promise((r) => (release = r));
    const prompt = await api(served, 'POST', `/api/v1/sessions/${sid}/prompts`, {
      content: [{ type: 'text', text: 'wait for the gate' }],
    });
    const pid = prompt.data.prompt_id as string;
    await waitUntil(
      () => frames().some((f) => f.type === 'prompt.started' && f.payload.prompt_id === pid),
      20_000,
      'prompt.started in the watcher',
    );
    const seen = frames()
      .filter((f) => f.session_id === sid)
      .at(-1)!.seq!;
    const gone = new Promise((r) => watcher.once('exit', r));
    watcher.kill('SIGKILL');
    await gone;
    release();
    await a.waitFor(completed(sid, pid), 'the turn to end on a');
    const missed = a.events(sid).filter((f) => f.seq! > seen);
    expect(missed.length).toBeGreaterThan(2);

    const back = await WsClient.connect(served, 'client-b');
    const ack = await back.request('subscribe', { session_ids: [sid], cursors: { [sid]: seen } });
    expect(ack.code).toBe(0);
    await back.waitFor(completed(sid, pid), 'the catch-up');
    expect(back.events(sid).map((f) => [f.seq, f.type])).toEqual(missed.map((f) => [f.seq, f.type]));
    const text = back.events(sid).find((f) => f.type === 'message' && f.payload.type === 'result')!.payload.text;
    expect(text).toBe('the gate opened');

    // A cursor the server cannot serve: resync_required and the snapshot to rebuild from.
    const lost = await WsClient.connect(served);
    await lost.request('subscribe', { session_ids: [sid], cursors: { [sid]: 999_999 } });
    const resync = await lost.waitFor((f) => f.type === 'resync_required', 'resync_required');
    expect(resync.payload.snapshot).toBe(`/api/v1/sessions/${sid}/snapshot`);
    const snap = await api<{ as_of_seq: number; messages: { items: unknown[] }; status: { busy: boolean } }>(
      served,
      'GET',
      `/api/v1/sessions/${sid}/snapshot`,
    );
    expect(snap.data.as_of_seq).toBe(a.events(sid).at(-1)!.seq);
    expect(snap.data.status.busy).toBe(false);
    expect(snap.data.messages.items.length).toBeGreaterThanOrEqual(6);
    for (const c of [back, lost]) c.close();
  }, 120_000);

  it('serves the same events over SSE, resumable with since_seq', async () => {
    const res = await fetch(`${served.url}/api/v1/sessions/${sid}/events?since_seq=0`, {
      headers: { authorization: `Bearer ${served.token}` },
    });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = res.body!.getReader();
    let text = '';
    const last = a.events(sid).at(-1)!.seq!;
    while (!text.includes(`id: ${last}\n`)) {
      const { value, done } = await reader.read();
      if (done) break;
      text += Buffer.from(value).toString('utf8');
    }
    await reader.cancel();
    const ids = [...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
    // From the start: the `init` message (seq 1) came before any client watched.
    expect(ids).toEqual(Array.from({ length: last }, (_, i) => i + 1));
    expect(text).toContain('event: event.approval.resolved');
  }, 120_000);

  it('aborts a running turn, forks the session, archives it and lets jarvis --continue resume it', async () => {
    const prompt = await api(served, 'POST', `/api/v1/sessions/${sid}/prompts`, {
      content: [{ type: 'text', text: 'never answer' }],
    });
    const pid = prompt.data.prompt_id as string;
    await a.waitFor((f) => f.type === 'prompt.started' && f.payload.prompt_id === pid, 'prompt.started');
    await new Promise<void>((r) => {
      const check = () =>
        model.requests.length &&
        model.requests
          .at(-1)!
          .body.messages.some((m: { content: unknown }) => JSON.stringify(m.content).includes('never answer'))
          ? r()
          : setTimeout(check, 20);
      check();
    });
    const busy = await api(served, 'POST', `/api/v1/sessions/${sid}:fork`, {});
    expect(busy.code).toBe(40901);
    expect((await api(served, 'POST', `/api/v1/sessions/${sid}:abort`, {})).data).toEqual({ aborted: true });
    await a.waitFor(completed(sid, pid), 'the aborted prompt');
    const result = a
      .events(sid)
      .filter((f) => f.type === 'message' && f.payload.type === 'result')
      .at(-1)!;
    expect(result.payload.outcome).toBe('interrupted');

    const fork = await api(served, 'POST', `/api/v1/sessions/${sid}:fork`, {});
    expect(fork.code, fork.msg).toBe(0);
    const forkId = fork.data.session_id as string;
    await a.waitFor((f) => f.type === 'event.session.created' && f.payload.session_id === forkId, 'the fork event');
    const list = await api<{ items: Array<{ session_id: string; forked_from: string | null }> }>(
      served,
      'GET',
      '/api/v1/sessions',
    );
    expect(list.data.items.find((s) => s.session_id === forkId)?.forked_from).toBe(sid);
    expect(list.data.items[0].session_id).toBe(forkId); // newest first
    const forked = await api<{ items: unknown[] }>(served, 'GET', `/api/v1/sessions/${forkId}/messages`);
    expect(forked.data.items.length).toBeGreaterThanOrEqual(6);

    expect((await api(served, 'POST', `/api/v1/sessions/${forkId}:archive`, {})).code).toBe(0);
    expect((await api(served, 'POST', `/api/v1/sessions/${sid}:archive`, {})).code).toBe(0);
    const after = await api<{ items: Array<{ session_id: string }> }>(served, 'GET', '/api/v1/sessions');
    expect(after.data.items.map((s) => s.session_id)).not.toContain(sid);
    // Archived means closed: the session's lock is free, and the CLI continues it like any session.
    const cont = await runJarvis(['--continue', '--output-format', 'json', '-p', 'hello again'], {
      env: cliEnv(dirs, mockModelEnv(model.baseUrlFor('openai'))),
      cwd: dirs.cwd,
      timeoutMs: 60_000,
    });
    expect(cont.code, cont.stderr).toBe(0);
    // The fork is the folder's newest session, so --continue picks it up.
    expect(JSON.parse(cont.stdout).session_id).toBe(forkId);
    expect(existsSync(join(dirs.cwd, 'out.txt'))).toBe(true);
    a.close();
  }, 120_000);
});
