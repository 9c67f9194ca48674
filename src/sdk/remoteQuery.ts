// `query({ prompt, options: { server: { url, token } } })` (docs/server.md "From the SDK"): the same messages and
// controls from a remote `jarvis serve`. The session is created there (or resumed, or forked), the prompt submitted
// over HTTP, and the session's `message` events read from the WebSocket between this prompt's `prompt.started` and
// `prompt.completed`; approvals asked meanwhile go to canUseTool and are answered over the API (without canUseTool
// they wait for another client, a browser say). close() aborts a running prompt; the session stays on the server.
import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import type { Dispatcher } from 'undici';
import { STREAM_JSON_VERSION } from '../engine/runtime/streamJson';
import { RunResultRecorder } from '../engine/runtime/runResult';
import { EXIT_FAILURE } from '../engine/runtime/headlessRun';
import type { Options, PermissionMode, Query, QueryArgs, SDKMessage, UserMessage } from './api';
import { MessageQueue } from './messageQueue';

interface Envelope {
  code: number;
  msg: string;
  data: Record<string, unknown>;
}

interface EventFrame {
  type: string;
  id?: unknown;
  code?: number;
  msg?: string;
  seq?: number;
  session_id?: string;
  payload: Record<string, unknown>;
}

class ServerApiError extends Error {}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function modeBody(mode: PermissionMode): Record<string, unknown> {
  return mode === 'plan' ? { plan_mode: true } : { permission_mode: mode, plan_mode: false };
}

/** The prompt this query is waiting on. */
interface RemotePrompt {
  promptId: string;
  started: boolean;
  submitted?: Promise<unknown>;
  done: () => void;
  aborting: AbortController;
}

class RemoteQuery implements Query {
  private readonly queue = new MessageQueue<SDKMessage>();
  private readonly base: string;
  private readonly token: string;
  private socket: WebSocket | undefined;
  private sessionId: string | undefined;
  private started = false;
  private closed = false;
  private finished: Promise<void> | undefined;
  private current: RemotePrompt | undefined;
  private readonly closedSignal = new AbortController();
  private nextFrame = 1;
  private readonly acks = new Map<number, (f: EventFrame) => void>();
  /** This query's own connections to the server (bundled undici), closed with it: no socket outlives the query. */
  private http: { fetch: typeof import('undici').fetch; pool: Dispatcher } | undefined;

