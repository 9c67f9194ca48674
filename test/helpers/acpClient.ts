// Drives a spawned `jarvis acp` the way an editor does, with the official SDK's client side: records
// every session update, answers permission requests and file requests as the test says, and keeps the
// raw stdout so a test can check that it carries nothing but JSON-RPC.
import type { ChildProcess } from 'node:child_process';
import { PassThrough, Readable, Writable } from 'node:stream';
import {
  client,
  ndJsonStream,
  PROTOCOL_VERSION,
  type ClientCapabilities,
  type ClientConnection,
  type InitializeResponse,
  type RequestPermissionRequest,
  type SessionNotification,
  type WriteTextFileRequest,
} from '@agentclientprotocol/sdk';
import { spawnJarvis, type Launcher } from './cli';

export interface AcpTestClient {
  child: ChildProcess;
  connection: ClientConnection;
  initialized: InitializeResponse;
  updates: SessionNotification[];
  permissionRequests: RequestPermissionRequest[];
  writes: WriteTextFileRequest[];
  /** Everything the agent wrote to stdout, as it came. */
  rawStdout(): string;
  stderr(): string;
  /** Which option the next permission requests pick (an option id, or 'cancelled'), or a function that decides per request. */
  answerPermissions(choice: string | ((request: RequestPermissionRequest) => string)): void;
  close(): Promise<void>;
}

export interface AcpClientOptions {
  env: NodeJS.ProcessEnv;
  cwd: string;
  capabilities?: ClientCapabilities;
  /** File contents the editor holds (fs/read_text_file answers from here first). */
  buffers?: Map<string, string>;
  /** How `jarvis acp` is started (as another user, say); directly by default. */
  launcher?: Launcher;
}

export async function startAcpClient(opts: AcpClientOptions): Promise<AcpTestClient> {
  const launcher = opts.launcher ? { launcher: opts.launcher } : {};
  const child = spawnJarvis(['acp'], { env: opts.env, cwd: opts.cwd, keepStdinOpen: true, ...launcher });
  let raw = '';
  let stderr = '';
  const fromAgent = new PassThrough();
  child.stdout!.on('data', (d: Buffer) => {
    raw += d.toString('utf8');
    fromAgent.write(d);
  });
  child.stdout!.on('end', () => fromAgent.end());
  child.stderr!.on('data', (d) => (stderr += d));
  const updates: SessionNotification[] = [];
  const permissionRequests: RequestPermissionRequest[] = [];
  const writes: WriteTextFileRequest[] = [];
  let choice: string | ((request: RequestPermissionRequest) => string) = 'allow_once';
  const app = client({ name: 'jarvis-test-editor' })
    .onNotification('session/update', ({ params }) => {
      updates.push(params);
    })
    .onRequest('session/request_permission', ({ params }) => {
      permissionRequests.push(params);
      const picked = typeof choice === 'function' ? choice(params) : choice;
      return { outcome: picked === 'cancelled' ? { outcome: 'cancelled' } : { outcome: 'selected', optionId: picked } };
    })
    .onRequest('fs/write_text_file', ({ params }) => {
      writes.push(params);
      opts.buffers?.set(params.path, params.content);
      return {};
    })
    .onRequest('fs/read_text_file', ({ params }) => {
      const text = opts.buffers?.get(params.path);
      if (text === undefined) throw new Error(`no buffer for ${params.path}`);
      return { content: text };
    });
  const stream = ndJsonStream(
    Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>,
    Readable.toWeb(fromAgent) as ReadableStream<Uint8Array>,
  );
  const connection = app.connect(stream);
  const initialized = await connection.agent.request('initialize', {
    protocolVersion: PROTOCOL_VERSION,
    clientCapabilities: opts.capabilities ?? {},
    clientInfo: { name: 'jarvis-test-editor', version: '1.0.0' },
  });
  return {
    child,
    connection,
    initialized,
    updates,
    permissionRequests,
    writes,
    rawStdout: () => raw,
    stderr: () => stderr,
    answerPermissions(next) {
      choice = next;
    },
    async close() {
      const exited = new Promise<void>((resolve) =>
        child.exitCode !== null ? resolve() : child.once('exit', () => resolve()),
      );
      connection.close();
      child.stdin!.end();
      await exited;
    },
  };
}

/** The text of a session's agent_message_chunk updates, in order. */
export function agentText(updates: readonly SessionNotification[], sessionId: string): string {
  return updates
    .filter((u) => u.sessionId === sessionId && u.update.sessionUpdate === 'agent_message_chunk')
    .map((u) =>
      u.update.sessionUpdate === 'agent_message_chunk' && u.update.content.type === 'text' ? u.update.content.text : '',
    )
    .join('');
}
