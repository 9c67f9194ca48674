// What a browser shows live from `jarvis serve` (docs/server.md "Live events"), on the built CLI against the scripted
// model: the answer streams as volatile `message.delta` events (text and thinking) that name their message, are
// never replayed, and carry no SSE id.
import Ajv2020 from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCliDirs, mockModelEnv, waitUntil, type CliDirs } from '../helpers/cli';
import { startMockModelServer, type MockModelServer, type ScriptedTurn } from '../helpers/mockModelServer';
import { EVENT_SCHEMAS } from '../../src/server/eventSchemas';
import { api, startServe, WsClient, type Served, type WsFrame } from '../helpers/serveProcess';

let model: MockModelServer;
let dirs: CliDirs;
let served: Served;
let sid: string;
let watcher: WsClient;

const ANSWER = 'The answer streams in small pieces, then arrives whole.';
const THOUGHT = 'Considering how to answer briefly.';

function turnFor(messages: Array<{ role: string; content: unknown }>): ScriptedTurn {
  const text = JSON.stringify(messages.filter((m) => m.role === 'user').at(-1)?.content ?? '');
  if (text.includes('stream please')) return { thinking: THOUGHT, text: ANSWER };
  return { text: 'plain answer' };
}

const ajv = new Ajv2020({ strict: false });
/** The payload matches the schema /openapi.json publishes for its event. */
function expectDescribed(frame: WsFrame): void {
  const validate =
    ajv.getSchema(frame.type) ?? (ajv.addSchema(EVENT_SCHEMAS[frame.type], frame.type), ajv.getSchema(frame.type)!);
  expect(validate(frame.payload), `${frame.type}: ${JSON.stringify(validate.errors)}`).toBe(true);
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
  served = await startServe(dirs, mockModelEnv(model.baseUrlFor('openai')));
  sid = (await api(served, 'POST', '/api/v1/sessions', {})).data.session_id as string;
  watcher = await WsClient.connect(served, 'watcher');
  await watcher.request('subscribe', { session_ids: [sid] });
}, 60_000);

afterAll(async () => {
  watcher?.close();
  await served?.stop();
  await model?.close();
});

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
});
