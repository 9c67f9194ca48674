// `~/.claude.json` as `claude mcp add` leaves it — a big file of Claude Code's own state with a user-scope
// `mcpServers` and a local-scope one under `projects["<abs path>"]` — read like our MCP config (docs/compatibility.md,
// "MCP configs"): `jarvis mcp list` names both with the file; in print mode the user server's tool answers the model,
// and the project's server starts only in a trusted folder, and only with the launch files in the workspace as they
// were trusted (docs/mcp.md, "Workspace trust").
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setWorkspaceTrust } from '../../src/store/trust';
import { cliEnv, makeCliDirs, mockModelEnv, runJarvis, type CliDirs } from '../helpers/cli';
import { EVERYTHING_BIN } from '../helpers/mcpServers';
import { startMockModelServer, type MockModelServer } from '../helpers/mockModelServer';

let model: MockModelServer;
beforeAll(async () => {
  model = await startMockModelServer();
});
afterAll(async () => {
  await model.close();
});

/** A project and a `~/.claude.json` written the way Claude Code writes it (two-space JSON, much unrelated state). */
function setup(local: Record<string, unknown> = {}): { dirs: CliDirs; userHome: string } {
  const dirs = makeCliDirs();
  const userHome = join(dirs.cwd, '..', 'user');
  mkdirSync(userHome, { recursive: true });
  mkdirSync(join(dirs.cwd, '.git'));
  const server = (extra: Record<string, unknown>) => ({
    type: 'stdio',
    command: process.execPath,
    args: [EVERYTHING_BIN, 'stdio'],
    env: {},
    ...extra,
  });
  const doc = {
    numStartups: 41,
    installMethod: 'npm-global',
    autoUpdates: true,
    tipsHistory: { 'new-user-warmup': 7 },
    userID: 'a1b2c3',
    firstStartTime: '2025-05-02T09:14:11.201Z',
    mcpServers: { 'cc-everything': server({ env: { LOG_LEVEL: '${CC_LOG_LEVEL:-info}' } }) },
    projects: {
      [dirs.cwd]: {
        allowedTools: [],
        history: [{ display: 'fix the tests', pastedContents: {} }],
        mcpContextUris: [],
        mcpServers: { 'cc-local': server(local) },
        enabledMcpjsonServers: [],
        disabledMcpjsonServers: [],
        hasTrustDialogAccepted: true,
        projectOnboardingSeenCount: 1,
      },
      '/somewhere/else': { mcpServers: { 'other-project': server({}) } },
    },
  };
  writeFileSync(join(userHome, '.claude.json'), JSON.stringify(doc, null, 2));
  return { dirs, userHome };
}

