// The session's language servers (docs/lsp.md): started on first need (or when the session opens in a trusted project),
// one per server and workspace root, stopped with the session. A server runs only for a checkout the user trusted,
// inside the sandbox where one runs, else only from places commands cannot write ("Where servers run"). A server that
// is not installed, cannot run here or fails to start gets one notice per session and is not retried.
import { readFileSync } from 'node:fs';
import { fileUri, LspClient, STOPPED_BEFORE_READY, type LspClientState, type LspLaunch } from './lspClient';
import type { ServerSandbox } from './lspPlacement';
import {
  serverForFile,
  serversForFolder,
  workspaceRootFor,
  type LspServerConfig,
  type LspSettings,
} from './lspServers';
import type { LspDiagnostic } from './lspTypes';
import { planServerLaunch } from './serverLaunch';

export type { ServerSandbox } from './lspPlacement';

export interface LspServerStatus {
  name: string;
  root: string;
  command: string;
  /** `missing`: not installed (where it may run from); `unusable`: installed but cannot run here. */
  state: LspClientState | 'missing' | 'unusable';
  failure?: string;
  /** Whether it runs inside the sandbox. */
  sandboxed?: boolean;
}

export interface LspManagerOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Told once per server and session when it is missing or cannot start. */
  onNotice(text: string): void;
  /**
   * Whether the checkout holding `root` is trusted, asked at each first need: a server runs the project's code (its
   * node_modules/.bin, its TypeScript and tsserver plugins, a Python environment), so none starts until it is.
   */
  trusted(root: string): boolean;
  /** The sandbox servers run in; undefined (or absent) where none can run (docs/lsp.md, "Where servers run"). */
  sandbox?(): ServerSandbox | undefined;
  /**
   * The folders commands may write: no `node` found on PATH is asked its version from them, and without a sandbox no
   * server program or project TypeScript comes from them.
   */
  writableRoots?(): readonly string[];
}

/** What an edit's check found: its new errors, why it was not checked, or nothing to say (no server for the file). */
export type EditCheck =
  | { kind: 'checked'; errors: LspDiagnostic[] }
  /** `yet`: the server runs but had not answered within the bound; a later edit of the file is checked. */
  | { kind: 'unchecked'; why: string; yet?: boolean }
  | { kind: 'none' };

/** Whether `d` is the same finding as one in `before` (lines move when text is added above, so they are ignored). */
const findingKey = (d: LspDiagnostic) => `${d.severity ?? 1}|${d.code ?? ''}|${d.source ?? ''}|${d.message}`;

/** The errors in `after` that `before` did not have, counting repeats (two identical errors where one was). */
export function newErrors(before: readonly LspDiagnostic[], after: readonly LspDiagnostic[]): LspDiagnostic[] {
  const seen = new Map<string, number>();
  for (const d of before) if ((d.severity ?? 1) === 1) seen.set(findingKey(d), (seen.get(findingKey(d)) ?? 0) + 1);
  const added: LspDiagnostic[] = [];
  for (const d of after) {
    if ((d.severity ?? 1) !== 1) continue;
    const left = seen.get(findingKey(d)) ?? 0;
    if (left > 0) seen.set(findingKey(d), left - 1);
    else added.push(d);
  }
  return added;
}

export const untrustedText = (root: string) =>
  `Language servers stay off for ${root}: that checkout is not trusted (a server runs code from the project). ` +
  `Trust it with \`jarvis trust ${root}\` (or when the interactive UI asks); docs/lsp.md.`;

/** Warm-ups that open files at the same time, per session. */
const WARM_CONCURRENCY = 4;

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

export class LspManager {
  private readonly clients = new Map<string, LspClient>();
  /** Servers that cannot start for a root (not installed, or unusable here), with the notice that says so. */
  private readonly unavailable = new Map<string, LspServerStatus & { notice: string }>();
  private readonly told = new Set<string>();
  /** The warm-up opening of a read file (warm), which an edit of it waits for to have its "before" errors. */
  private readonly warming = new Map<string, { started: boolean; done: Promise<unknown> }>();
  /** Warm-ups opening a file now; the rest wait, so a burst of reads opens files a few at a time. */
  private warmSlots = WARM_CONCURRENCY;
  private readonly warmQueue: Array<() => void> = [];
  private closed = false;

