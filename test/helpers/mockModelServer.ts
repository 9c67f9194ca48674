// A loopback model server for tests and benchmarks. It speaks just enough of three wire protocols —
// OpenAI Chat Completions, OpenAI Responses and Anthropic Messages, all as SSE — for the official SDKs
// to talk to it, and plays scripted turns: text, thinking, tool calls, usage, HTTP errors, garbled or
// truncated streams and requests that never get an answer. Plain Node only (no vitest imports): the
// benchmark bundles it with esbuild.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptedToolCall {
  /** Omitted: the server makes up a realistic id. Empty string: the call is sent without an id. */
  id?: string;
  name: string;
  arguments: string | Record<string, unknown>;
}

export interface ScriptedTurn {
  text?: string;
  thinking?: string;
  toolCalls?: ScriptedToolCall[];
  /** `cost`: put in the usage object as OpenRouter does (`usage.cost`, USD; any JSON value, to test bad ones). */
  usage?: { input: number; output: number; cost?: unknown };
  /** Extra headers of the 200 response, e.g. LiteLLM's `x-litellm-response-cost`. */
  responseHeaders?: Record<string, string>;
  /** An HTTP error response instead of a stream. */
  error?: { status: number; body?: unknown; headers?: Record<string, string> };
  /** Send a corrupted SSE chunk mid-stream (then end the response). */
  garble?: boolean;
  /** End the stream early, without the finish event. */
  truncate?: boolean;
  /** Stream everything before the finish event, then go silent with the connection open (a stalled stream). */
  stall?: boolean;
  /** Accept the request and never answer (for time-outs and aborts). */
  hang?: boolean;
  /** Delay between SSE chunks. */
  chunkDelayMs?: number;
  /** Delay before the response headers. */
  headersDelayMs?: number;
  /** Awaited before answering: the model "thinks" until a condition holds (the caller bounds it). */
  before?: () => Promise<void>;
}

export interface RecordedRequest {
  path: string;
  headers: Record<string, string>;
  // The parsed JSON body as the client sent it: tests assert on arbitrary wire fields.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  at: number;
  /** When the client closed the connection before the server finished answering (an abort, a time-out). */
  abandonedAt?: number;
  /** How many stream frames were written so far (a test can act mid-stream without timing it). */
  framesSent?: number;
}

/** The text of the result of tool call `id` as the model received it, from the first request that carries it. */
export function toolResultIn(requests: readonly RecordedRequest[], id: string): string {
  for (const req of requests) {
    const found = (req.body.messages as Array<{ role: string; tool_call_id?: string; content: unknown }>).find(
      (m) => m.role === 'tool' && m.tool_call_id === id,
    );
    if (found) return typeof found.content === 'string' ? found.content : JSON.stringify(found.content);
  }
  throw new Error(`no result for ${id}`);
}

export type MockProtocol = 'openai' | 'openai_responses' | 'anthropic' | 'kimi';

export interface MockModelServer {
  /** http://127.0.0.1:PORT */
  url: string;
  /** What to put in base_url for a provider of this type. */
  baseUrlFor(type: MockProtocol): string;
  requests: RecordedRequest[];
  /** Queue more turns. */
  push(...turns: ScriptedTurn[]): void;
  remaining(): number;
  close(): Promise<void>;
}

export interface MockModelServerOptions {
  turns?: ScriptedTurn[];
  /** Called when the queue is empty, to make up the turn for a request. */
  script?: (req: RecordedRequest, index: number) => ScriptedTurn;
}

type Wire = 'chat' | 'responses' | 'messages';

interface Frames {
  frames: string[];
  /** Index of the first frame that tells the client the response is complete. */
  finishAt: number;
}

const NO_TURN_LEFT = 'mock model server: no scripted turn left';

function splitText(text: string): string[] {
  if (!text) return [];
  const size = Math.max(1, Math.min(8, Math.ceil(text.length / 3)));
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  return pieces;
}

function splitInThree(text: string): string[] {
  if (text.length < 3) return [text];
  const third = Math.ceil(text.length / 3);
  return [text.slice(0, third), text.slice(third, 2 * third), text.slice(2 * third)];
}

function argsText(call: ScriptedToolCall): string {
  return typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
}

function data(payload: unknown): string {
  return `data: ${JSON.stringify(payload)}\n\n`;
}

