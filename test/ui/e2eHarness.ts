// Shared set-up for the UI end-to-end tests: a temporary home and project, the mock model server,
// and the real binary running in tmux.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startMockModelServer, type MockModelServer, type ScriptedTurn } from '../helpers/mockModelServer';
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
  args?: string[];
  home?: string;
  cwd?: string;
  server?: MockModelServer;
  /** Answer the workspace-trust prompt with the default (Don't trust). */
  answerTrust?: boolean;
  env?: Record<string, string>;
}

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export async function launch(opts: LaunchOptions = {}): Promise<Launched> {
  const server = opts.server ?? (await startMockModelServer({ turns: opts.turns ?? [] }));
  const home = opts.home ?? tempDir('jarvis-ui-home-');
  const cwd = opts.cwd ?? tempDir('jarvis-ui-cwd-');
  const tmux = new TmuxSession({
    command: [process.execPath, BIN, ...(opts.args ?? [])],
    cwd,
    env: {
      JARVIS_CODE_HOME: home,
      JARVIS_MODEL_NAME: 'any',
      JARVIS_MODEL_API_KEY: 'k',
      JARVIS_MODEL_PROVIDER_TYPE: 'openai',
      JARVIS_MODEL_BASE_URL: server.baseUrlFor('openai'),
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
