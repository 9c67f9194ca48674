// `jarvis web` on the built CLI (docs/web.md): with a display it opens the login link with xdg-open, handed the link
// as one argument (no shell between), and prints it; with --no-open it only prints it. The opener here is a script
// on PATH that records its arguments, as the user's xdg-open would receive them. `--link` asks a running server for
// a new link.
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, makeCliDirs, mockModelEnv, runJarvis, spawnJarvis, waitUntil, type CliDirs } from '../helpers/cli';
import { startWeb } from '../helpers/webProcess';
import { startMockModelServer, type MockModelServer } from '../helpers/mockModelServer';

let model: MockModelServer;
let dirs: CliDirs;
let bin: string;
let record: string;

beforeAll(async () => {
  model = await startMockModelServer({ script: () => ({ text: 'ok' }) });
  dirs = makeCliDirs();
  bin = join(dirs.home, 'fake-bin');
  record = join(dirs.home, 'opened.txt');
  mkdirSync(bin, { recursive: true });
  writeFileSync(
    join(bin, 'xdg-open'),
    `#!/bin/sh\nfor a in "$@"; do printf '%s\\n' "$a"; done > ${JSON.stringify(record)}\n`,
  );
  chmodSync(join(bin, 'xdg-open'), 0o755);
});

afterAll(async () => {
  await model?.close();
});

/** What the opened file said, read while the server ran (run() keeps it). */
const pages = new Map<string, string>();
const pageOf = (url: string) => pages.get(url) ?? '';

async function run(args: string[]): Promise<string> {
  const env = cliEnv(dirs, {
    ...mockModelEnv(model.baseUrlFor('openai')),
    DISPLAY: ':99',
    PATH: `${bin}:${process.env.PATH}`,
  });
  const child = spawnJarvis(['web', '--port', '0', ...args], { env, cwd: dirs.cwd });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  let exited = false;
  child.on('exit', () => (exited = true));
  await waitUntil(() => /#login=\S+/.test(out) || exited, 30_000, 'jarvis web to print its link');
  if (!args.includes('--no-open')) {
    await waitUntil(() => existsSync(record) && readFileSync(record, 'utf8').endsWith('\n'), 10_000, 'xdg-open to run');
    const opened = readFileSync(record, 'utf8').trim();
    const file = fileURLToPath(opened);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    pages.set(opened, readFileSync(file, 'utf8'));
  }
  child.kill('SIGTERM');
  await waitUntil(() => exited, 20_000, 'jarvis web to stop');
  return out;
}

describe('jarvis web', () => {
  it('opens the one-time link in the browser where there is a display, and prints it', async () => {
    const out = await run([]);
    const link = /(http:\/\/127\.0\.0\.1:\d+\/#login=[A-Za-z0-9_-]{43})\n/.exec(out)![1];
    expect(out).toContain('Web UI: http://127.0.0.1:');
    // The browser gets a private file that sends it on to the link: the code is not on xdg-open's command line.
    const opened = readFileSync(record, 'utf8').trim();
    expect(opened).toMatch(/^file:\/\/.*\/web-login-\w+\/login\.html$/);
    expect(opened).not.toContain('login=');
    const file = fileURLToPath(opened);
    // The file goes when jarvis web stops.
    expect(existsSync(file)).toBe(false);
    expect(pageOf(opened)).toContain(`url=${link}`);
  });

  it('--link asks the server already running for a new link, which logs in once', async () => {
    const env = cliEnv(dirs, mockModelEnv(model.baseUrlFor('openai')));
    const none = await runJarvis(['web', '--link', '--port', '9', '--no-open'], { env, cwd: dirs.cwd });
    expect(none.code).not.toBe(0);
    expect(none.stderr).toMatch(/no Jarvis server answered at http:\/\/127\.0\.0\.1:9|no server token/);
    const served = await startWeb(dirs, mockModelEnv(model.baseUrlFor('openai')));
    try {
      const r = await runJarvis(['web', '--link', '--port', String(served.port), '--no-open'], { env, cwd: dirs.cwd });
      expect(r.stderr).toBe('');
      const link = /(http:\/\/127\.0\.0\.1:\d+\/#login=[A-Za-z0-9_-]{43})\n/.exec(r.stdout)![1];
      expect(link).not.toBe(served.link);
      const trade = () =>
        fetch(`${served.url}/api/v1/auth/session`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: served.url },
          body: JSON.stringify({ code: new URL(link).hash.slice('#login='.length) }),
        });
      expect((await trade()).status).toBe(200);
      expect((await trade()).status).toBe(401);
    } finally {
      await served.stop();
    }
  });

  it('with --no-open only prints it', async () => {
    const before = readFileSync(record, 'utf8');
    const out = await run(['--no-open']);
    expect(out).toMatch(/#login=[A-Za-z0-9_-]{43}/);
    expect(readFileSync(record, 'utf8')).toBe(before);
  });
});
