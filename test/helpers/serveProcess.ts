// `jarvis serve --port 0` as a child process on the built CLI, and small clients for it (HTTP with the envelope, a
// WebSocket that records every frame) for test/server/*.
import type { ChildProcess } from 'node:child_process';
import WebSocket from 'ws';
import { cliEnv, spawnJarvis, waitUntil, type CliDirs } from './cli';

export interface Served {
  child: ChildProcess;
  url: string;
  port: number;
  token: string;
  stdout: () => string;
  stderr: () => string;
  stop(): Promise<void>;
}

/** `command` 'web': `jarvis web` (test/helpers/webProcess.ts), ready once it printed its login link. */
export async function startServe(
  dirs: CliDirs,
  env: Record<string, string>,
  args: string[] = [],
  command: 'serve' | 'web' = 'serve',
): Promise<Served> {
  const child = spawnJarvis([command, '--port', '0', ...args], { env: cliEnv(dirs, env), cwd: dirs.cwd });
  const ready = command === 'web' ? /#login=\S+/ : /Token: \S+/;
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  let exited = false;
  child.on('exit', () => (exited = true));
  await waitUntil(() => ready.test(out) || exited, 30_000, `jarvis ${command} to start\n${err}`);
  if (exited) throw new Error(`jarvis ${command} exited:\n${out}\n${err}`);
  const url = /Jarvis server at (\S+)/.exec(out)![1];
  const token = /Token: (\S+)/.exec(out)![1];
  return {
    child,
    url,
    port: Number(new URL(url).port),
    token,
    stdout: () => out,
    stderr: () => err,
    stop: async () => {
      if (exited) return;
      child.kill('SIGTERM');
      await waitUntil(() => exited, 20_000, 'jarvis serve to stop');
    },
  };
}

export interface Envelope<T = Record<string, unknown>> {
  status: number;
  code: number;
  msg: string;
  data: T;
  request_id: string;
}

export async function api<T = Record<string, unknown>>(
  s: Served,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Envelope<T>> {
  const res = await fetch(s.url + path, {
    method,
    headers: {
      authorization: `Bearer ${s.token}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as Omit<Envelope<T>, 'status'>;
  return { status: res.status, ...json };
}

export interface WsFrame {
  type: string;
  seq?: number;
  id?: unknown;
  code?: number;
  session_id?: string;
  payload: Record<string, unknown> & { type?: string; role?: string };
}

export class WsClient {
  readonly frames: WsFrame[] = [];
  closed = false;
  private nextId = 1;
  private constructor(readonly socket: WebSocket) {
    socket.on('message', (d) => this.frames.push(JSON.parse(String(d)) as WsFrame));
    socket.on('close', () => (this.closed = true));
  }

  static async connect(s: Served, clientId?: string): Promise<WsClient> {
    const socket = new WebSocket(`${s.url.replace('http', 'ws')}/api/v1/ws`, [`jarvis-code.bearer.${s.token}`]);
    // Listening from the start: the server's hello can come in the same packet as the upgrade's answer.
    const c = new WsClient(socket);
    await new Promise<void>((ok, fail) => {
      socket.once('open', () => ok());
      socket.once('error', fail);
    });
    await c.waitFor((f) => f.type === 'server_hello');
    if (clientId) await c.request('client_hello', { client_id: clientId });
    return c;
  }

  async request(type: string, payload: unknown): Promise<WsFrame> {
    const id = this.nextId++;
    this.socket.send(JSON.stringify({ type, id, payload }));
    return this.waitFor((f) => f.type === 'ack' && f.id === id);
  }

  async waitFor(check: (f: WsFrame) => boolean, what = 'a frame', timeoutMs = 30_000): Promise<WsFrame> {
    await waitUntil(
      () => this.frames.some(check),
      timeoutMs,
      `${what}; got ${JSON.stringify(this.frames.map((f) => f.type))}`,
    );
    return this.frames.find(check)!;
  }

  events(sessionId: string): WsFrame[] {
    return this.frames.filter((f) => f.session_id === sessionId && typeof f.seq === 'number' && f.seq > 0);
  }

  close(): void {
    this.socket.close();
  }
}

/** A new session on `s` and a WebSocket client named `watcher` subscribed to it: test/server/*'s common set-up. */
export async function watchedSession(s: Served): Promise<{ sid: string; watcher: WsClient }> {
  const sid = (await api(s, 'POST', '/api/v1/sessions', {})).data.session_id as string;
  const watcher = await WsClient.connect(s, 'watcher');
  await watcher.request('subscribe', { session_ids: [sid] });
  return { sid, watcher };
}

/** Ends what a serve test started, whichever of them did start. */
export async function stopServed(
  watcher: WsClient | undefined,
  served: Served | undefined,
  model: { close(): Promise<void> } | undefined,
): Promise<void> {
  watcher?.close();
  await served?.stop();
  await model?.close();
}
