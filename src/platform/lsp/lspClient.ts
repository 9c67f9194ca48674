// One running language server for one workspace root (docs/lsp.md): start and initialize, keep the open documents in
// sync, collect published diagnostics, answer position queries, and stop with a bound. A server that dies is marked
// crashed with its last stderr lines; it is not restarted.
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { spawnInGroup, terminateGroup } from '../processes';
import { channelStdio, feedChannels } from '../sandbox/sandboxChannels';
import type { ServerSpawn } from './lspPlacement';
import { LspConnection } from './lspConnection';
import type { LspDiagnostic } from './lspTypes';
import type { LspRequest } from './tsserverDiagnostics';

export interface LspLaunch {
  /** The server's name in `[lsp.servers.<name>]` ("typescript"). */
  name: string;
  command: string;
  args: readonly string[];
  root: string;
  languageId: (path: string) => string;
  initializationOptions?: unknown;
  env?: NodeJS.ProcessEnv;
  /** Asks for a file's diagnostics instead of waiting for a publication (typescript: tsserverDiagnostics.ts). */
  pull?: (request: LspRequest, path: string, signal: AbortSignal) => Promise<LspDiagnostic[]>;
  /**
   * The program actually started, when the server runs confined (the sandbox's `bwrap` running `command args`:
   * docs/lsp.md, "Where servers run"); without it `command args` start as they are.
   */
  spawn?: () => Promise<ServerSpawn>;
  /** Documents kept open at most; the least recently used one is closed past it (default MAX_OPEN_DOCUMENTS). */
  maxOpenDocuments?: number;
}

export type LspClientState = 'starting' | 'ready' | 'crashed' | 'stopped';

interface PublishedDiagnostics {
  /** Counts publications for this document, so a caller can wait for one that came after its change. */
  seq: number;
  version?: number;
  items: LspDiagnostic[];
}

/** How long `initialize` may take on a loaded machine before the server is given up as failed. */
const INITIALIZE_TIMEOUT_MS = 60_000;
/** After the first publication that follows a change, later ones within this quiet gap replace it (tsserver sends
 * syntactic and semantic results separately). */
const SETTLE_MS = 150;
const STDERR_TAIL_CHARS = 2_000;
/**
 * Documents a server keeps open: a file read long ago is closed (`didClose`) when a new one opens past this, so a
 * session that reads 400 files does not keep 400 in the server (docs/lsp.md).
 */
export const MAX_OPEN_DOCUMENTS = 50;

/** Why `ready` rejected when the session stopped the server before it was ready: not a failure. */
export const STOPPED_BEFORE_READY = 'stopped before it was ready';

export const fileUri = (path: string): string => pathToFileURL(path).href;

export class LspClient {
  state: LspClientState = 'starting';
  /** Why the server is unusable (crashed or failed to start), for /lsp, doctor and tool errors. */
  failure: string | undefined;
  /** What the server said it is in its `initialize` answer (name and version), for `jarvis doctor --online`. */
  serverInfo: { name?: string; version?: string } | undefined;
  readonly ready: Promise<void>;
  private child: ChildProcess | undefined;
  private connection: LspConnection | undefined;
  private stderrTail = '';
  /** The open documents, least recently used first. */
  private readonly documents = new Map<string, { version: number; text: string }>();
  /** Documents a caller is waiting on (never closed to make room while it waits). */
  private readonly inUse = new Map<string, number>();
  /** Work-done progress the server has begun and not ended (project loading, indexing). */
  private readonly progress = new Set<string>();
  private readonly diagnostics = new Map<string, PublishedDiagnostics>();
  private readonly waiters = new Set<() => void>();

  constructor(readonly launch: LspLaunch) {
    this.ready = this.start();
    // `ready` rejects when the start fails; every user awaits it and reports `failure` itself.
    this.ready.catch(() => undefined);
  }