  constructor(
    readonly settings: LspSettings,
    private readonly opts: LspManagerOptions,
  ) {}

  /**
   * The running (or starting) server for `path`, started now when it is the first need; undefined when none.
   * `quiet` (a warm-up): an untrusted checkout or a server that cannot start says nothing now; the first edit does.
   */
  clientFor(path: string, quiet = false): LspClient | undefined {
    if (!this.settings.enabled || this.closed) return undefined;
    const server = serverForFile(this.settings.servers, path, this.opts.cwd);
    if (!server) return undefined;
    return this.start(
      server.name,
      server.config,
      workspaceRootFor(path, server.config.rootMarkers, this.opts.cwd),
      quiet,
    );
  }

  private start(name: string, config: LspServerConfig, root: string, quiet: boolean): LspClient | undefined {
    const key = `${name}\0${root}`;
    const known = this.clients.get(key);
    if (known) return known.state === 'crashed' ? undefined : known;
    // Trust is read at each first need: trusting the checkout mid-session lets its servers start.
    if (!this.opts.trusted(root)) {
      if (!quiet) this.noticeOnce(`\0untrusted\0${root}`, untrustedText(root));
      return undefined;
    }
    let refused = this.unavailable.get(key);
    let launch: LspLaunch | undefined;
    if (!refused) {
      const plan = planServerLaunch(name, config, root, {
        cwd: this.opts.cwd,
        env: this.opts.env,
        sandbox: this.opts.sandbox?.(),
        writableRoots: this.opts.writableRoots?.() ?? [],
      });
      if (plan.ok) launch = plan.launch;
      else {
        const notice = `${plan.why[0].toUpperCase()}${plan.why.slice(1)}`;
        refused = { name, root, command: plan.program ?? config.command, state: plan.state, failure: plan.why, notice };
      }
    }
    if (refused || !launch) {
      if (refused) this.unavailable.set(key, refused);
      if (refused && !quiet) this.noticeOnce(key, refused.notice);
      return undefined;
    }
    const client = new LspClient(launch);
    this.clients.set(key, client);
    client.ready.catch((e: Error) => {
      // The session stopping a server that was still starting is not a failure (docs/lsp.md).
      if (this.closed || e.message === STOPPED_BEFORE_READY) return;
      this.noticeOnce(key, `The ${name} language server failed: ${client.failure ?? e.message}`);
    });
    return client;
  }

  /** Why `clientFor(path)` gave no server, in words for the model: what to install, configure or trust. */
  whyUnavailable(path: string): string {
    if (!this.settings.enabled) return 'Language servers are turned off ([lsp] enabled = false in config.toml).';
    if (this.closed) return 'The session is closing; its language servers are stopped.';
    const server = serverForFile(this.settings.servers, path, this.opts.cwd);
    if (!server)
      return (
        `No language server is configured for ${path}; ` +
        'add one as [lsp.servers.<name>] in config.toml (docs/lsp.md).'
      );
    const root = workspaceRootFor(path, server.config.rootMarkers, this.opts.cwd);
    if (!this.opts.trusted(root)) return untrustedText(root);
    const key = `${server.name}\0${root}`;
    const client = this.clients.get(key);
    if (client?.failure) return `The ${server.name} language server failed: ${client.failure}`;
    const refused = this.unavailable.get(key);
    if (refused?.failure) return refused.failure;
    return `The ${server.name} language server did not start.`;
  }

  private noticeOnce(name: string, text: string): void {
    if (this.told.has(name)) return;
    this.told.add(name);
    this.opts.onNotice(text);
  }

