// Print mode end to end: the calls of one response are numbered on stderr so each result names its call, and an
// invalid-arguments error says what is invalid (docs/print-mode.md "Output").
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockModelServer, type MockModelServer } from '../helpers/mockModelServer';
import { cliEnv, makeCliDirs, mockModelEnv, runJarvis } from '../helpers/cli';

let server: MockModelServer;
beforeAll(async () => {
  server = await startMockModelServer();
});
afterAll(async () => {
  await server.close();
});

describe('jarvis -p: parallel tool calls on stderr', () => {
  it('each call and its result carry the same number; the Edit error lists the invalid fields', async () => {
    const dirs = makeCliDirs();
    writeFileSync(join(dirs.cwd, 'a.txt'), 'alpha\n');
    server.push(
      {
        toolCalls: [
          { name: 'Read', arguments: { path: 'a.txt' } },
          { name: 'Edit', arguments: { path: 'a.txt', new_string: 42 } },
          { name: 'Glob', arguments: { pattern: '*.txt' } },
        ],
      },
      { toolCalls: [{ name: 'Read', arguments: { path: 'a.txt' } }] },
      { text: 'Done.' },
    );
    const r = await runJarvis(['-p', 'look at a.txt'], {
      env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))),
      cwd: dirs.cwd,
    });
    expect(r.code).toBe(0);
    const lines = r.stderr.split('\n');
    const callLine = (n: number) => lines.find((l) => l.startsWith(`• [${n}] `));
    const resultLine = (n: number) => lines.find((l) => /^ {2}[⎿✗] /.test(l) && l.slice(4).startsWith(`[${n}] `));
    expect(callLine(1)).toMatch(/^• \[1\] Read\b.*a\.txt/);
    expect(callLine(2)).toMatch(/^• \[2\] Edit\b/);
    expect(callLine(3)).toMatch(/^• \[3\] Glob\b/);
    expect(resultLine(1)).toMatch(/^ {2}⎿ \[1\] /);
    expect(resultLine(3)).toMatch(/^ {2}⎿ \[3\] .*1/);
    // Not "✗ Invalid arguments for Edit:" and nothing after it: the fields and what is wrong with them.
    const editError = resultLine(2)!;
    expect(editError).toMatch(/^ {2}✗ \[2\] Invalid arguments for Edit: /);
    expect(editError).toMatch(/old_string: .*expected string, received undefined/);
    expect(editError).toMatch(/new_string: .*expected string, received number/);
    // A response with one call is not numbered.
    expect(lines.filter((l) => /^• Read\b.*a\.txt/.test(l))).toHaveLength(1);
    expect(lines.filter((l) => l.startsWith('  ⎿ ') && !l.startsWith('  ⎿ ['))).toHaveLength(1);
  });

  it('twenty searches side by side: each answered, and no listener warning from Node on stderr', async () => {
    const dirs = makeCliDirs();
    for (let i = 0; i < 20; i++) writeFileSync(join(dirs.cwd, `f${i}.txt`), `word${i}\n`);
    server.push(
      { toolCalls: Array.from({ length: 20 }, (_, i) => ({ name: 'Grep', arguments: { pattern: `word${i}\b` } })) },
      { text: 'Found them.' },
    );
    const r = await runJarvis(['-p', 'find the words'], {
      env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))),
      cwd: dirs.cwd,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('• [20] Grep');
    expect(r.stderr).not.toMatch(/MaxListenersExceededWarning|memory leak/);
  });
});