  private async start(): Promise<void> {
    const { command, args, root } = this.launch;
    let spawned: ServerSpawn = { file: command, args, env: this.launch.env ?? process.env };
    if (this.launch.spawn) {
      try {
        spawned = await this.launch.spawn();
      } catch (e) {
        // Never started unconfined because its sandbox could not be built: said as the start's failure.
        this.fail(`could not start ${command} in the sandbox: ${(e as Error).message}`);
        throw new Error(this.failure);
      }
      if (this.state === 'stopped') throw new Error(STOPPED_BEFORE_READY);
    }
    const child = spawnInGroup(
      spawned.file,
      spawned.args,
      { cwd: root, env: spawned.env, stdin: 'pipe', own: 'service' },
      channelStdio(spawned),
    );
    feedChannels(child, spawned);
    this.child = child;
    const connection = new LspConnection(
      child.stdout!,
      child.stdin!,
      (method, params) => this.onNotification(method, params),
      (method, params) => this.onServerRequest(method, params),
    );
    this.connection = connection;
    child.stderr!.on('data', (d: Buffer) => {
      this.stderrTail = (this.stderrTail + d.toString('utf8')).slice(-STDERR_TAIL_CHARS);
    });
    const died = new Promise<never>((_, reject) => {
      child.once('error', (e) => {
        this.fail(`could not start ${command}: ${e.message}`);
        reject(new Error(this.failure));
      });
      child.once('exit', (code, signal) => {
        if (this.state !== 'stopped') this.fail(`${command} exited (${signal ?? `code ${code}`})${this.stderrNote()}`);
        reject(new Error(this.failure ?? STOPPED_BEFORE_READY));
      });
    });
    died.catch(() => undefined);
    const timeout = AbortSignal.timeout(INITIALIZE_TIMEOUT_MS);
    const init = connection.request('initialize', this.initializeParams(), timeout);
    try {
      const answer = (await Promise.race([init, died])) as { serverInfo?: { name?: string; version?: string } };
      this.serverInfo = answer?.serverInfo;
    } catch (e) {
      // Stopped by the session while starting (a short print run ends): nothing failed, and nothing is reported.
      if (this.state === 'stopped') throw new Error(STOPPED_BEFORE_READY);
      if (this.state === 'starting')
        this.fail(`${command} did not initialize: ${(e as Error).message}${this.stderrNote()}`);
      await this.stop();
      this.state = 'crashed';
      throw new Error(this.failure);
    }
    if (this.state === 'stopped') throw new Error(STOPPED_BEFORE_READY);
    connection.notify('initialized', {});
    this.state = 'ready';
  }

  private initializeParams(): object {
    const rootUri = fileUri(this.launch.root);
    return {
      // A sandboxed server has a PID namespace of its own, where our pid is not ours: it would think we are gone and
      // exit. Without one it stops with us anyway (--die-with-parent).
      processId: this.launch.spawn ? null : process.pid,
      clientInfo: { name: 'jarvis' },
      rootUri,
      workspaceFolders: [{ uri: rootUri, name: 'workspace' }],
      initializationOptions: this.launch.initializationOptions ?? {},
      capabilities: {
        workspace: { configuration: true, workspaceFolders: true, symbol: {} },
        textDocument: {
          synchronization: { didSave: false, dynamicRegistration: false },
          publishDiagnostics: { relatedInformation: false, versionSupport: true },
          definition: { linkSupport: true },
          references: {},
          hover: { contentFormat: ['plaintext', 'markdown'] },
          documentSymbol: { hierarchicalDocumentSymbolSupport: true },
        },
        // Progress tells when a server is loading the project (references wait for it; docs/lsp.md).
        window: { workDoneProgress: true },
      },
    };
  }

  private stderrNote(): string {
    const tail = this.stderrTail.trim().split('\n').slice(-5).join('\n');
    return tail ? `; its last output:\n${tail}` : '';
  }

  private fail(reason: string): void {
    if (this.state === 'crashed' || this.state === 'stopped') return;
    this.state = 'crashed';
    this.failure = reason;
    this.connection?.close(new Error(reason));
    this.wake();
  }

  private onNotification(method: string, params: unknown): void {
    if (method === '$/progress') return this.onProgress(params);
    if (method !== 'textDocument/publishDiagnostics') return;
    const p = params as { uri?: string; version?: number; diagnostics?: LspDiagnostic[] };
    if (typeof p?.uri !== 'string' || !Array.isArray(p.diagnostics)) return;
    const seq = (this.diagnostics.get(p.uri)?.seq ?? 0) + 1;
    this.diagnostics.set(p.uri, {
      seq,
      ...(typeof p.version === 'number' ? { version: p.version } : {}),
      items: p.diagnostics,
    });
    this.wake();
  }

