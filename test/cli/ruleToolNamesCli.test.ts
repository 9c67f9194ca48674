// A permission rule naming an unknown tool, as a user meets it (docs/approvals.md "Rules from other tools"): the
// built CLI says so on stderr in print mode and in `jarvis doctor`, with the file, line and nearest known name.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, makeCliDirs, mockModelEnv, runJarvis } from '../helpers/cli';
import { startMockModelServer, type MockModelServer } from '../helpers/mockModelServer';

let server: MockModelServer;
beforeAll(async () => {
  server = await startMockModelServer();
});
afterAll(async () => {
  await server.close();
});

const CONFIG = `[[permission.rules]]
decision = "allow"
pattern = "Bsh(touch *)"

[[permission.rules]]
decision = "allow"
pattern = "WebFetch(domain:example.com)"
`;

const WARNING =
  'config.toml:1: permission rule allow "Bsh(touch *)" names no tool called "Bsh" (nearest known name: Bash); ' +
  'the rule matches nothing until it is fixed';

describe('unknown tool names in permission rules', () => {
  it('jarvis -p says it on stderr, once; the rule with a known alias is not warned about', async () => {
    const dirs = makeCliDirs();
    writeFileSync(join(dirs.home, 'config.toml'), CONFIG);
    server.push({ text: 'finished' });
    const r = await runJarvis(['-p', 'hello'], {
      env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))),
      cwd: dirs.cwd,
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`warning: ~/${WARNING}`);
    expect(r.stderr.match(/names no tool called/g)).toHaveLength(1);
    expect(r.stdout).toContain('finished');
  });

  it('jarvis doctor shows the same warning for config.toml', async () => {
    const dirs = makeCliDirs();
    writeFileSync(join(dirs.home, 'config.toml'), CONFIG);
    const r = await runJarvis(['doctor'], { env: cliEnv(dirs), cwd: dirs.cwd });
    expect(r.stdout + r.stderr).toContain(WARNING);
  });
});
