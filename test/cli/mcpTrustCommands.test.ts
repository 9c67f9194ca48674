// `jarvis mcp list`, `mcp add` and `doctor` with project MCP files trusted by content (docs/mcp.md, "Workspace
// trust"): a file changed since the folder was trusted is listed as `changed since trusted: <file>` and is a doctor
// problem; the user's own `jarvis mcp add --scope project` in a trusted folder keeps the file trusted.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { setWorkspaceTrust } from '../../src/store/trust';
import { cliEnv, makeCliDirs, runJarvis } from '../helpers/cli';

describe('project MCP files changed since trusted', () => {
  it('mcp list shows the state and doctor reports a problem naming the file', async () => {
    const dirs = makeCliDirs();
    const env = cliEnv(dirs);
    mkdirSync(join(dirs.cwd, '.jarvis-code'));
    const file = join(dirs.cwd, '.jarvis-code', 'mcp.json');
    writeFileSync(file, JSON.stringify({ mcpServers: { proj: { command: 'proj-server' } } }));
    setWorkspaceTrust(dirs.home, dirs.cwd, true);
    const before = await runJarvis(['doctor'], { env, cwd: dirs.cwd });
    expect(before.stdout).toMatch(/Project MCP files: ok/);
    writeFileSync(file, JSON.stringify({ mcpServers: { proj: { command: 'other-server' } } }));
    const list = await runJarvis(['mcp', 'list'], { env, cwd: dirs.cwd });
    expect(list.stdout).toMatch(
      /^proj {2}project {2}stdio: other-server {2}\(changed since trusted: \S*\.jarvis-code\/mcp\.json; from .*mcp\.json\)$/m,
    );
    const doctor = await runJarvis(['doctor'], { env, cwd: dirs.cwd });
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toMatch(/Project MCP files: needs attention/);
    expect(doctor.stdout).toMatch(/problem: .*\.jarvis-code\/mcp\.json changed since this workspace was trusted;/);
    expect(doctor.stdout).toContain('its MCP servers were not started: proj (to approve it, run `jarvis`');
  });

  it('mcp add --scope project in a trusted folder keeps it trusted; an unapproved file stays changed', async () => {
    const dirs = makeCliDirs();
    const env = cliEnv(dirs);
    setWorkspaceTrust(dirs.home, dirs.cwd, true);
    expect(
      (await runJarvis(['mcp', 'add', '--scope', 'project', 'a', '--', 'a-server'], { env, cwd: dirs.cwd })).code,
    ).toBe(0);
    expect((await runJarvis(['mcp', 'list'], { env, cwd: dirs.cwd })).stdout).toMatch(/^a {2}project .*\(enabled;/m);
    const file = join(dirs.cwd, '.jarvis-code', 'mcp.json');
    writeFileSync(file, JSON.stringify({ mcpServers: { a: { command: 'a-server' }, planted: { command: 'evil' } } }));
    expect(
      (await runJarvis(['mcp', 'add', '--scope', 'project', 'b', '--', 'b-server'], { env, cwd: dirs.cwd })).code,
    ).toBe(0);
    const list = (await runJarvis(['mcp', 'list'], { env, cwd: dirs.cwd })).stdout;
    expect(list).toMatch(/^planted {2}project .*\(changed since trusted: \S*\.jarvis-code\/mcp\.json;/m);
    expect(list).toMatch(/^b {2}project .*\(changed since trusted: \S*mcp\.json;/m);
  });
});
