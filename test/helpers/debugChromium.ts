// A Chromium the test starts itself with --remote-debugging-port on 127.0.0.1: "the user's own
// browser" that `--browser-cdp` / `[browser] cdp_url` / WebBridge attach to (docs/browser.md).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface DebugChromium {
  /** http://127.0.0.1:PORT — what cdp_url takes. */
  url: string;
  /** The browser's page targets now (CDP /json/list). */
  pages(): Promise<Array<{ id: string; url: string; title: string }>>;
  /** Whether the process is still running. */
  alive(): boolean;
  close(): Promise<void>;
}

async function until<T>(probe: () => T | undefined, what: string, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function startDebugChromium(executable = '/usr/bin/chromium'): Promise<DebugChromium> {
  const profile = mkdtempSync(join(tmpdir(), 'jarvis-user-chrome-'));
  const args = [
    '--headless',
    '--remote-debugging-address=127.0.0.1',
    '--remote-debugging-port=0',
    `--user-data-dir=${profile}`,
    '--no-first-run',
    '--disable-gpu',
    '--disable-dev-shm-usage',
    'about:blank',
  ];
  if (process.getuid?.() === 0) args.push('--no-sandbox');
  const child: ChildProcess = spawn(executable, args, { stdio: 'ignore' });
  let exited = false;
  child.on('exit', () => (exited = true));
  // Chromium writes the port it picked to DevToolsActivePort in the profile folder.
  const port = await until(() => {
    if (exited) throw new Error(`${executable} exited before it listened`);
    try {
      return readFileSync(join(profile, 'DevToolsActivePort'), 'utf8').split('\n')[0].trim() || undefined;
    } catch {
      return undefined;
    }
  }, 'DevToolsActivePort');
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    async pages() {
      const list = (await (await fetch(`${url}/json/list`)).json()) as Array<{
        id: string;
        url: string;
        title: string;
        type: string;
      }>;
      return list.filter((t) => t.type === 'page');
    },
    alive: () => !exited,
    async close() {
      if (exited) return;
      const gone = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await gone;
    },
  };
}