  /**
   * Starts, in the background, the servers whose project files the session folder has (tsconfig.json, package.json,
   * pyproject.toml…), so the first edit finds them loading or ready. Only in a trusted folder; says nothing.
   */
  warmProject(): void {
    if (!this.settings.enabled || this.closed || !this.opts.trusted(this.opts.cwd)) return;
    for (const { name, config } of serversForFolder(this.settings.servers, this.opts.cwd)) {
      try {
        this.start(name, config, this.opts.cwd, true);
      } catch (e) {
        this.opts.onNotice(`Could not start the ${name} language server: ${(e as Error).message}`);
      }
    }
  }

  /** The ready server already running for `path`, never starting one (the check after Bash). */
  runningClientFor(path: string): LspClient | undefined {
    if (!this.settings.enabled || this.closed) return undefined;
    const server = serverForFile(this.settings.servers, path, this.opts.cwd);
    if (!server) return undefined;
    const root = workspaceRootFor(path, server.config.rootMarkers, this.opts.cwd);
    const client = this.clients.get(`${server.name}\0${root}`);
    return client?.state === 'ready' ? client : undefined;
  }

  /** Whether any server is ready: without one, the check after Bash does nothing at all. */
  anyRunning(): boolean {
    return !this.closed && [...this.clients.values()].some((c) => c.state === 'ready');
  }

  /** The documents the ready servers have open, most recently used first, with the text they were last sent. */
  openDocuments(): Array<{ path: string; text: string }> {
    return [...this.clients.values()].filter((c) => c.state === 'ready').flatMap((c) => c.openDocuments().reverse());
  }

  /**
   * Starts the server for `path` in the background (quietly: see clientFor) and opens the file as it is on disk,
   * so a later edit finds the server ready and has its "before" state. Read and Grep call it (docs/lsp.md).
   */
  warm(path: string): void {
    let client: LspClient | undefined;
    try {
      client = this.clientFor(path, true);
    } catch (e) {
      // Called after the tool's result was handed back: a failure to start is told, never thrown to no one.
      this.opts.onNotice(`Could not start a language server for ${path}: ${(e as Error).message}`);
      return;
    }
    if (!client || client.isOpen(path) || this.warming.has(path)) return;
    const entry = { started: false, done: Promise.resolve() as Promise<unknown> };
    const open = () => {
      entry.started = true;
      // An edit of the file that came first opened it itself.
      if (client.isOpen(path) || this.closed) return undefined;
      let text: string;
      try {
        text = readFileSync(path, 'utf8');
      } catch (e) {
        // Gone since it was read: the next edit opens it with the text it had. Anything else is a real failure.
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        this.opts.onNotice(
          `Could not open ${path} for the ${client.launch.name} language server: ${(e as Error).message}`,
        );
        return undefined;
      }
      return client.sync(path, text, Date.now() + this.settings.firstDiagnosticsWaitMs).catch((e: Error) => {
        if (this.closed || client.state !== 'ready') return;
        this.opts.onNotice(`The ${client.launch.name} language server could not check ${path}: ${e.message}`);
      });
    };
    entry.done = client.ready.then(
      () => this.inWarmSlot(open),
      () => undefined,
    );
    this.warming.set(path, entry);
    void entry.done.finally(() => this.warming.delete(path));
  }

  /** Runs `work` when one of the WARM_CONCURRENCY slots is free. */
  private async inWarmSlot<T>(work: () => Promise<T> | T): Promise<T> {
    if (this.warmSlots > 0) this.warmSlots -= 1;
    else await new Promise<void>((resolve) => this.warmQueue.push(resolve));
    try {
      return await work();
    } finally {
      const next = this.warmQueue.shift();
      if (next) next();
      else this.warmSlots += 1;
    }
  }

