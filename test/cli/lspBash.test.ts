// docs/lsp.md "Diagnostics after Bash", end to end through `jarvis -p`: the built CLI, the mock
// model, the real typescript-language-server from node_modules, and a git repository made from the fixture project.
import { execFileSync } from 'node:child_process';
import { cpSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setWorkspaceTrust } from '../../src/store/trust';
import { startMockModelServer, type MockModelServer, toolResultIn } from '../helpers/mockModelServer';
import { cliEnv, makeCliDirs, mockModelEnv, runJarvis, type CliDirs } from '../helpers/cli';

const BIN = resolve(__dirname, '../../node_modules/.bin');
const FIXTURE = resolve(__dirname, '../fixtures/lsp/ts-project');
const PATH = `${BIN}:/usr/local/bin:/usr/bin:/bin`;

let server: MockModelServer;
beforeAll(async () => {
  server = await startMockModelServer();
});
afterAll(async () => {
  await server.close();
});

/** The fixture project as a git repository with everything committed, trusted, with `config` as config.toml. */
function repo(config: string, without: string[] = []): CliDirs {
  const dirs = makeCliDirs();
  cpSync(FIXTURE, dirs.cwd, { recursive: true });
  for (const file of without) rmSync(join(dirs.cwd, file));
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], { cwd: dirs.cwd });
  git('init', '-q');
  git('add', '.');
  git('commit', '-q', '-m', 'fixture');
  writeFileSync(join(dirs.home, 'config.toml'), config);
  setWorkspaceTrust(dirs.home, dirs.cwd, true);
  return dirs;
}

const bash = (id: string, command: string) => ({ toolCalls: [{ id, name: 'Bash', arguments: { command } }] });

describe('diagnostics after Bash', () => {
  it('a command that breaks a tracked file gets the error; one that changes nothing gets nothing', async () => {
    // Servers take seconds to start on a loaded machine: the wait is a bound, not a duration.
    const dirs = repo('[lsp]\ndiagnostics_wait_ms = 60000\n');
    server.push(
      { toolCalls: [{ id: 'read', name: 'Read', arguments: { path: 'src/cart.ts' } }] },
      // A harmless edit: the server is running (the edit waits for it) and cart.ts is open in it.
      {
        toolCalls: [
          {
            id: 'edit',
            name: 'Edit',
            arguments: { path: 'src/cart.ts', old_string: 'formatPrice(total)', new_string: 'formatPrice(total + 0)' },
          },
        ],
      },
      bash('nothing', 'echo unchanged'),
      // invoice.ts is tracked and not open: git finds it.
      bash('sed', `sed -i 's/formatPrice(cents)/formatPrice(label)/' src/invoice.ts`),
      // cart.ts is open in the server: its size and mtime changed.
      bash('printf', `printf 'export const broken: number = "no";\\n' >> src/cart.ts`),
      { text: 'Done.' },
    );
    const before = server.requests.length;
    const r = await runJarvis(['-p', 'break things with bash'], {
      env: cliEnv(dirs, { ...mockModelEnv(server.baseUrlFor('openai')), PATH }),
      cwd: dirs.cwd,
      timeoutMs: 240_000,
    });
    expect(r.code, r.stderr).toBe(0);
    const requests = server.requests.slice(before);
    expect(toolResultIn(requests, 'edit')).toMatch(/^Edited .*: replaced 1 occurrence at line 5\.$/);
    expect(toolResultIn(requests, 'nothing')).toBe('Exit code: 0\n<stdout>\nunchanged\n</stdout>\n<stderr></stderr>');
    const sed = toolResultIn(requests, 'sed');
    expect(sed).toContain('This command introduced 1 new error (language server):');
    expect(sed).toMatch(/- src\/invoice\.ts:4:35: Argument of type 'string' is not assignable/);
    const printf = toolResultIn(requests, 'printf');
    expect(printf).toContain('This command introduced 1 new error (language server):');
    expect(printf).toMatch(/- src\/cart\.ts:7:14: Type 'string' is not assignable to type 'number'/);
    // The error the earlier command introduced is not new to this one.
    expect(printf).not.toContain('invoice.ts');
    expect(r.stderr).not.toMatch(/language server/);
  }, 300_000);

  it('with no server running, a command that breaks a file gets nothing appended', async () => {
    // No project file in the session folder: no server starts with the session, and Bash starts none.
    const dirs = repo('', ['tsconfig.json']);
    server.push(bash('sed', `sed -i 's/formatPrice(total)/formatPrice("x")/' src/cart.ts`), { text: 'Done.' });
    const before = server.requests.length;
    const r = await runJarvis(['-p', 'bash only'], {
      env: cliEnv(dirs, { ...mockModelEnv(server.baseUrlFor('openai')), PATH }),
      cwd: dirs.cwd,
      timeoutMs: 120_000,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(toolResultIn(server.requests.slice(before), 'sed')).toBe('Exit code: 0\n(no output)');
  }, 180_000);
});
