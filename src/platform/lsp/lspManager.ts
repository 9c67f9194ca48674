// The session's language servers (docs/lsp.md): started on first need, one per server and workspace root, stopped
// with the session. A server that is not installed or fails to start gets one notice per session and is not retried.
import { existsSync, readFileSync } from 'node:fs';
import { fileUri, LspClient, type LspClientState } from './lspClient';
import { languageIdFor, locateServer, serverForFile, workspaceRootFor, type LspSettings } from './lspServers';
import type { LspDiagnostic } from './lspTypes';
import { pullTypescriptDiagnostics } from './tsserverDiagnostics';

export interface LspServerStatus {
  name: string;
  root: string;
  command: string;
  state: LspClientState | 'missing';
  failure?: string;
}

export interface LspManagerOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Told once per server and session when it is missing or cannot start. */
  onNotice(text: string): void;
  /**
   * Whether the session folder is trusted, asked at each first need: a server runs the project's code (its
   * node_modules/.bin, its TypeScript and tsserver plugins, a Python environment), so none starts until it is.
   */
  trusted(): boolean;
}

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

const UNTRUSTED =
  'Language servers stay off in this folder because it is not trusted (a server runs code from the project). ' +
  'Trust it when the interactive UI asks, then edits get diagnostics and the Lsp tool works (docs/lsp.md).';

export class LspManager {
  private readonly clients = new Map<string, LspClient>();
  private readonly missing = new Map<string, LspServerStatus>();
  private readonly told = new Set<string>();
  /** The warm-up opening of a read file (warm), which an edit of it waits for to have its "before" errors. */
  private readonly warming = new Map<string, Promise<unknown>>();
  private closed = false;

  constructor(
    readonly settings: LspSettings,
    private readonly opts: LspManagerOptions,
  ) {}

