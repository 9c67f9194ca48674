// `[compat] mcp_json` (docs/compatibility.md "MCP configs") decides everywhere whether the project `.mcp.json`
// counts: `jarvis mcp list` (built CLI) and the workspace-trust prompt list it with its file when on, not at all
// when off.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_COMPAT } from '../../src/store/compat';
import { projectMcpServers } from '../../src/ui/dialogs/trustPrompt';
import { cliEnv, makeCliDirs, runJarvis } from '../helpers/cli';

function project() {
  const dirs = makeCliDirs();
  mkdirSync(join(dirs.cwd, '.git'));
  writeFileSync(
    join(dirs.cwd, '.mcp.json'),
    JSON.stringify({ mcpServers: { claudeside: { command: 'node', args: ['claude-server.js'] } } }),
  );
  mkdirSync(join(dirs.cwd, '.jarvis-code'));
  writeFileSync(
    join(dirs.cwd, '.jarvis-code', 'mcp.json'),
    JSON.stringify({ mcpServers: { ourside: { command: 'node', args: ['our-server.js'] } } }),
  );
  return dirs;
}

describe('[compat] mcp_json', () => {
  it('on (the default): jarvis mcp list shows the .mcp.json server with its file; off: not listed', async () => {
    const dirs = project();
    const env = cliEnv(dirs);
    const on = await runJarvis(['mcp', 'list'], { env, cwd: dirs.cwd });
    expect(on.code, on.stderr).toBe(0);
    expect(on.stdout).toMatch(
      new RegExp(
        '^claudeside {2}project {2}stdio: node claude-server\\.js {2}' +
          '\\(not used: this workspace is not trusted; from .*/work/\\.mcp\\.json\\)$',
        'm',
      ),
    );
    expect(on.stdout).toMatch(/^ourside {2}project .*from .*\/work\/\.jarvis-code\/mcp\.json\)$/m);
    const json = await runJarvis(['mcp', 'list', '--json'], { env, cwd: dirs.cwd });
    const rows = JSON.parse(json.stdout) as Array<{ name: string; source: string }>;
    expect(rows.find((r) => r.name === 'claudeside')?.source).toBe(join(dirs.cwd, '.mcp.json'));

    writeFileSync(join(dirs.home, 'config.toml'), '[compat]\nmcp_json = false\n');
    const off = await runJarvis(['mcp', 'list'], { env, cwd: dirs.cwd });
    expect(off.code, off.stderr).toBe(0);
    expect(off.stdout).not.toContain('claudeside');
    expect(off.stdout).not.toContain('.mcp.json');
    expect(off.stdout).toMatch(/^ourside {2}project /m);
  });

  it('a broken config.toml stops jarvis mcp list with the problem, rather than guessing [compat]', async () => {
    const dirs = project();
    writeFileSync(join(dirs.home, 'config.toml'), '[compat]\nmcp_json = "no"\n');
    const r = await runJarvis(['mcp', 'list'], { env: cliEnv(dirs), cwd: dirs.cwd });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/compat\.mcp_json/);
    expect(r.stdout).not.toContain('claudeside');
  });

  it('the trust prompt offers the .mcp.json server only with mcp_json on, naming its file', () => {
    const dirs = project();
    const on = projectMcpServers(dirs.cwd, DEFAULT_COMPAT);
    expect(on).toEqual([
      expect.stringMatching(/^ourside: stdio: node our-server\.js \(.*\.jarvis-code\/mcp\.json\)$/),
      expect.stringMatching(/^claudeside: stdio: node claude-server\.js \(.*\/work\/\.mcp\.json\)$/),
    ]);
    const off = projectMcpServers(dirs.cwd, { ...DEFAULT_COMPAT, mcpJson: false });
    expect(off).toEqual([expect.stringMatching(/^ourside: /)]);
  });
});
