// Code intelligence end to end through `jarvis -p` (docs/lsp.md): the built CLI, the mock model, and the real
// typescript-language-server and pyright-langserver from node_modules on fixture projects.
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setWorkspaceTrust } from '../../src/store/trust';
import { startMockModelServer, type MockModelServer, toolResultIn } from '../helpers/mockModelServer';
import { cliEnv, makeCliDirs, mockModelEnv, runJarvis, type CliDirs } from '../helpers/cli';

const BIN = resolve(__dirname, '../../node_modules/.bin');
const FIXTURES = resolve(__dirname, '../fixtures/lsp');
// Servers take seconds to start on a loaded machine: the wait is a bound, not a duration.
const CONFIG = '[lsp]\ndiagnostics_wait_ms = 60000\n';

let server: MockModelServer;
beforeAll(async () => {
  server = await startMockModelServer();
});
afterAll(async () => {
  await server.close();
});

function projectDirs(fixture: string): CliDirs {
  const dirs = makeCliDirs();
  cpSync(join(FIXTURES, fixture), dirs.cwd, { recursive: true });
  mkdirSync(dirs.home, { recursive: true });
  writeFileSync(join(dirs.home, 'config.toml'), CONFIG);
  setWorkspaceTrust(dirs.home, dirs.cwd, true);
  return dirs;
}

function jarvis(dirs: CliDirs, args: string[], path: string) {
  return runJarvis(args, {
    env: cliEnv(dirs, { ...mockModelEnv(server.baseUrlFor('openai')), PATH: path }),
    cwd: dirs.cwd,
    timeoutMs: 240_000,
  });
}

const SYSTEM_PATH = '/usr/local/bin:/usr/bin:/bin';

describe.each([
  {
    kind: 'ts',
    file: 'src/cart.ts',
    good: 'formatPrice(total)',
    bad: 'formatPrice("x")',
    error: /src\/cart\.ts:5:22: Argument of type 'string' is not assignable to parameter of type 'number'/,
    at: { line: 5, column: 10 },
    places: [/src\/price\.ts:1:17/, /src\/cart\.ts:5:10/, /src\/invoice\.ts:4:23/],
    definition: /src\/price\.ts:1:17: export function formatPrice/,
  },
  {
    kind: 'py',
    file: 'cart.py',
    good: 'format_price(sum(items))',
    bad: 'format_price("x")',
    error: /cart\.py:5:25: Argument of type "Literal\['x'\]" cannot be assigned/,
    at: { line: 5, column: 12 },
    places: [/prices\.py:1:5/, /cart\.py:5:12/, /invoice\.py:5:27/],
    definition: /prices\.py:1:5: def format_price/,
  },
])('the $kind project', ({ kind, file, good, bad, error, at, places, definition }) => {
  it('a breaking Edit gets the error, the fix none; Lsp finds the definition and the uses in three files', async () => {
    const dirs = projectDirs(`${kind}-project`);
    server.push(
      { toolCalls: [{ id: 'read', name: 'Read', arguments: { path: file } }] },
      { toolCalls: [{ id: 'break', name: 'Edit', arguments: { path: file, old_string: good, new_string: bad } }] },
      { toolCalls: [{ id: 'fix', name: 'Edit', arguments: { path: file, old_string: bad, new_string: good } }] },
      {
        toolCalls: [
          { id: 'def', name: 'Lsp', arguments: { operation: 'definition', path: file, ...at } },
          { id: 'refs', name: 'Lsp', arguments: { operation: 'references', path: file, ...at } },
        ],
      },
      { text: 'Checked.' },
    );
    const before = server.requests.length;
    const r = await jarvis(dirs, ['-p', 'break it and fix it'], `${BIN}:${SYSTEM_PATH}`);
    expect(r.code, r.stderr).toBe(0);
    const requests = server.requests.slice(before);
    const broken = toolResultIn(requests, 'break');
    expect(broken).toContain('This change introduced 1 new error');
    expect(broken).toMatch(error);
    const fixed = toolResultIn(requests, 'fix');
    expect(fixed).toMatch(/^Edited .*: replaced 1 occurrence at line 5\.$/);
    expect(toolResultIn(requests, 'def')).toMatch(definition);
    const refs = toolResultIn(requests, 'refs');
    // The declaration and the uses in the three files (the two imports are references too).
    expect(refs).toContain('5 references:');
    for (const place of places) expect(refs).toMatch(place);
    const files = new Set([...refs.matchAll(/^- ([^:]+):\d+:\d+/gm)].map((m) => m[1]));
    expect(files.size).toBe(3);
    expect(r.stderr).not.toMatch(/language server/);
  }, 300_000);
});

