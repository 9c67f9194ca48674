// Every exit path stops what the run started (docs/print-mode.md, "Ctrl-C"): after a double Ctrl-C — the second
// one pressed while the first is still stopping things — no process of the run is left: a stdio MCP server that is
// slow to leave (it ignores stdin's end, SIGTERM and SIGINT; test/fixtures/mcp/stubbornServer.mjs) and the child
// it started, a background command, and the language server a Read started — in print mode and in ACP, three
// runs out of three each.
// The built binary, the loopback mock model, the real typescript-language-server and real processes.
import { cpSync, existsSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setWorkspaceTrust } from '../../src/store/trust';
import {
  cliEnv,
  collect,
  latestJournal,
  latestSessionDir,
  makeCliDirs,
  mockModelEnv,
  spawnJarvis,
  waitUntil,
} from '../helpers/cli';
import { startMockModelServer, type MockModelServer } from '../helpers/mockModelServer';
import { startAcpClient } from '../helpers/acpClient';
import { requireSystemPart } from '../helpers/requireAll';
import { pidRunning } from '../helpers/processes';

const STUBBORN = resolve(__dirname, '../fixtures/mcp/stubbornServer.mjs');
const TS_PROJECT = resolve(__dirname, '../fixtures/lsp/ts-project');
const NODE_BIN = resolve(__dirname, '../../node_modules/.bin');
const hasChromium = requireSystemPart('chromium', 'the browser tools start the system Chromium');

let server: MockModelServer;
beforeAll(async () => {
  server = await startMockModelServer();
});
afterAll(async () => {
  await server.close();
});

/** Processes working in `cwd` whose command line mentions `word` (the language server and its tsserver). */
function processesIn(cwd: string, word: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readlinkSync(`/proc/${name}/cwd`) !== cwd) continue;
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(word)) found.push(Number(name));
    } catch {
      // it ended while we looked, or is not ours to read
    }
  }
  return found;
}

/** A trusted TypeScript project whose mcp.json starts the stubborn server, which writes its pids to `pidFile`. */
function projectHome() {
  const dirs = makeCliDirs();
  cpSync(TS_PROJECT, dirs.cwd, { recursive: true });
  setWorkspaceTrust(dirs.home, dirs.cwd, true);
  const pidFile = join(dirs.home, 'stubborn.pid');
  const stubborn = { command: process.execPath, args: [STUBBORN], env: { STUBBORN_PID_FILE: pidFile } };
  writeFileSync(join(dirs.home, 'mcp.json'), JSON.stringify({ mcpServers: { stubborn } }));
  return { dirs, pidFile };
}

function taskPid(home: string): number | undefined {
  try {
    const tasks = join(latestSessionDir(home), 'tasks');
    const record = readdirSync(tasks).find((f) => f.endsWith('.json'));
    return record ? (JSON.parse(readFileSync(join(tasks, record), 'utf8')) as { pid?: number }).pid : undefined;
  } catch {
    return undefined; // not written yet
  }
}

function turnEnded(home: string): boolean {
  try {
    return latestJournal(home).some((r) => r.type === 'turn_end');
  } catch {
    return false; // not written yet
  }
}

describe('a double Ctrl-C in print mode', { timeout: 120_000 }, () => {
  for (const run of [1, 2, 3]) {
    it(`leaves no MCP server, background command or language server behind (run ${run} of 3)`, async () => {
      const { dirs, pidFile } = projectHome();
      server.push(
        {
          toolCalls: [
            { id: 'read', name: 'Read', arguments: { path: 'src/cart.ts' } },
            {
              id: 'bg',
              name: 'Bash',
              arguments: { command: 'sleep infinity', run_in_background: true, description: 'endless' },
            },
          ],
        },
        { hang: true },
      );
      const before = server.requests.length;
      const env = cliEnv(dirs, {
        ...mockModelEnv(server.baseUrlFor('openai')),
        PATH: `${NODE_BIN}:${process.env.PATH}`,
      });
      const child = spawnJarvis(['-p', 'look at the cart'], { env, cwd: dirs.cwd });
      let stderr = '';
      child.stderr!.on('data', (d) => (stderr += d));
      const done = collect(child, 60_000);
      // The server, the task and the language server run, and the turn waits for the model.
      await waitUntil(() => existsSync(pidFile) && server.requests.length >= before + 2, 60_000, 'the second request');
      await waitUntil(() => processesIn(dirs.cwd, 'tsserver').length > 0, 60_000, 'the language server');
      const { pid, child: grandchild } = JSON.parse(readFileSync(pidFile, 'utf8')) as { pid: number; child: number };
      const pids = [pid, grandchild, taskPid(dirs.home)!, ...processesIn(dirs.cwd, 'typescript-language-server')];
      pids.push(...processesIn(dirs.cwd, 'tsserver'));
      expect(
        pids.every((p) => p !== undefined && pidRunning(p)),
        JSON.stringify(pids),
      ).toBe(true);
      child.kill('SIGINT');
      // The turn has ended and the run is stopping its servers (the stubborn one takes the whole grace sequence):
      // the second Ctrl-C comes now.
      await waitUntil(() => stderr.includes('interrupted') && turnEnded(dirs.home), 10_000, 'the turn to end');
      child.kill('SIGINT');
      const r = await done;
      expect(r.code, r.stderr).toBe(130);
      await waitUntil(() => !pids.some(pidRunning), 5_000, 'every process of the run to be gone');
      expect(pids.filter(pidRunning)).toEqual([]);
    });
  }
});

