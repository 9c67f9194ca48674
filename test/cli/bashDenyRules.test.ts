// A deny rule on `rm` holds in print mode however the model writes the command: through lists,
// wrappers, subshells, substitutions, nested shells, xargs, eval and variables. The model is told
// which part of the line the rule refused and where the rule was written.
import { existsSync, writeFileSync } from 'node:fs';
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

const DENIED = [
  'rm -f x',
  'echo hi && rm -f x',
  'echo hi; rm -f x',
  'false || rm -f x',
  '/bin/rm -f x',
  ' rm -f x',
  'command rm -f x',
  'env FOO=1 rm -f x',
  'timeout 5 rm -f x',
  '(rm -f x)',
  'echo $(rm -f x)',
  'bash -c "rm -f x"',
  'echo x | xargs rm -f',
  'RM=rm; $RM -f x',
  'eval "rm -f x"',
];

describe('print mode with deny Bash(rm *)', () => {
  it('refuses every way of writing rm and tells the model which part was refused', async () => {
    const dirs = makeCliDirs();
    writeFileSync(
      join(dirs.home, 'config.toml'),
      '# rules\n\n[[permission.rules]]\ndecision = "deny"\npattern = "Bash(rm *)"\nreason = "use trash"\n',
    );
    writeFileSync(join(dirs.cwd, 'x'), 'keep me');
    const before = server.requests.length;
    server.push(
      { toolCalls: DENIED.map((command, i) => ({ id: `c${i}`, name: 'Bash', arguments: { command } })) },
      { text: 'All refused.' },
    );
    const r = await runJarvis(['-p', 'delete x'], {
      env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))),
      cwd: dirs.cwd,
      timeoutMs: 60_000,
    });
    expect(r.stderr).not.toMatch(/error/i);
    expect(r.code).toBe(0);
    expect(existsSync(join(dirs.cwd, 'x'))).toBe(true);
    expect(server.requests.length - before).toBe(2);
    const results = new Map<string, string>();
    for (const m of server.requests[before + 1].body.messages)
      if (m.role === 'tool') results.set(m.tool_call_id, String(m.content));
    DENIED.forEach((command, i) => {
      const text = results.get(`c${i}`) ?? '';
      expect(text, command).toContain('is denied by a permission rule (rule deny Bash(rm *) (~/config.toml:3))');
      if (command.startsWith('RM=')) expect(text).toContain('the program $RM is known only when the command runs');
      else expect(text, command).toContain('use trash');
    });
    expect(results.get('c1')).toContain('it runs rm -f x');
    expect(results.get('c12')).toContain('it runs rm -f');
  });
});
