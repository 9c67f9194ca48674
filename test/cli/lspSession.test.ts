// A session's language servers through `jarvis -p` on the built CLI (docs/lsp.md "Servers"): the real
// typescript-language-server behind a recorder (test/fixtures/lsp/lsp-recorder.mjs) that logs what Jarvis sends it.
// The server starts when a session opens in a trusted project (and not in an untrusted one); 400 reads keep at most 50
// documents open; references asked as a session's first call cover the whole project, and a folder without
// tsconfig.json gets them marked partial. The sandbox is off here so the recorder can write its log; sandboxed servers
// are covered by lspFirstEdit.test.ts and lspTrustAttacks.test.ts.
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setWorkspaceTrust } from '../../src/store/trust';
import { startMockModelServer, type MockModelServer, toolResultIn } from '../helpers/mockModelServer';
import { cliEnv, makeCliDirs, mockModelEnv, runJarvis, waitUntil, type CliDirs } from '../helpers/cli';

const FIXTURE = resolve(__dirname, '../fixtures/lsp/ts-project');
const RECORDER = resolve(__dirname, '../fixtures/lsp/lsp-recorder.mjs');
const SERVER = resolve(__dirname, '../../node_modules/.bin/typescript-language-server');
const PATH = '/usr/local/bin:/usr/bin:/bin';

let server: MockModelServer;
beforeAll(async () => {
  server = await startMockModelServer();
  chmodSync(RECORDER, 0o755);
});
afterAll(async () => {
  await server.close();
});

interface Recorded {
  dirs: CliDirs;
  log: string;
  messages(): Array<{ method: string; uri?: string }>;
}

/** The fixture project with the recorder as its typescript server; trusted unless said. */
function project(opts: { trusted?: boolean; without?: string[] } = {}): Recorded {
  const dirs = makeCliDirs();
  cpSync(FIXTURE, dirs.cwd, { recursive: true });
  for (const file of opts.without ?? []) rmSync(join(dirs.cwd, file));
  const log = join(dirs.home, 'lsp-messages.jsonl');
  writeFileSync(
    join(dirs.home, 'config.toml'),
    '[sandbox]\nenabled = false\n[lsp.servers.typescript]\n' +
      `command = ${JSON.stringify(RECORDER)}\nargs = ${JSON.stringify([log, SERVER, '--stdio'])}\n`,
  );
  if (opts.trusted !== false) setWorkspaceTrust(dirs.home, dirs.cwd, true);
  const messages = () =>
    existsSync(log)
      ? readFileSync(log, 'utf8')
          .trim()
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as { method: string; uri?: string })
      : [];
  return { dirs, log, messages };
}

function jarvis(dirs: CliDirs, prompt: string) {
  return runJarvis(['-p', prompt], {
    env: cliEnv(dirs, { ...mockModelEnv(server.baseUrlFor('openai')), PATH }),
    cwd: dirs.cwd,
    timeoutMs: 400_000,
  });
}

describe('servers with the session', () => {
  it('a session opened in a trusted project starts its server before any file is read', async () => {
    const p = project();
    // The model's first answer waits until the server was asked to initialize: nothing has been read yet.
    server.push({
      before: () =>
        waitUntil(() => p.messages().some((m) => m.method === 'initialize'), 120_000, 'the server to start'),
      text: 'Nothing to do.',
    });
    const r = await jarvis(p.dirs, 'hello');
    expect(r.code, r.stderr).toBe(0);
    expect(p.messages().filter((m) => m.method === 'textDocument/didOpen')).toEqual([]);
    // Stopped with the session (started or not), quietly.
    expect(r.stderr).not.toMatch(/language server/);
  }, 300_000);

  it('in an untrusted folder no server starts, not with the session and not for a Read', async () => {
    const p = project({ trusted: false });
    server.push({ toolCalls: [{ id: 'read', name: 'Read', arguments: { path: 'src/cart.ts' } }] }, { text: 'Read.' });
    const r = await jarvis(p.dirs, 'read it');
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(p.log)).toBe(false);
  }, 300_000);
});

describe('open documents', () => {
  it('400 reads keep at most 50 documents open in the server (the oldest are closed)', async () => {
    const p = project();
    mkdirSync(join(p.dirs.cwd, 'src/many'));
    for (let i = 0; i < 400; i++)
      writeFileSync(join(p.dirs.cwd, `src/many/m${i}.ts`), `export const m${i}: number = ${i};\n`);
    const opened = () => p.messages().filter((m) => m.method === 'textDocument/didOpen').length;
    for (let batch = 0; batch < 8; batch++)
      server.push({
        toolCalls: Array.from({ length: 50 }, (_, j) => ({
          id: `r${batch * 50 + j}`,
          name: 'Read',
          arguments: { path: `src/many/m${batch * 50 + j}.ts` },
        })),
      });
    // The model's last answer waits until the warm-ups of the reads opened their files (a bound, not a duration).
    server.push({ before: () => waitUntil(() => opened() >= 400, 300_000, '400 files opened'), text: 'Read all.' });
    const r = await jarvis(p.dirs, 'read 400 files');
    expect(r.code, r.stderr).toBe(0);
    let open = 0;
    let most = 0;
    const seen = new Set<string>();
    for (const m of p.messages()) {
      if (m.method === 'textDocument/didOpen') {
        open += 1;
        seen.add(m.uri!);
      } else if (m.method === 'textDocument/didClose') open -= 1;
      most = Math.max(most, open);
    }
    expect(seen.size).toBe(400);
    expect(most).toBe(50);
    expect(p.messages().filter((m) => m.method === 'textDocument/didClose').length).toBe(350);
  }, 500_000);
});

/** A session whose first call asks for the references of formatPrice (used in three files); the answer. */
async function referencesFirst(p: Recorded): Promise<string> {
  server.push(
    {
      toolCalls: [
        { id: 'refs', name: 'Lsp', arguments: { operation: 'references', path: 'src/cart.ts', line: 5, column: 10 } },
      ],
    },
    { text: 'Found.' },
  );
  const before = server.requests.length;
  const r = await jarvis(p.dirs, 'where is formatPrice used');
  expect(r.code, r.stderr).toBe(0);
  return toolResultIn(server.requests.slice(before), 'refs');
}

describe('references as the first call of a session', () => {
  it('wait for the project: the uses in all three files', async () => {
    const refs = await referencesFirst(project());
    expect(refs).toContain('5 references:');
    const files = new Set([...refs.matchAll(/^- ([^:]+):\d+:\d+/gm)].map((m) => m[1]));
    expect([...files].sort()).toEqual(['src/cart.ts', 'src/invoice.ts', 'src/price.ts']);
    expect(refs).not.toContain('Partial');
  }, 300_000);

  it('a folder without tsconfig.json: the answer says it is partial and why', async () => {
    const p = project({ without: ['tsconfig.json'] });
    writeFileSync(join(p.dirs.cwd, 'package.json'), '{ "name": "shop", "private": true }\n');
    expect(await referencesFirst(p)).toContain(
      '(Partial: the session folder has no tsconfig.json or jsconfig.json, so TypeScript knows only the files opened ' +
        'so far and what they import; files that are never imported from them are missing.)',
    );
  }, 300_000);
});