describe('a project where no server is installed', () => {
  it('edits work and each says it was not checked and why; one notice says how to install it; Lsp says the same', async () => {
    const dirs = projectDirs('ts-project');
    writeFileSync(
      join(dirs.home, 'config.toml'),
      `${CONFIG}[lsp.servers.python]\ncommand = "/nonexistent/pyright-langserver"\n`,
    );
    writeFileSync(join(dirs.cwd, 'tool.py'), 'x: int = 1\n');
    server.push(
      {
        toolCalls: [
          { id: 'r1', name: 'Read', arguments: { path: 'src/cart.ts' } },
          { id: 'r2', name: 'Read', arguments: { path: 'tool.py' } },
        ],
      },
      {
        toolCalls: [
          {
            id: 'e1',
            name: 'Edit',
            arguments: { path: 'src/cart.ts', old_string: 'formatPrice(total)', new_string: 'formatPrice("x")' },
          },
          { id: 'e2', name: 'Edit', arguments: { path: 'tool.py', old_string: '1', new_string: '"one"' } },
        ],
      },
      {
        toolCalls: [
          { id: 'e3', name: 'Edit', arguments: { path: 'src/cart.ts', old_string: '"x"', new_string: '"y"' } },
        ],
      },
      {
        toolCalls: [
          { id: 'l1', name: 'Lsp', arguments: { operation: 'hover', path: 'src/cart.ts', line: 5, column: 10 } },
        ],
      },
      { text: 'Done.' },
    );
    const before = server.requests.length;
    const r = await jarvis(dirs, ['-p', 'edit without servers'], SYSTEM_PATH);
    expect(r.code, r.stderr).toBe(0);
    const requests = server.requests.slice(before);
    const notInstalled = (file: string, line: number, why: string) =>
      new RegExp(
        `^Edited .*${file}: replaced 1 occurrence at line ${line}\\.\n\n` +
          `\\(Not checked by a language server: no \\w+ language server is installed: ${why}`,
      );
    const onPath = `"typescript-language-server" is not in the project's node_modules/\\.bin or on PATH\\. `;
    const install = 'Install it with: npm i -g typescript-language-server@5 typescript@5';
    expect(toolResultIn(requests, 'e1')).toMatch(notInstalled('cart\\.ts', 5, onPath + install));
    expect(toolResultIn(requests, 'e2')).toMatch(
      notInstalled('tool\\.py', 1, '".*" does not exist or is not executable'),
    );
    expect(toolResultIn(requests, 'e3')).toMatch(notInstalled('cart\\.ts', 5, onPath + install));
    expect(toolResultIn(requests, 'l1')).toContain('npm i -g typescript-language-server@5 typescript@5');
    const notices = r.stderr.split('\n').filter((l) => l.startsWith('info: No '));
    // One per missing server: typescript (not on PATH) and python (configured to a path that does not exist).
    expect(notices, r.stderr).toHaveLength(2);
    // The two edits run in parallel: the notices come in either order.
    const typescript = notices.find((n) => n.includes('No typescript'));
    expect(typescript).toContain('Install it with: npm i -g typescript-language-server@5 typescript@5');
    expect(notices.find((n) => n.includes('No python'))).toContain('does not exist or is not executable');
  }, 300_000);
});