  constructor(
    private readonly prompt: QueryArgs['prompt'],
    private readonly options: Options,
  ) {
    const server = options.server!;
    if (typeof server.url !== 'string' || !/^https?:\/\//.test(server.url))
      throw new TypeError('options.server.url must be the http:// address `jarvis serve` printed');
    if (typeof server.token !== 'string' || !server.token)
      throw new TypeError('options.server.token is required: the token `jarvis serve` printed');
    for (const key of [
      'tools',
      'outputSchema',
      'maxTurns',
      'maxBudgetUsd',
      'timeoutMs',
      'provider',
      'hooks',
      'env',
    ] as const)
      if ((options as Record<string, unknown>)[key] !== undefined)
        throw new TypeError(`options.${key} is not available with options.server (the server runs the session)`);
    this.base = server.url.replace(/\/+$/, '');
    this.token = server.token;
    const abort = options.abortController?.signal;
    if (abort?.aborted) this.closed = true;
    else abort?.addEventListener('abort', () => void this.close(), { once: true, signal: this.closedSignal.signal });
  }

  [Symbol.asyncIterator](): AsyncIterator<SDKMessage> {
    if (!this.started) {
      this.started = true;
      if (this.closed) this.queue.end();
      else
        this.finished = this.main()
          .catch((e: unknown) => this.failed(messageOf(e)))
          .finally(async () => {
            await this.closeSocket();
            await this.http?.pool.close();
            this.queue.end();
          });
    }
    return {
      next: () => this.queue.next(),
      return: async () => {
        await this.close();
        return { done: true, value: undefined };
      },
    };
  }

  private failed(message: string): void {
    this.queue.push({ type: 'error', message });
    const recorder = new RunResultRecorder();
    if (this.sessionId) recorder.session(this.sessionId, this.options.model ?? '');
    recorder.error(message);
    this.queue.push(recorder.build(EXIT_FAILURE));
  }

  private async call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Record<string, unknown>> {
    if (!this.http) {
      const undici = await import('undici');
      const u = (undici.Agent ? undici : undici.default) as typeof undici;
      this.http = { fetch: u.fetch, pool: new u.Agent() };
    }
    const res = await this.http.fetch(this.base + path, {
      dispatcher: this.http.pool,
      method,
      headers: {
        authorization: `Bearer ${this.token}`,
        'x-client-id': 'sdk',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    let env: Envelope;
    try {
      env = (await res.json()) as Envelope;
    } catch {
      throw new ServerApiError(`${method} ${path}: the server answered HTTP ${res.status} without JSON`);
    }
    if (env.code !== 0) throw new ServerApiError(`${method} ${path}: ${env.msg} (code ${env.code})`);
    return env.data;
  }

  private async connect(): Promise<void> {
    const url = `${this.base.replace(/^http/, 'ws')}/api/v1/ws`;
    const socket = new WebSocket(url, ['jarvis-code.v2', `jarvis-code.bearer.${this.token}`]);
    this.socket = socket;
    socket.on('message', (data) => this.onFrame(JSON.parse(String(data)) as EventFrame));
    await new Promise<void>((ok, fail) => {
      socket.once('open', () => ok());
      socket.once('unexpected-response', (_req, res) =>
        fail(new ServerApiError(`the WebSocket was refused: HTTP ${res.statusCode}`)),
      );
      socket.once('error', fail);
    });
    socket.on('close', () => {
      if (!this.closed && this.current) {
        this.failed('the connection to the server closed during the run');
        this.current.done();
      }
    });
  }

  private closeSocket(): Promise<void> {
    const socket = this.socket;
    if (!socket || socket.readyState === socket.CLOSED) return Promise.resolve();
    return new Promise((done) => {
      socket.once('close', () => done());
      socket.close();
    });
  }

  private frame(type: string, payload: unknown): Promise<EventFrame> {
    const id = this.nextFrame++;
    return new Promise((resolve) => {
      this.acks.set(id, resolve);
      this.socket!.send(JSON.stringify({ type, id, payload }));
    });
  }

  private onFrame(f: EventFrame): void {
    if (f.type === 'ack' && typeof f.id === 'number') {
      this.acks.get(f.id)?.(f);
      this.acks.delete(f.id);
      return;
    }
    if (f.session_id !== this.sessionId || !this.current) return;
    const p = f.payload;
    if (f.type === 'prompt.started' && p.prompt_id === this.current.promptId) this.current.started = true;
    // Only what belongs to this query's prompt: other clients may prompt the same session.
    if (!this.current.started) return;
    if (f.type === 'message') this.queue.push(p as unknown as SDKMessage);
    else if (f.type === 'event.approval.requested') void this.approve(p);
    else if (f.type === 'prompt.completed' && p.prompt_id === this.current.promptId) this.current.done();
  }

  private async approve(p: Record<string, unknown>): Promise<void> {
    const canUseTool = this.options.canUseTool;
    if (!canUseTool || !this.current) return;
    const path = `/api/v1/sessions/${this.sessionId}/approvals/${String(p.approval_id)}`;
    let body: Record<string, unknown>;
    try {
      const input = (p.args && typeof p.args === 'object' ? p.args : {}) as Record<string, unknown>;
      const answer = await canUseTool(String(p.tool), input, {
        signal: this.current.aborting.signal,
        subject: String(p.subject),
        reason: String(p.reason),
      });
      if (answer?.behavior === 'allow')
        body = answer.updatedInput
          ? { decision: 'approved', updated_input: answer.updatedInput }
          : { decision: 'approved' };
      else if (answer?.behavior === 'deny')
        body = { decision: answer.interrupt ? 'cancelled' : 'rejected', feedback: answer.message || 'Denied.' };
      else throw new Error("canUseTool returned neither { behavior: 'allow' } nor { behavior: 'deny' }");
    } catch (e) {
      this.queue.push({ type: 'error', message: `canUseTool failed for ${String(p.subject)}: ${messageOf(e)}` });
      body = { decision: 'cancelled', feedback: 'The approval check failed, so the call did not run.' };
    }
    try {
      await this.call('POST', path, body);
    } catch (e) {
      // Another client answered first (40902) or it expired: the resolution event tells what happened.
      if (!/code 40902|code 41001/.test(messageOf(e))) this.queue.push({ type: 'error', message: messageOf(e) });
    }
  }

  private async main(): Promise<void> {
    const o = this.options;
    let status: Record<string, unknown>;
    if (o.resume) {
      const id = o.forkSession
        ? ((await this.call('POST', `/api/v1/sessions/${o.resume}:fork`, {})).session_id as string)
        : o.resume;
      status = await this.call('GET', `/api/v1/sessions/${id}`);
      if (o.permissionMode)
        await this.call('POST', `/api/v1/sessions/${id}/profile`, { agent_config: modeBody(o.permissionMode) });
      if (o.model) await this.call('POST', `/api/v1/sessions/${id}/profile`, { agent_config: { model: o.model } });
    } else {
      status = await this.call('POST', '/api/v1/sessions', {
        ...(o.cwd ? { metadata: { cwd: o.cwd } } : {}),
        ...(o.model ? { model: o.model } : {}),
        ...(o.permissionMode ? modeBody(o.permissionMode) : {}),
      });
    }
    this.sessionId = status.session_id as string;
    await this.connect();
    const ack = await this.frame('subscribe', {
      session_ids: [this.sessionId],
      cursors: { [this.sessionId]: status.last_seq },
    });
    if (ack.code !== 0) throw new ServerApiError(`subscribing failed: ${ack.msg}`);
    this.queue.push({
      type: 'init',
      version: STREAM_JSON_VERSION,
      session_id: this.sessionId,
      model: String(status.model_id ?? ''),
      cwd: String(status.cwd),
    });
    if (typeof this.prompt === 'string') return this.run(this.prompt);
    for await (const m of this.prompt as AsyncIterable<UserMessage>) {
      if (this.closed) break;
      if (m?.type !== 'user' || typeof m.content !== 'string') {
        this.queue.push({
          type: 'error',
          message: 'a prompt message must be { type: "user", content: string }; this one was skipped',
        });
        continue;
      }
      await this.run(m.content);
    }
  }

  private async run(text: string): Promise<void> {
    if (this.closed) return;
    let done!: () => void;
    const finished = new Promise<void>((r) => (done = r));
    // The prompt's id is chosen here, so its events are known even if they arrive before the HTTP answer.
    const promptId = `sdk_${randomUUID().replace(/-/g, '')}`;
    this.current = { promptId, started: false, done, aborting: new AbortController() };
    try {
      this.current.submitted = this.call('POST', `/api/v1/sessions/${this.sessionId}/prompts`, {
        content: [{ type: 'text', text }],
        prompt_id: promptId,
      });
      await this.current.submitted;
    } catch (e) {
      this.current = undefined;
      throw e;
    }
    await finished;
    this.current.aborting.abort();
    this.current = undefined;
  }

  /** Stops this query's prompt: running, its turn is interrupted; still queued behind another client's, dropped. */
  async interrupt(): Promise<void> {
    const current = this.current;
    if (!this.sessionId || !current) return;
    await current.submitted;
    try {
      await this.call('POST', `/api/v1/sessions/${this.sessionId}/prompts/${current.promptId}:abort`, {});
    } catch (e) {
      // It ended meanwhile (40903): nothing to stop.
      if (!/code 40903/.test(messageOf(e))) throw e;
    }
  }

  async setPermissionMode(mode: PermissionMode): Promise<void> {
    if (!['manual', 'auto', 'yolo', 'plan'].includes(mode))
      throw new TypeError(`setPermissionMode: expected manual, auto, yolo or plan, got ${String(mode)}`);
    if (!this.sessionId) throw new Error('the session has not started yet: iterate the query first');
    await this.call('POST', `/api/v1/sessions/${this.sessionId}/profile`, { agent_config: modeBody(mode) });
  }

  async setModel(model: string): Promise<void> {
    if (typeof model !== 'string' || !model) throw new TypeError('setModel: give a model alias or id');
    if (!this.sessionId) throw new Error('the session has not started yet: iterate the query first');
    await this.call('POST', `/api/v1/sessions/${this.sessionId}/profile`, { agent_config: { model } });
  }

  async close(): Promise<void> {
    if (!this.closed) {
      this.closed = true;
      this.closedSignal.abort();
      if (this.current) {
        await this.interrupt().catch(() => undefined);
        this.current?.done();
      }
    }
    await this.finished;
    await this.closeSocket();
    this.queue.end();
  }
}

export function remoteQuery(args: QueryArgs): Query {
  if (typeof args.prompt === 'string' && !args.prompt.trim()) throw new TypeError('query(): prompt is empty');
  return new RemoteQuery(args.prompt, args.options ?? {});
}
