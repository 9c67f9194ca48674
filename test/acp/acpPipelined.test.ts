// `jarvis acp` with `session/new` written right behind `initialize` in one chunk, as some editors do:
// both are answered, in order (docs/acp.md). Without `initialize`, `session/new` is still refused.
import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION } from '@agentclientprotocol/sdk';
import { startMockModelServer, type MockModelServer } from '../helpers/mockModelServer';
import { cliEnv, makeCliDirs, mockModelEnv, spawnJarvis, waitUntil, type CliDirs } from '../helpers/cli';

interface Answer {
  id: number;
  result?: Record<string, unknown>;
  error?: { message: string };
}

let server: MockModelServer;
let dirs: CliDirs;

beforeAll(async () => {
  server = await startMockModelServer();
  dirs = makeCliDirs();
});

afterAll(async () => {
  await server.close();
  rmSync(join(dirs.home, '..'), { recursive: true, force: true });
});

/** Writes `lines` to a fresh `jarvis acp` in one write and returns the answers to `ids`. */
async function answersTo(lines: object[], ids: number[]): Promise<Map<number, Answer>> {
  const child: ChildProcess = spawnJarvis(['acp'], {
    env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))),
    cwd: dirs.cwd,
    keepStdinOpen: true,
  });
  const answers = new Map<number, Answer>();
  let buffered = '';
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  child.stdout!.on('data', (d: Buffer) => {
    buffered += d.toString('utf8');
    const parts = buffered.split('\n');
    buffered = parts.pop()!;
    for (const line of parts.filter((l) => l.trim())) {
      const message = JSON.parse(line) as Answer & { method?: string };
      if (message.method === undefined) answers.set(message.id, message);
    }
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.stdin!.write(lines.map((l) => JSON.stringify(l) + '\n').join(''));
  try {
    await waitUntil(() => ids.every((id) => answers.has(id)), 20_000, `answers to ${ids.join(', ')} (${stderr})`);
  } finally {
    child.stdin!.end();
    await exited;
  }
  return answers;
}

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} },
};
const sessionNew = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'session/new',
  params: { cwd: dirs.cwd, mcpServers: [] },
});

describe('jarvis acp, pipelined requests', () => {
  it('answers session/new written in the same chunk as initialize', async () => {
    const answers = await answersTo([initialize, sessionNew(2)], [1, 2]);
    expect(answers.get(1)?.error).toBeUndefined();
    expect(answers.get(1)?.result?.protocolVersion).toBe(PROTOCOL_VERSION);
    expect(answers.get(2)?.error).toBeUndefined();
    expect(typeof answers.get(2)?.result?.sessionId).toBe('string');
  });

  it('still refuses session/new sent without initialize', async () => {
    const answers = await answersTo([sessionNew(7)], [7]);
    expect(answers.get(7)?.error?.message).toMatch(/initialized before 'session\/new'/);
  });
});