  private onProgress(params: unknown): void {
    const p = params as { token?: unknown; value?: { kind?: unknown } } | undefined;
    if ((typeof p?.token !== 'string' && typeof p?.token !== 'number') || !p.value) return;
    const token = String(p.token);
    if (p.value.kind === 'begin') this.progress.add(token);
    else if (p.value.kind === 'end') this.progress.delete(token);
    this.wake();
  }

  /** Whether the server reports work in progress (loading or indexing the project). */
  get loading(): boolean {
    return this.progress.size > 0;
  }

  /** Resolves true once no work is in progress, false at the deadline or when the server stops. */
  whenIdle(deadline: number): Promise<boolean> {
    return this.waitUntil(() => this.progress.size === 0, deadline);
  }

  private onServerRequest(method: string, params: unknown): { result: unknown } | undefined {
    // The settings a server asks for: none of ours, so each section gets null (the server's defaults).
    if (method === 'workspace/configuration') {
      const items = (params as { items?: unknown[] })?.items;
      return { result: Array.isArray(items) ? items.map(() => null) : [] };
    }
    if (method === 'client/registerCapability' || method === 'client/unregisterCapability') return { result: null };
    if (method === 'window/workDoneProgress/create') return { result: null };
    if (method === 'workspace/workspaceFolders') return { result: [{ uri: fileUri(this.launch.root), name: 'root' }] };
    return undefined;
  }

  private wake(): void {
    for (const w of [...this.waiters]) w();
  }

