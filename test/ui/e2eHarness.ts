// Shared set-up for the UI end-to-end tests: a temporary home and project, the mock model server,
// and the real binary running in tmux.
import { afterEach } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  startMockModelServer,
  type MockModelServer,
  type RecordedRequest,
  type ScriptedTurn,
} from '../helpers/mockModelServer';
import { TmuxSession } from '../helpers/tmux';

export const BIN = resolve(__dirname, '../../bin/jarvis');

export interface Launched {
  tmux: TmuxSession;
  server: MockModelServer;
  home: string;
  cwd: string;
  cleanup(): Promise<void>;
}

export interface LaunchOptions {
  turns?: ScriptedTurn[];
  /** Makes up the turn for a request once `turns` is used up (e.g. from what the request carries). */
  script?: (req: RecordedRequest, index: number) => ScriptedTurn;
  args?: string[];
  home?: string;
  cwd?: string;
  server?: MockModelServer;
  /** Answer the workspace-trust prompt with the default (Don't trust). */
  answerTrust?: boolean;
  env?: Record<string, string>;
  /** A shell command run in the pane before `jarvis` starts (its output is what the user had on screen). */
  before?: string;
  /** tmux server options set before `jarvis` starts (see TmuxOptions.serverOptions). */
  tmuxServerOptions?: Record<string, string>;
  /** A file that receives every byte `jarvis` writes from its start (TmuxOptions.recordTo). */
  recordTo?: string;
}

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export async function launch(opts: LaunchOptions = {}): Promise<Launched> {
  const server = opts.server ?? (await startMockModelServer({ turns: opts.turns ?? [], script: opts.script }));
  const home = opts.home ?? tempDir('jarvis-ui-home-');
  const cwd = opts.cwd ?? tempDir('jarvis-ui-cwd-');
  const tmux = new TmuxSession({
    command: opts.before
      ? ['bash', '-c', `${opts.before}; exec "$@"`, 'jarvis-before', process.execPath, BIN, ...(opts.args ?? [])]
      : [process.execPath, BIN, ...(opts.args ?? [])],
    cwd,
    serverOptions: opts.tmuxServerOptions,
    recordTo: opts.recordTo,
    env: {
      JARVIS_CODE_HOME: home,
      JARVIS_MODEL_NAME: 'any',
      JARVIS_MODEL_API_KEY: 'k',
      JARVIS_MODEL_PROVIDER_TYPE: 'openai',
      JARVIS_MODEL_BASE_URL: server.baseUrlFor('openai'),
      // Memory extraction would take scripted turns meant for the conversation.
      JARVIS_MEMORY_EXTRACTION_ENABLED: 'false',
      TERM: 'xterm-256color',
      ...(opts.env ?? {}),
    },
  });
  if (opts.answerTrust !== false) {
    await tmux.waitFor("Don't trust", { timeoutMs: 20_000 });
    tmux.keys('Enter');
    await tmux.waitForGone("Don't trust");
  }
  return {
    tmux,
    server,
    home,
    cwd,
    async cleanup() {
      tmux.close();
      if (!opts.server) await server.close();
      if (!opts.home) rmSync(home, { recursive: true, force: true });
      if (!opts.cwd) rmSync(cwd, { recursive: true, force: true });
    },
  };
}

/** Sends a line as if typed, then Enter. */
export function send(app: Launched, text: string): void {
  app.tmux.type(text);
  app.tmux.keys('Enter');
}

/** The JSON text of request `i` to the model (for `toContain` checks). */
export function requestText(app: Launched, i: number): string {
  return JSON.stringify(app.server.requests[i]?.body ?? null);
}

/** Polls until the model server has seen `n` requests. */
export async function waitForRequests(app: Launched, n: number, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (app.server.requests.length < n) {
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${n} model requests; got ${app.server.requests.length}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Call once at the top of a test file: returns `start`, which launches the UI like `launch` and
 * cleans every launched app up after each test.
 */
export function appsClosedAfterEach(): (opts: Parameters<typeof launch>[0]) => Promise<Launched> {
  let running: Launched[] = [];
  afterEach(async () => {
    for (const app of running) await app.cleanup();
    running = [];
  });
  return async (opts) => {
    const app = await launch(opts);
    running.push(app);
    return app;
  };
}
