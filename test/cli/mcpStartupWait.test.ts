// `jarvis -p` with an MCP server that never answers its handshake (docs/mcp.md, "In a session"): the
// prompt is journalled and the wait is announced with the server's name while the server is still
// silent; Ctrl-C ends the run promptly (the 30 s start-up timeout is not waited out), the prompt stays
// in the journal, and no process of the server's group is left — neither with one Ctrl-C nor with two.
// The built binary, the loopback mock model and real child processes; the times are printed (the
// figures are in bench/startup.bench.mjs), never asserted.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, collect, latestJournal, makeCliDirs, mockModelEnv, spawnJarvis, waitUntil } from '../helpers/cli';
import { startMockModelServer, type MockModelServer } from '../helpers/mockModelServer';

let server: MockModelServer;
beforeAll(async () => {
  server = await startMockModelServer();
});
afterAll(async () => {
  await server.close();
});

/** Processes whose command line contains `marker` (pgrep -f). */
function running(marker: string): number[] {
  try {
    return execFileSync('pgrep', ['-f', marker], { encoding: 'utf8' }).trim().split('\n').filter(Boolean).map(Number);
  } catch {
    return []; // pgrep exits 1 when nothing matches
  }
}

/** A home whose mcp.json has one server that never answers and starts a child of its own. */
function silentServerHome() {
  const dirs = makeCliDirs();
  const marker = `jarvis-silent-${process.pid}-${Math.random().toString(36).slice(2)}`;
  const child = `setInterval(() => {}, 1000) // ${marker}-child`;
  const script =
    `require('child_process').spawn(process.execPath, ['-e', ${JSON.stringify(child)}], { stdio: 'ignore' });` +
    ` setInterval(() => {}, 1000) // ${marker}`;
  const silent = { command: process.execPath, args: ['-e', script], startupTimeoutMs: 30_000 };
  writeFileSync(join(dirs.home, 'mcp.json'), JSON.stringify({ mcpServers: { silent } }));
  return { dirs, marker };
}

function journalHasPrompt(home: string, prompt: string): boolean {
  try {
    return latestJournal(home).some((r) => r.type === 'turn_start' && r.prompt === prompt);
  } catch {
    return false; // the session folder or journal is not written yet
  }
}

async function startAndInterrupt(presses: 1 | 2) {
  const { dirs, marker } = silentServerHome();
  const began = Date.now();
  const env = cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai')));
  const child = spawnJarvis(['-p', 'hello there'], { env, cwd: dirs.cwd });
  const result = collect(child, 20_000);
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  await waitUntil(() => journalHasPrompt(dirs.home, 'hello there'), 15_000, 'the prompt in the journal');
  const journalled = Date.now() - began;
  await waitUntil(() => stderr.includes('Waiting for MCP server'), 15_000, 'the wait to be announced');
  await waitUntil(() => running(`${marker}-child`).length > 0, 15_000, "the server's own child");
  const interruptedAt = Date.now();
  child.kill('SIGINT');
  if (presses === 2) child.kill('SIGINT');
  const r = await result;
  const exitMs = Date.now() - interruptedAt;
  console.log(
    `never-answering server, ${presses} Ctrl-C: prompt journalled ${journalled} ms after spawn; ` +
      `exit ${exitMs} ms after Ctrl-C`,
  );
  return { r, dirs, marker, stderr };
}

describe('jarvis -p with an MCP server that never answers', () => {
  it('journals the prompt and names the awaited server; Ctrl-C exits at once, leaving no server process', async () => {
    const { r, dirs, marker } = await startAndInterrupt(1);
    expect(r.code).toBe(130);
    expect(r.stderr).toMatch(/info: Waiting for MCP servers? .*"silent"/);
    expect(server.requests.some((q) => JSON.stringify(q.body).includes('hello there'))).toBe(false);
    expect(journalHasPrompt(dirs.home, 'hello there')).toBe(true);
    expect(latestJournal(dirs.home).find((x) => x.type === 'turn_end')).toMatchObject({ reason: 'cancelled' });
    await waitUntil(() => running(marker).length === 0, 5_000, 'no process of the silent server');
    expect(running(marker)).toEqual([]);
  });

  it('a second Ctrl-C at once also leaves no server process (the whole group is killed)', async () => {
    const { r, marker } = await startAndInterrupt(2);
    expect(r.code).toBe(130);
    await waitUntil(() => running(marker).length === 0, 5_000, 'no process of the silent server');
    expect(running(marker)).toEqual([]);
  });
});