describe('a SIGTERM or SIGHUP in print mode', { timeout: 120_000 }, () => {
  for (const signal of ['SIGTERM', 'SIGHUP'] as const) {
    it(`${signal} ends the run and leaves no MCP server or background command behind`, async () => {
      const { dirs, pidFile } = projectHome();
      server.push(
        {
          toolCalls: [
            {
              id: 'bg',
              name: 'Bash',
              arguments: { command: 'sleep infinity', run_in_background: true, description: 'x' },
            },
          ],
        },
        { hang: true },
      );
      const before = server.requests.length;
      const child = spawnJarvis(['-p', 'start it'], {
        env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))),
        cwd: dirs.cwd,
      });
      const done = collect(child, 60_000);
      await waitUntil(() => existsSync(pidFile) && server.requests.length >= before + 2, 60_000, 'the second request');
      const { pid, child: grandchild } = JSON.parse(readFileSync(pidFile, 'utf8')) as { pid: number; child: number };
      const pids = [pid, grandchild, taskPid(dirs.home)!];
      expect(pids.every((p) => p !== undefined && pidRunning(p))).toBe(true);
      child.kill(signal);
      const r = await done;
      expect(r.signal).toBe(signal);
      await waitUntil(() => !pids.some(pidRunning), 5_000, 'every process of the run to be gone');
    });
  }
});

describe('a double Ctrl-C to jarvis acp', { timeout: 120_000 }, () => {
  for (const run of [1, 2, 3]) {
    it(`leaves no MCP server behind (run ${run} of 3)`, async () => {
      const { dirs, pidFile } = projectHome();
      server.push({ hang: true });
      const before = server.requests.length;
      const editor = await startAcpClient({
        env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))),
        cwd: dirs.cwd,
      });
      const exited = new Promise<number | null>((r) => editor.child.once('exit', (code) => r(code)));
      const { sessionId } = await editor.connection.agent.request('session/new', { cwd: dirs.cwd, mcpServers: [] });
      void editor.connection.agent
        .request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hello' }] })
        .catch(() => undefined);
      await waitUntil(
        () => existsSync(pidFile) && server.requests.length > before,
        30_000,
        'the server and the request',
      );
      const { pid, child } = JSON.parse(readFileSync(pidFile, 'utf8')) as { pid: number; child: number };
      expect([pid, child].every(pidRunning)).toBe(true);
      editor.child.kill('SIGINT');
      // The stubborn server needs the whole grace sequence to stop: the second interrupt comes while it runs.
      await new Promise((r) => setTimeout(r, 200));
      editor.child.kill('SIGINT');
      expect([0, 130]).toContain(await exited);
      await waitUntil(() => ![pid, child].some(pidRunning), 5_000, 'the server and its child to be gone');
      expect([pid, child].filter(pidRunning)).toEqual([]);
    });
  }
});

/** The Chromium processes whose parent is `pid` (the browser playwright started for the run). */
function browsersOf(pid: number): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid && readFileSync(`/proc/${name}/cmdline`, 'utf8').includes('chrom')) found.push(Number(name));
    } catch {
      // it ended while we looked
    }
  }
  return found;
}

describe.skipIf(!hasChromium)('Ctrl-C in print mode with a browser open', { timeout: 120_000 }, () => {
  it('the first ends the turn with its result (not an exit by the browser driver); the browser is gone', async () => {
    const dirs = makeCliDirs();
    server.push({ toolCalls: [{ id: 'tabs', name: 'list_tabs', arguments: {} }] }, { hang: true });
    const before = server.requests.length;
    const env = cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai')));
    const child = spawnJarvis(['-p', 'list the tabs', '--browser', '--output-format', 'stream-json'], {
      env,
      cwd: dirs.cwd,
    });
    const done = collect(child, 60_000);
    await waitUntil(() => server.requests.length >= before + 2, 60_000, 'the request after the browser started');
    const browsers = browsersOf(child.pid!);
    expect(browsers.length).toBeGreaterThan(0);
    child.kill('SIGINT');
    const r = await done;
    expect(r.code, r.stderr).toBe(130);
    const last = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
    expect(last).toMatchObject({ type: 'result', outcome: 'interrupted', exit_code: 130 });
    await waitUntil(() => !browsers.some(pidRunning), 10_000, 'the browser to be gone');
  });
});