function event(type: string, payload: Record<string, unknown>): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...payload })}\n\n`;
}

interface TurnContext {
  turn: ScriptedTurn;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the request body as the client sent it
  body: any;
  n: number;
  calls: { id: string; name: string; args: string }[];
  usage: { input: number; output: number; cost?: unknown };
}

/** OpenRouter's `usage.cost`, only when the turn asks for it. */
function costField(usage: TurnContext['usage']): Record<string, unknown> {
  return usage.cost === undefined ? {} : { cost: usage.cost };
}

function chatFrames({ turn, body, n, calls, usage }: TurnContext): Frames {
  const base = {
    id: `chatcmpl-mock-${n}`,
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model: body?.model ?? 'mock',
  };
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    data({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] });
  const frames = [chunk({ role: 'assistant', content: '' })];
  for (const piece of splitText(turn.thinking ?? '')) frames.push(chunk({ reasoning_content: piece }));
  for (const piece of splitText(turn.text ?? '')) frames.push(chunk({ content: piece }));
  // Announce every call, then interleave their argument pieces, as parallel calls can arrive.
  calls.forEach((call, index) => {
    frames.push(
      chunk({
        tool_calls: [
          {
            index,
            ...(call.id ? { id: call.id } : {}),
            type: 'function',
            function: { name: call.name, arguments: '' },
          },
        ],
      }),
    );
  });
  const pieces = calls.map((c) => splitInThree(c.args));
  for (let round = 0; round < 3; round++) {
    pieces.forEach((p, index) => {
      if (p[round]) frames.push(chunk({ tool_calls: [{ index, function: { arguments: p[round] } }] }));
    });
  }
  const finishAt = frames.length;
  frames.push(chunk({}, calls.length > 0 ? 'tool_calls' : 'stop'));
  if (body?.stream_options?.include_usage) {
    frames.push(
      data({
        ...base,
        choices: [],
        usage: {
          prompt_tokens: usage.input,
          completion_tokens: usage.output,
          total_tokens: usage.input + usage.output,
          ...costField(usage),
        },
      }),
    );
  }
  frames.push('data: [DONE]\n\n');
  return { frames, finishAt };
}

function responsesFrames({ turn, body, n, calls, usage }: TurnContext): Frames {
  let seq = 0;
  const ev = (type: string, payload: Record<string, unknown>) => event(type, { sequence_number: seq++, ...payload });
  const response = {
    id: `resp_mock_${n}`,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    model: body?.model ?? 'mock',
    status: 'in_progress',
    output: [] as unknown[],
    usage: null as unknown,
    error: null,
    incomplete_details: null,
  };
  const frames = [ev('response.created', { response }), ev('response.in_progress', { response })];
  const output: unknown[] = [];
  if (turn.thinking) {
    const item = { type: 'reasoning', id: `rs_mock_${n}`, summary: [] as unknown[] };
    const ref = { item_id: item.id, output_index: output.length, summary_index: 0 };
    frames.push(ev('response.output_item.added', { output_index: output.length, item }));
    frames.push(ev('response.reasoning_summary_part.added', { ...ref, part: { type: 'summary_text', text: '' } }));
    for (const delta of splitText(turn.thinking))
      frames.push(ev('response.reasoning_summary_text.delta', { ...ref, delta }));
    frames.push(ev('response.reasoning_summary_text.done', { ...ref, text: turn.thinking }));
    frames.push(
      ev('response.reasoning_summary_part.done', { ...ref, part: { type: 'summary_text', text: turn.thinking } }),
    );
    const done = { ...item, summary: [{ type: 'summary_text', text: turn.thinking }] };
    frames.push(ev('response.output_item.done', { output_index: output.length, item: done }));
    output.push(done);
  }
  if (turn.text) {
    const item = {
      type: 'message',
      id: `msg_mock_${n}`,
      status: 'in_progress',
      role: 'assistant',
      content: [] as unknown[],
    };
    const ref = { item_id: item.id, output_index: output.length, content_index: 0 };
    frames.push(ev('response.output_item.added', { output_index: output.length, item }));
    frames.push(
      ev('response.content_part.added', { ...ref, part: { type: 'output_text', text: '', annotations: [] } }),
    );
    for (const delta of splitText(turn.text))
      frames.push(ev('response.output_text.delta', { ...ref, delta, logprobs: [] }));
    frames.push(ev('response.output_text.done', { ...ref, text: turn.text, logprobs: [] }));
    const part = { type: 'output_text', text: turn.text, annotations: [] };
    frames.push(ev('response.content_part.done', { ...ref, part }));
    const done = { ...item, status: 'completed', content: [part] };
    frames.push(ev('response.output_item.done', { output_index: output.length, item: done }));
    output.push(done);
  }
  calls.forEach((call, i) => {
    const item = {
      type: 'function_call',
      id: `fc_mock_${n}_${i}`,
      call_id: call.id,
      name: call.name,
      arguments: '',
      status: 'in_progress',
    };
    const ref = { item_id: item.id, output_index: output.length };
    frames.push(ev('response.output_item.added', { output_index: output.length, item }));
    for (const delta of splitInThree(call.args))
      frames.push(ev('response.function_call_arguments.delta', { ...ref, delta }));
    frames.push(ev('response.function_call_arguments.done', { ...ref, arguments: call.args }));
    const done = { ...item, arguments: call.args, status: 'completed' };
    frames.push(ev('response.output_item.done', { output_index: output.length, item: done }));
    output.push(done);
  });
  const finishAt = frames.length;
  const wireUsage = {
    input_tokens: usage.input,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: usage.output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: usage.input + usage.output,
    ...costField(usage),
  };
  frames.push(ev('response.completed', { response: { ...response, status: 'completed', output, usage: wireUsage } }));
  return { frames, finishAt };
}

function messagesFrames({ turn, body, n, calls, usage }: TurnContext): Frames {
  const frames = [
    event('message_start', {
      message: {
        id: `msg_mock_${n}`,
        type: 'message',
        role: 'assistant',
        model: body?.model ?? 'mock',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: {
          input_tokens: usage.input,
          output_tokens: 1,
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: 0,
        },
      },
    }),
    event('ping', {}),
  ];
  let index = 0;
  const block = (contentBlock: Record<string, unknown>, deltas: Record<string, unknown>[]) => {
    frames.push(event('content_block_start', { index, content_block: contentBlock }));
    for (const delta of deltas) frames.push(event('content_block_delta', { index, delta }));
    frames.push(event('content_block_stop', { index }));
    index++;
  };
  if (turn.thinking) {
    const deltas: Record<string, unknown>[] = splitText(turn.thinking).map((thinking) => ({
      type: 'thinking_delta',
      thinking,
    }));
    deltas.push({ type: 'signature_delta', signature: `sig_mock_${n}` });
    block({ type: 'thinking', thinking: '', signature: '' }, deltas);
  }
  if (turn.text)
    block(
      { type: 'text', text: '' },
      splitText(turn.text).map((text) => ({ type: 'text_delta', text })),
    );
  for (const call of calls) {
    block(
      { type: 'tool_use', id: call.id, name: call.name, input: {} },
      splitInThree(call.args).map((partial_json) => ({ type: 'input_json_delta', partial_json })),
    );
  }
  const finishAt = frames.length;
  frames.push(
    event('message_delta', {
      delta: { stop_reason: calls.length > 0 ? 'tool_use' : 'end_turn', stop_sequence: null },
      usage: { output_tokens: usage.output },
    }),
  );
  frames.push(event('message_stop', {}));
  return { frames, finishAt };
}

const GARBLED: Record<Wire, string> = {
  chat: 'data: {"id":"chatcmpl-mock","choices":[{"index":0,"delta":{"content":"tru\n\n',
  responses: 'event: response.output_text.delta\ndata: {"type":"response.output_text.delta","delta":"tru\n\n',
  messages: 'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_d\n\n',
};

function errorBody(wire: Wire, status: number, message: string): unknown {
  if (wire === 'messages') {
    const type =
      status === 401
        ? 'authentication_error'
        : status === 429
          ? 'rate_limit_error'
          : status === 529
            ? 'overloaded_error'
            : status >= 500
              ? 'api_error'
              : 'invalid_request_error';
    return { type: 'error', error: { type, message } };
  }
  return { error: { message, type: status >= 500 ? 'server_error' : 'invalid_request_error', code: null } };
}

function wireOf(path: string): Wire | undefined {
  if (path.endsWith('/chat/completions')) return 'chat';
  if (path.endsWith('/responses')) return 'responses';
  if (path.endsWith('/messages')) return 'messages';
  return undefined;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export async function startMockModelServer(opts: MockModelServerOptions = {}): Promise<MockModelServer> {
  const queue: ScriptedTurn[] = [...(opts.turns ?? [])];
  const requests: RecordedRequest[] = [];
  let served = 0;
  let idCounter = 0;
  let closed = false;

  const wait = (ms: number, res: ServerResponse) =>
    new Promise<void>((resolve) => {
      const onClose = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        res.off('close', onClose);
        resolve();
      }, ms);
      res.once('close', onClose);
    });
  const gone = (res: ServerResponse) => closed || res.destroyed || res.writableEnded;

  async function serveTurn(
    wire: Wire,
    turn: ScriptedTurn,
    recorded: RecordedRequest,
    res: ServerResponse,
  ): Promise<void> {
    if (turn.headersDelayMs) await wait(turn.headersDelayMs, res);
    if (turn.hang || gone(res)) return; // keep the socket open; close() or the client ends it
    if (turn.error) {
      const { status, body, headers } = turn.error;
      res.writeHead(status, { 'content-type': 'application/json', ...(headers ?? {}) });
      res.end(JSON.stringify(body ?? errorBody(wire, status, `mock error ${status}`)));
      return;
    }
    const n = served;
    const prefix = wire === 'messages' ? 'toolu_mock_' : 'call_mock_';
    const calls = (turn.toolCalls ?? []).map((c) => ({
      id: c.id ?? `${prefix}${++idCounter}`,
      name: c.name,
      args: argsText(c),
    }));
    const produced = (turn.text ?? '') + (turn.thinking ?? '') + calls.map((c) => c.args).join('');
    const usage: TurnContext['usage'] = turn.usage ?? {
      input: Math.max(1, Math.ceil(JSON.stringify(recorded.body ?? '').length / 4)),
      output: Math.max(1, Math.ceil(produced.length / 4)),
    };
    const ctx: TurnContext = { turn, body: recorded.body, n, calls, usage };
    const { frames, finishAt } =
      wire === 'chat' ? chatFrames(ctx) : wire === 'responses' ? responsesFrames(ctx) : messagesFrames(ctx);
    let toSend = frames;
    if (turn.garble) toSend = [...frames.slice(0, Math.max(1, Math.floor(finishAt / 2))), GARBLED[wire]];
    else if (turn.truncate || turn.stall) toSend = frames.slice(0, finishAt);
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      ...(turn.responseHeaders ?? {}),
    });
    for (const frame of toSend) {
      if (gone(res)) return;
      res.write(frame);
      recorded.framesSent = (recorded.framesSent ?? 0) + 1;
      if (turn.chunkDelayMs) await wait(turn.chunkDelayMs, res);
    }
    if (turn.stall) return; // keep the socket open; the client's idle time-out or close() ends it
    if (!gone(res)) res.end();
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    const raw = await readBody(req);
    if (req.method === 'GET' && path.endsWith('/models')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          object: 'list',
          data: [
            { id: 'mock-model', object: 'model', created: 0, owned_by: 'mock' },
            { id: 'mock-model-large', object: 'model', created: 0, owned_by: 'mock' },
          ],
        }),
      );
      return;
    }
    const wire = req.method === 'POST' ? wireOf(path) : undefined;
    if (!wire) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `mock model server: no route for ${req.method} ${path}` } }));
      return;
    }
    let body: unknown = raw;
    try {
      body = JSON.parse(raw);
    } catch {
      // keep the raw text: the test will see what the client actually sent
    }
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers))
      if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
    const recorded: RecordedRequest = { path, headers, body, at: Date.now() };
    const index = requests.length;
    requests.push(recorded);
    res.once('close', () => {
      if (!res.writableEnded) recorded.abandonedAt = Date.now();
    });
    const turn = queue.shift() ?? opts.script?.(recorded, index);
    if (!turn) {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: NO_TURN_LEFT, type: 'server_error' } }));
      return;
    }
    served++;
    if (turn.before) await turn.before();
    await serveTurn(wire, turn, recorded, res);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `mock model server failed: ${String(err)}` } }));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    baseUrlFor: (type) => (type === 'anthropic' ? url : `${url}/v1`),
    requests,
    push: (...turns) => void queue.push(...turns),
    remaining: () => queue.length,
    close: async () => {
      closed = true;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