  /** Resolves when `done()` holds, something changes and it holds then, or at the deadline (false). */
  private waitUntil(done: () => boolean, deadline: number): Promise<boolean> {
    if (done()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const finish = (ok: boolean) => {
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve(ok);
      };
      const check = () => {
        if (done()) finish(true);
        else if (this.state === 'crashed' || this.state === 'stopped') finish(false);
      };
      const timer = setTimeout(() => finish(done()), Math.max(0, deadline - Date.now()));
      this.waiters.add(check);
    });
  }

  isOpen(path: string): boolean {
    return this.documents.has(fileUri(path));
  }

  /** Whether the server has given diagnostics for `path` since it was opened (its first check is done). */
  checked(path: string): boolean {
    return this.diagnostics.has(fileUri(path));
  }

  /** Marks `uri` most recently used. */
  private touch(uri: string): void {
    const doc = this.documents.get(uri);
    if (!doc) return;
    this.documents.delete(uri);
    this.documents.set(uri, doc);
  }

  /** Closes the least recently used documents nobody waits on until at most `max` are open. */
  private closeSpare(max: number): void {
    for (const uri of [...this.documents.keys()]) {
      if (this.documents.size <= max) return;
      if (this.inUse.has(uri)) continue;
      this.documents.delete(uri);
      this.diagnostics.delete(uri);
      this.connection?.notify('textDocument/didClose', { textDocument: { uri } });
    }
  }

  /** The open documents as paths, with the text last sent for each. */
  openDocuments(): Array<{ path: string; text: string }> {
    return [...this.documents].map(([uri, doc]) => ({ path: fileURLToPath(uri), text: doc.text }));
  }

  openText(path: string): string | undefined {
    return this.documents.get(fileUri(path))?.text;
  }

  /** The latest diagnostics the server published for `path`, or undefined when none came yet. */
  published(path: string): LspDiagnostic[] | undefined {
    return this.diagnostics.get(fileUri(path))?.items;
  }

  /** Opens `path` with `text`, or sends the new text when it is open with other text; false when nothing changed. */
  update(path: string, text: string): boolean {
    if (this.state !== 'ready' || !this.connection) return false;
    const uri = fileUri(path);
    const doc = this.documents.get(uri);
    if (!doc) {
      // Room first, so the server never holds more than the bound (unless every open document is waited on).
      this.closeSpare((this.launch.maxOpenDocuments ?? MAX_OPEN_DOCUMENTS) - 1);
      this.documents.set(uri, { version: 1, text });
      this.connection.notify('textDocument/didOpen', {
        textDocument: { uri, languageId: this.launch.languageId(path), version: 1, text },
      });
      return true;
    }
    this.touch(uri);
    if (doc.text === text) return false;
    doc.version += 1;
    doc.text = text;
    this.connection.notify('textDocument/didChange', {
      textDocument: { uri, version: doc.version },
      contentChanges: [{ text }],
    });
    return true;
  }

  /**
   * Opens `path` with `text` (or sends the new text when open) and waits until `deadline` for the diagnostics that
   * follow; undefined when none came in time (a slow server, or one that publishes nothing when nothing changed).
   */
  async sync(path: string, text: string, deadline: number): Promise<LspDiagnostic[] | undefined> {
    if (this.state !== 'ready' || !this.connection) return undefined;
    const uri = fileUri(path);
    this.inUse.set(uri, (this.inUse.get(uri) ?? 0) + 1);
    try {
      return await this.syncOpen(uri, path, text, deadline);
    } finally {
      const left = (this.inUse.get(uri) ?? 1) - 1;
      if (left > 0) this.inUse.set(uri, left);
      else this.inUse.delete(uri);
      // Documents opened while every other one was in use are closed now that one is free.
      this.closeSpare(this.launch.maxOpenDocuments ?? MAX_OPEN_DOCUMENTS);
    }
  }

  private async syncOpen(
    uri: string,
    path: string,
    text: string,
    deadline: number,
  ): Promise<LspDiagnostic[] | undefined> {
    const seqBefore = this.diagnostics.get(uri)?.seq ?? 0;
    if (!this.update(path, text)) return this.diagnostics.get(uri)?.items;
    const version = this.documents.get(uri)!.version;
    if (this.launch.pull) return this.pulled(uri, path, deadline);
    const fresh = () => {
      const d = this.diagnostics.get(uri);
      return !!d && d.seq > seqBefore && (d.version === undefined || d.version >= version);
    };
    if (!(await this.waitUntil(fresh, deadline))) return undefined;
    // Later publications inside a short quiet gap complete the first one (never past the deadline).
    for (let seq = this.diagnostics.get(uri)!.seq; ; seq = this.diagnostics.get(uri)!.seq) {
      const settle = Math.min(deadline, Date.now() + SETTLE_MS);
      if (!(await this.waitUntil(() => this.diagnostics.get(uri)!.seq > seq, settle))) break;
    }
    return this.diagnostics.get(uri)!.items;
  }

  /**
   * Waits until the server has checked `path` as `text` (opened or updated first) and reports no work in progress:
   * then its project is loaded, and answers about the whole project (references, workspace symbols) are complete.
   * False when that did not happen by the deadline.
   */
  async settled(path: string, text: string, deadline: number): Promise<boolean> {
    if (this.state !== 'ready') return false;
    const uri = fileUri(path);
    await this.sync(path, text, deadline);
    if (!this.checked(path) && this.launch.pull) await this.pulled(uri, path, deadline);
    if (!(await this.waitUntil(() => this.checked(path), deadline))) return false;
    return this.whenIdle(deadline);
  }

  private async pulled(uri: string, path: string, deadline: number): Promise<LspDiagnostic[] | undefined> {
    const connection = this.connection!;
    const request: LspRequest = (method, params, signal) => connection.request(method, params, signal);
    try {
      const items = await this.launch.pull!(request, path, AbortSignal.timeout(Math.max(1, deadline - Date.now())));
      const seq = (this.diagnostics.get(uri)?.seq ?? 0) + 1;
      this.diagnostics.set(uri, { seq, items });
      return items;
    } catch (e) {
      // Past the deadline (cancelled) is the slow server this returns undefined for; anything else is a failure.
      if (Date.now() >= deadline || this.state !== 'ready') return undefined;
      throw e;
    }
  }

  async request<T>(method: string, params: unknown, signal?: AbortSignal): Promise<T> {
    await this.ready;
    if (this.state !== 'ready' || !this.connection)
      throw new Error(this.failure ?? `${this.launch.name} is ${this.state}`);
    return this.connection.request<T>(method, params, signal);
  }

  /** shutdown + exit, then the process group is ended; bounded by `graceMs` at each step. */
  async stop(graceMs = 2_000): Promise<void> {
    const wasReady = this.state === 'ready';
    const connection = this.connection;
    const child = this.child;
    this.state = this.state === 'crashed' ? 'crashed' : 'stopped';
    if (wasReady && connection) {
      try {
        await connection.request('shutdown', null, AbortSignal.timeout(graceMs));
        connection.notify('exit', null);
      } catch {
        // A server that does not answer shutdown in time is ended below with its process group.
      }
    }
    connection?.close(new Error(`${this.launch.name} was stopped`));
    this.wake();
    if (child?.pid && child.exitCode === null && child.signalCode === null)
      await terminateGroup(child.pid, { graceMs });
  }
}
