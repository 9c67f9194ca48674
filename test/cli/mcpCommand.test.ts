import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliEnv, makeCliDirs, runJarvis } from '../helpers/cli';
import { setWorkspaceTrust } from '../../src/store/trust';

const read = (file: string) => JSON.parse(readFileSync(file, 'utf8'));

describe('jarvis mcp list|add|remove', () => {
  it('add writes stdio and http entries, keeps the other content of the file, and list shows them', async () => {
    const dirs = makeCliDirs();
    const env = cliEnv(dirs);
    const file = join(dirs.home, 'mcp.json');
    writeFileSync(file, JSON.stringify({ note: 'mine', mcpServers: { old: { command: 'old-server' } } }));
    const add = await runJarvis(
      ['mcp', 'add', 'files', '-e', 'ROOT=/tmp', '--', 'npx', '-y', 'some-server', '--flag'],
      { env, cwd: dirs.cwd },
    );
    expect(add.stderr).toBe('');
    expect(add.code).toBe(0);
    expect(add.stdout).toMatch(/Added MCP server "files" \(stdio: npx -y some-server --flag\)/);
    const web = await runJarvis(
      [
        'mcp',
        'add',
        'web',
        'https://mcp.example.test/mcp',
        '-H',
        'X-Team: blue',
        '--bearer-token-env-var',
        'WEB_TOKEN',
      ],
      { env, cwd: dirs.cwd },
    );
    expect(web.code).toBe(0);
    expect(read(file)).toEqual({
      note: 'mine',
      mcpServers: {
        old: { command: 'old-server' },
        files: { command: 'npx', args: ['-y', 'some-server', '--flag'], env: { ROOT: '/tmp' } },
        web: { url: 'https://mcp.example.test/mcp', headers: { 'X-Team': 'blue' }, bearerTokenEnvVar: 'WEB_TOKEN' },
      },
    });
    const list = await runJarvis(['mcp', 'list'], { env, cwd: dirs.cwd });
    const own = list.stdout.split('\n').filter((l) => / user /.test(l));
    expect(own).toEqual([
      expect.stringMatching(/^old {2}user {2}stdio: old-server {2}\(enabled; from .*mcp\.json\)$/),
      expect.stringMatching(/^files {2}user {2}stdio: npx -y some-server --flag {2}\(enabled; from .*mcp\.json\)$/),
      expect.stringMatching(
        /^web {2}user {2}http: https:\/\/mcp\.example\.test\/mcp {2}\(enabled; from .*mcp\.json\)$/,
      ),
    ]);
    // The bundled plugin's server is listed with the manifest that declares it.
    expect(list.stdout).toMatch(
      /^plugin-jarvis-documents_documents {2}plugin {2}stdio: .*server\.mjs {2}\(enabled; from .*jarvis\.plugin\.json\)$/m,
    );
    expect(list.stdout).toContain('jarvis doctor --online starts each one');
  });

  it('add refuses a duplicate name and bad input with a clear message, changing nothing', async () => {
    const dirs = makeCliDirs();
    const env = cliEnv(dirs);
    await runJarvis(['mcp', 'add', 'a', '--', 'srv'], { env, cwd: dirs.cwd });
    const before = readFileSync(join(dirs.home, 'mcp.json'), 'utf8');
    const dup = await runJarvis(['mcp', 'add', 'a', '--', 'other'], { env, cwd: dirs.cwd });
    expect([dup.code, dup.stderr]).toEqual([
      2,
      expect.stringMatching(/MCP server "a" already exists in .*mcp\.json; remove it first \(jarvis mcp remove a\)/),
    ]);
    const badName = await runJarvis(['mcp', 'add', 'bad name', '--', 'srv'], { env, cwd: dirs.cwd });
    expect(badName.stderr).toMatch(/the name may contain only letters, digits/);
    const badEnv = await runJarvis(['mcp', 'add', 'b', '-e', 'NOVALUE', '--', 'srv'], { env, cwd: dirs.cwd });
    expect(badEnv.stderr).toMatch(/--env expects NAME=VALUE, got "NOVALUE"/);
    expect(readFileSync(join(dirs.home, 'mcp.json'), 'utf8')).toBe(before);
  });

  it('a broken mcp.json is never overwritten', async () => {
    const dirs = makeCliDirs();
    writeFileSync(join(dirs.home, 'mcp.json'), '{"mcpServers": {');
    const r = await runJarvis(['mcp', 'add', 'a', '--', 'srv'], { env: cliEnv(dirs), cwd: dirs.cwd });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/mcp\.json is not valid JSON .*Fix or move it first; it was not changed/);
    expect(readFileSync(join(dirs.home, 'mcp.json'), 'utf8')).toBe('{"mcpServers": {');
  });

  it('project scope: written under .jarvis-code/, listed as not used until the workspace is trusted; remove finds it', async () => {
    const dirs = makeCliDirs();
    const env = cliEnv(dirs);
    const add = await runJarvis(['mcp', 'add', '--scope', 'project', 'proj', '--', 'proj-server'], {
      env,
      cwd: dirs.cwd,
    });
    expect(add.stdout).toMatch(/This workspace is not trusted/);
    expect(read(join(dirs.cwd, '.jarvis-code', 'mcp.json'))).toEqual({
      mcpServers: { proj: { command: 'proj-server', args: [] } },
    });
    expect((await runJarvis(['mcp', 'list'], { env, cwd: dirs.cwd })).stdout).toMatch(
      /^proj {2}project {2}stdio: proj-server {2}\(not used: this workspace is not trusted; from .*mcp\.json\)$/m,
    );
    setWorkspaceTrust(dirs.home, dirs.cwd, true);
    expect((await runJarvis(['mcp', 'list'], { env, cwd: dirs.cwd })).stdout).toMatch(
      /^proj {2}project {2}stdio: proj-server {2}\(enabled; from .*mcp\.json\)$/m,
    );
    const rm = await runJarvis(['mcp', 'remove', 'proj'], { env, cwd: dirs.cwd });
    expect(rm.code).toBe(0);
    expect(read(join(dirs.cwd, '.jarvis-code', 'mcp.json'))).toEqual({ mcpServers: {} });
    const again = await runJarvis(['mcp', 'remove', 'proj'], { env, cwd: dirs.cwd });
    expect(again.stderr).toMatch(/no MCP server "proj" in/);
  });

  it('remove asks for --scope when both files have the name', async () => {
    const dirs = makeCliDirs();
    const env = cliEnv(dirs);
    mkdirSync(join(dirs.cwd, '.jarvis-code'));
    writeFileSync(join(dirs.cwd, '.jarvis-code', 'mcp.json'), JSON.stringify({ mcpServers: { x: { command: 'a' } } }));
    writeFileSync(join(dirs.home, 'mcp.json'), JSON.stringify({ mcpServers: { x: { command: 'b' } } }));
    const r = await runJarvis(['mcp', 'remove', 'x'], { env, cwd: dirs.cwd });
    expect(r.stderr).toMatch(/say which with --scope user or --scope project/);
    expect((await runJarvis(['mcp', 'remove', 'x', '--scope', 'user'], { env, cwd: dirs.cwd })).code).toBe(0);
    expect(read(join(dirs.home, 'mcp.json'))).toEqual({ mcpServers: {} });
  });
});