describe('~/.claude.json MCP servers', () => {
  it("jarvis mcp list shows the user and this project's servers with the file, not another project's", async () => {
    const { dirs, userHome } = setup();
    const env = cliEnv(dirs, { HOME: userHome });
    const r = await runJarvis(['mcp', 'list'], { env, cwd: dirs.cwd });
    expect(r.code, r.stderr).toBe(0);
    // HOME is the user folder, so the file is shown as ~/.claude.json.
    expect(r.stdout).toMatch(/^cc-everything {2}user .*\(enabled; from ~\/\.claude\.json\)$/m);
    expect(r.stdout).toMatch(
      /^cc-local {2}project .*\(not used: this workspace is not trusted; from ~\/\.claude\.json\)$/m,
    );
    expect(r.stdout).not.toContain('other-project');
    const doctor = await runJarvis(['doctor'], { env, cwd: dirs.cwd });
    expect(doctor.stdout).toContain('mcp ~/.claude.json (Claude Code, user): 1 server (cc-everything)');
    expect(doctor.stdout).toContain(
      `mcp ~/.claude.json projects["${dirs.cwd}"] (Claude Code, this project): 1 server (cc-local); not started: this workspace is not trusted`,
    );
  });

  it('print mode: the user server answers the model; the project server starts only in a trusted folder', async () => {
    const { dirs, userHome } = setup();
    const env = cliEnv(dirs, { ...mockModelEnv(model.baseUrlFor('openai')), HOME: userHome });
    model.push(
      { toolCalls: [{ id: 'e1', name: 'mcp__cc-everything__echo', arguments: { message: 'from claude.json' } }] },
      { text: 'done' },
    );
    const untrusted = await runJarvis(['-p', 'echo something'], { env, cwd: dirs.cwd, timeoutMs: 60_000 });
    expect(untrusted.code, untrusted.stderr).toBe(0);
    const result = model.requests.at(-1)!.body.messages.find((m: { tool_call_id?: string }) => m.tool_call_id === 'e1');
    expect(JSON.stringify(result.content)).toContain('Echo: from claude.json');
    expect(untrusted.stderr).toContain(
      'project MCP servers not started because this workspace is not trusted: cc-local',
    );

    setWorkspaceTrust(dirs.home, dirs.cwd, true);
    model.push(
      { toolCalls: [{ id: 'e2', name: 'mcp__cc-local__echo', arguments: { message: 'local scope' } }] },
      { text: 'done' },
    );
    const trusted = await runJarvis(['-p', 'echo locally'], { env, cwd: dirs.cwd, timeoutMs: 60_000 });
    expect(trusted.code, trusted.stderr).toBe(0);
    const local = model.requests.at(-1)!.body.messages.find((m: { tool_call_id?: string }) => m.tool_call_id === 'e2');
    expect(JSON.stringify(local.content)).toContain('Echo: local scope');
    expect(trusted.stderr).not.toMatch(/not trusted|changed since/);
  }, 120_000);

  it("this project's server started from a workspace file runs only with the bytes trusted", async () => {
    const { dirs, userHome } = setup({ command: 'node', args: ['tools/srv.mjs'], startup: 'eager' });
    const canary = join(dirs.cwd, '..', 'canary');
    const script = (extra: string) =>
      `${extra}process.argv.push('stdio');\nawait import(${JSON.stringify(EVERYTHING_BIN)});\n`;
    mkdirSync(join(dirs.cwd, 'tools'));
    writeFileSync(join(dirs.cwd, 'tools/srv.mjs'), script(''));
    // Trust is given with the user's ~/.claude.json in view, as the trust question in that home gives it.
    const home = process.env.HOME;
    process.env.HOME = userHome;
    try {
      setWorkspaceTrust(dirs.home, dirs.cwd, true);
    } finally {
      process.env.HOME = home;
    }
    const env = cliEnv(dirs, { ...mockModelEnv(model.baseUrlFor('openai')), HOME: userHome });
    model.push({ text: 'done' });
    const trusted = await runJarvis(['-p', 'hello'], { env, cwd: dirs.cwd, timeoutMs: 60_000 });
    expect(trusted.code, trusted.stderr).toBe(0);
    expect(trusted.stderr).not.toMatch(/not trusted|changed since/);
    expect(JSON.stringify(model.requests.at(-1)!.body.tools)).toContain('mcp__cc-local__');

    // A sandboxed command rewrites the script; run as it stands, the launch line runs the planted code.
    const planted = `import { appendFileSync } from 'node:fs';\nappendFileSync(${JSON.stringify(canary)}, 'ran\\n');\n`;
    writeFileSync(join(dirs.cwd, 'tools/srv.mjs'), script(planted));
    spawnSync('node', ['tools/srv.mjs'], { cwd: dirs.cwd, input: '' });
    expect(existsSync(canary)).toBe(true);
    rmSync(canary);
    model.push({ text: 'done' });
    const changed = await runJarvis(['-p', 'hello'], { env, cwd: dirs.cwd, timeoutMs: 60_000 });
    expect(changed.code, changed.stderr).toBe(0);
    expect(existsSync(canary), changed.stderr).toBe(false);
    expect(changed.stderr).toMatch(/tools\/srv\.mjs changed since this workspace was trusted.*cc-local/);
    expect(JSON.stringify(model.requests.at(-1)!.body.tools)).not.toContain('mcp__cc-local__');
  }, 120_000);
});