  /**
   * The errors an edit of `path` from `before` to `after` introduced. The first check of a file (its server starting
   * or loading the project) may take up to `firstDiagnosticsWaitMs`, a later one `diagnosticsWaitMs`; past it, or when
   * no server can check it, the answer says why it was not checked. `signal` ends the wait early (the turn stopped).
   */
  async checkEdit(path: string, before: string | undefined, after: string, signal?: AbortSignal): Promise<EditCheck> {
    if (!this.settings.enabled || this.closed) return { kind: 'none' };
    const server = serverForFile(this.settings.servers, path, this.opts.cwd);
    if (!server) return { kind: 'none' };
    const client = this.clientFor(path);
    if (!client) return { kind: 'unchecked', why: this.whyUnavailable(path) };
    const first = client.state !== 'ready' || !client.checked(path);
    const waitMs = first ? this.settings.firstDiagnosticsWaitMs : this.settings.diagnosticsWaitMs;
    const deadline = Date.now() + waitMs;
    const late = (doing: string): EditCheck => ({
      kind: 'unchecked',
      yet: true,
      why:
        `the ${server.name} language server ${doing} within ${seconds(waitMs)}` +
        ` ([lsp] ${first ? 'first_diagnostics_wait_ms' : 'diagnostics_wait_ms'}); a later edit of this file is checked`,
    });
    const until = <T>(work: Promise<T>, fallback: T) => raceDeadline(work, fallback, deadline, signal);
    const started = await until(
      client.ready.then(
        () => true,
        () => false,
      ),
      false,
    );
    if (signal?.aborted) return { kind: 'unchecked', why: 'the turn was stopped before the check finished' };
    if (client.state === 'crashed' || client.state === 'stopped')
      return { kind: 'unchecked', why: this.whyUnavailable(path) };
    if (!started || client.state !== 'ready') return late('was still starting');
    // A warm-up opening this file now: its diagnostics are the "before" state (bounded by the same deadline). One still
    // waiting for its turn is not waited for: the edit opens the file itself.
    const opening = this.warming.get(path);
    if (opening?.started) await until(opening.done, undefined);
    let previous: LspDiagnostic[] = [];
    if (before !== undefined && (!client.isOpen(path) || client.openText(path) !== before)) {
      const found = await until(client.sync(path, before, deadline), undefined);
      if (!found) return this.unanswered(client, path, late);
      previous = found;
    } else if (before !== undefined) previous = client.published(path) ?? [];
    const now = await until(client.sync(path, after, deadline), undefined);
    if (!now) return this.unanswered(client, path, late);
    return { kind: 'checked', errors: newErrors(previous, now) };
  }

  private unanswered(client: LspClient, path: string, late: (doing: string) => EditCheck): EditCheck {
    if (client.state !== 'ready') return { kind: 'unchecked', why: this.whyUnavailable(path) };
    return late(client.loading ? 'was still loading the project and gave no diagnostics' : 'gave no diagnostics');
  }

  status(): LspServerStatus[] {
    const running = [...this.clients.values()].map((c) => ({
      name: c.launch.name,
      root: c.launch.root,
      command: c.launch.command,
      state: c.state,
      sandboxed: !!c.launch.spawn,
      ...(c.failure ? { failure: c.failure } : {}),
    }));
    const refused = [...this.unavailable.values()].map(({ notice: _, ...s }) => s);
    return [...running, ...refused];
  }

  async close(graceMs = 2_000): Promise<void> {
    this.closed = true;
    await Promise.all([...this.clients.values()].map((c) => c.stop(graceMs)));
  }
}

/** `work`'s value, or `fallback` at the deadline or when `signal` aborts, whichever comes first. */
function raceDeadline<T>(work: Promise<T>, fallback: T, deadline: number, signal?: AbortSignal): Promise<T> {
  if (signal?.aborted) return Promise.resolve(fallback);
  return new Promise<T>((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    const onAbort = () => {
      done();
      resolve(fallback);
    };
    const timer = setTimeout(onAbort, Math.max(0, deadline - Date.now()));
    signal?.addEventListener('abort', onAbort, { once: true });
    work.then(
      (v) => {
        done();
        resolve(v);
      },
      (e: unknown) => {
        done();
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

export { fileUri };