  /**
   * The running (or starting) server for `path`, started now when it is the first need; undefined when none.
   * `quiet` (a warm-up on Read or Grep): an untrusted folder or a missing server says nothing and is not remembered,
   * so the first edit still gives its one notice.
   */
  clientFor(path: string, quiet = false): LspClient | undefined {
    if (!this.settings.enabled || this.closed) return undefined;
    const server = serverForFile(this.settings.servers, path, this.opts.cwd);
    if (!server) return undefined;
    if (!this.opts.trusted()) {
      if (!quiet) this.noticeOnce('\0untrusted', UNTRUSTED);
      return undefined;
    }
    const root = workspaceRootFor(path, server.config.rootMarkers, this.opts.cwd);
    const key = `${server.name}\0${root}`;
    const known = this.clients.get(key);
    if (known) return known.state === 'crashed' ? undefined : known;
    if (this.missing.has(key)) return undefined;
    const command = locateServer(server.config.command, root, this.opts.cwd, this.opts.env);
    if (!command && quiet) return undefined;
    if (!command) {
      this.missing.set(key, { name: server.name, root, command: server.config.command, state: 'missing' });
      const how = server.config.install ? ` Install it with: ${server.config.install}` : '';
      this.noticeOnce(
        server.name,
        `No ${server.name} language server: ${
          server.config.command.includes('/')
            ? `"${server.config.command}" does not exist or is not executable`
            : `"${server.config.command}" is not in the project's node_modules/.bin or on PATH`
        }, so edits of ${server.name} files get no diagnostics.${how} ` +
          `(or set [lsp.servers.${server.name}] command; docs/lsp.md)`,
      );
      return undefined;
    }
    const client = new LspClient({
      name: server.name,
      command,
      args: server.config.args,
      root,
      languageId: (p) => languageIdFor(p, server.name),
      initializationOptions: initializationOptions(server.name, server.config.initializationOptions, root),
      env: this.opts.env,
      ...(server.name === 'typescript' ? { pull: pullTypescriptDiagnostics } : {}),
    });
    this.clients.set(key, client);
    client.ready.catch(() =>
      this.noticeOnce(server.name, `The ${server.name} language server failed: ${client.failure ?? 'it stopped'}`),
    );
    return client;
  }

  /** Why `clientFor(path)` gave no server, in words for the model: what to install or configure. */
  whyUnavailable(path: string): string {
    if (!this.settings.enabled) return 'Language servers are turned off ([lsp] enabled = false in config.toml).';
    if (this.closed) return 'The session is closing; its language servers are stopped.';
    if (!this.opts.trusted()) return UNTRUSTED;
    const server = serverForFile(this.settings.servers, path, this.opts.cwd);
    if (!server)
      return (
        `No language server is configured for ${path}; ` +
        'add one as [lsp.servers.<name>] in config.toml (docs/lsp.md).'
      );
    const root = workspaceRootFor(path, server.config.rootMarkers, this.opts.cwd);
    const client = this.clients.get(`${server.name}\0${root}`);
    if (client?.failure) return `The ${server.name} language server failed: ${client.failure}`;
    const how = server.config.install ? ` Install it with: ${server.config.install}` : '';
    return `The ${server.name} language server ("${server.config.command}") is not installed.${how}`;
  }

  private noticeOnce(name: string, text: string): void {
    if (this.told.has(name)) return;
    this.told.add(name);
    this.opts.onNotice(text);
  }

  /** The ready server already running for `path`, never starting one (the check after Bash, bashDiagnostics.ts). */
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

  /** The documents the ready servers have open, with the text they were last sent. */
  openDocuments(): Array<{ path: string; text: string }> {
    return [...this.clients.values()].filter((c) => c.state === 'ready').flatMap((c) => c.openDocuments());
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
    const opening = client.ready.then(
      () => {
        if (client.isOpen(path)) return;
        let text: string;
        try {
          text = readFileSync(path, 'utf8');
        } catch (e) {
          // Gone since it was read: the next edit opens it with the text it had. Anything else is a real failure.
          if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
          this.opts.onNotice(
            `Could not open ${path} for the ${client.launch.name} language server: ${(e as Error).message}`,
          );
          return;
        }
        return client.sync(path, text, Date.now() + this.settings.diagnosticsWaitMs * 10).catch((e: Error) => {
          this.opts.onNotice(`The ${client.launch.name} language server could not check ${path}: ${e.message}`);
        });
      },
      () => undefined,
    );
    this.warming.set(path, opening);
    void opening.finally(() => this.warming.delete(path));
  }

  /**
   * The errors an edit of `path` from `before` to `after` introduced, waiting until `deadline` at most; undefined
   * when no server serves the file or it did not answer in time (nothing is appended then).
   */
  async errorsAfterEdit(
    path: string,
    before: string | undefined,
    after: string,
    deadline: number,
  ): Promise<LspDiagnostic[] | undefined> {
    const client = this.clientFor(path);
    if (!client) return undefined;
    const started = await Promise.race([
      client.ready.then(
        () => true,
        () => false,
      ),
      new Promise<false>((r) => setTimeout(() => r(false), Math.max(0, deadline - Date.now())).unref()),
    ]);
    if (!started || client.state !== 'ready') return undefined;
    // A warm-up still opening this file: its diagnostics are the "before" state (bounded by the same deadline).
    const opening = this.warming.get(path);
    if (opening)
      await Promise.race([opening, new Promise((r) => setTimeout(r, Math.max(0, deadline - Date.now())).unref())]);
    let previous: LspDiagnostic[] = [];
    if (before !== undefined && (!client.isOpen(path) || client.openText(path) !== before)) {
      const found = await client.sync(path, before, deadline);
      if (!found) return undefined;
      previous = found;
    } else if (before !== undefined) previous = client.published(path) ?? [];
    const now = await client.sync(path, after, deadline);
    // No publication in time: the server is slow, or (tsserver) publishes nothing when nothing changed.
    if (!now) return undefined;
    return newErrors(previous, now);
  }

  status(): LspServerStatus[] {
    const running = [...this.clients.values()].map((c) => ({
      name: c.launch.name,
      root: c.launch.root,
      command: c.launch.command,
      state: c.state,
      ...(c.failure ? { failure: c.failure } : {}),
    }));
    return [...running, ...this.missing.values()];
  }

  async close(graceMs = 2_000): Promise<void> {
    this.closed = true;
    await Promise.all([...this.clients.values()].map((c) => c.stop(graceMs)));
  }
}

/** typescript: the project's own TypeScript when it has one (else the server uses the one installed beside it). */
function initializationOptions(
  name: string,
  configured: Record<string, unknown> | undefined,
  root: string,
): Record<string, unknown> | undefined {
  if (name !== 'typescript' || (configured && 'tsserver' in configured)) return configured;
  const local = `${root}/node_modules/typescript/lib`;
  if (!existsSync(`${local}/tsserver.js`)) return configured;
  return { ...configured, tsserver: { path: local } };
}

export { fileUri };
