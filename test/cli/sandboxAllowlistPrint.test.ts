// The network allowlist end to end through `jarvis -p` (docs/sandbox.md#the-network-allowlist): with
// `network = "allowlist"` and `allowed_domains = ["localhost"]`, a Bash call that curls a loopback fixture by that
// name works; one to a name not listed fails with the result naming the domain and the config key; an empty list is
// warned about at start-up.
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockModelServer, type MockModelServer } from '../helpers/mockModelServer';
import { cliEnv, makeCliDirs, mockModelEnv, runJarvis, type CliDirs } from '../helpers/cli';
import { sandboxAvailable } from '../helpers/sandboxAvailable';

const available = sandboxAvailable();
let server: MockModelServer;
let fixture: Server;
let port: number;
let hits = 0;
beforeAll(async () => {
  server = await startMockModelServer();
  fixture = createServer((_req, res) => {
    hits++;
    res.end('ALLOWED-FIXTURE');
  });
  await new Promise<void>((resolve) => fixture.listen(0, '127.0.0.1', resolve));
  port = (fixture.address() as { port: number }).port;
});
afterAll(async () => {
  await server.close();
  await new Promise((resolve) => fixture.close(resolve));
});

async function turn(dirs: CliDirs, commands: Record<string, string>) {
  const before = server.requests.length;
  const calls = Object.entries(commands).map(([id, command]) => ({ id, name: 'Bash', arguments: { command } }));
  server.push({ toolCalls: calls }, { text: 'Done.' });
  const r = await runJarvis(['-p', 'go'], {
    env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))),
    cwd: dirs.cwd,
    timeoutMs: 90_000,
  });
  expect(r.code, r.stderr).toBe(0);
  const results = new Map<string, string>();
  for (const m of server.requests[before + 1].body.messages)
    if (m.role === 'tool') results.set(m.tool_call_id, String(m.content));
  return { results, stderr: r.stderr };
}

describe.skipIf(!available)('jarvis -p with the network allowlist', () => {
  it('lets a listed name through and explains a refused one', async () => {
    const dirs = makeCliDirs();
    writeFileSync(
      join(dirs.home, 'config.toml'),
      '[sandbox]\nnetwork = "allowlist"\nallowed_domains = ["localhost"]\n',
    );
    const before = hits;
    const { results } = await turn(dirs, {
      ok: `curl -sS -f --max-time 20 http://localhost:${port}/ok`,
      no: `curl -sS -f --max-time 20 http://notlisted.test:${port}/`,
    });
    expect(results.get('ok')).toContain('ALLOWED-FIXTURE');
    expect(results.get('ok')).toContain('Exit code: 0');
    const refused = results.get('no') ?? '';
    expect(refused).toContain(`refused notlisted.test:${port}`);
    expect(refused).toContain('[sandbox] allowed_domains');
    expect(hits).toBe(before + 1);
  });

  it('warns at start-up that an empty list refuses everything, and refuses', async () => {
    const dirs = makeCliDirs();
    writeFileSync(join(dirs.home, 'config.toml'), '[sandbox]\nnetwork = "allowlist"\n');
    const before = hits;
    const { results, stderr } = await turn(dirs, { b: `curl -sS -f --max-time 20 http://localhost:${port}/` });
    expect(stderr).toContain('allowed_domains = []: the sandbox network proxy refuses every connection');
    expect(results.get('b')).toContain(`refused localhost:${port}`);
    expect(hits).toBe(before);
  });
});
