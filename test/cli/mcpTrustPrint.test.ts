// Project MCP files are trusted by content (docs/mcp.md, "Workspace trust"; docs/trust-boundary.md): through
// `jarvis -p`, a sandboxed Bash call cannot plant a `.mcp.json` (moved aside, and said) nor rewrite
// `.jarvis-code/mcp.json` (read-only inside the sandbox) in a trusted git workspace; and a project file changed
// outside the sandbox since it was trusted (a pull, another tool) does not get its servers started by the next
// session (a canary outside the workspace stays absent), stderr names the file and how to approve it, and an
// unchanged trusted file's server (the real server-everything) still starts.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setWorkspaceTrust } from '../../src/store/trust';
import { cliEnv, makeCliDirs, mockModelEnv, runJarvis, type CliDirs } from '../helpers/cli';
import { EVERYTHING_BIN } from '../helpers/mcpServers';
import { startMockModelServer, type MockModelServer } from '../helpers/mockModelServer';
import { sandboxAvailable } from '../helpers/sandboxAvailable';

const available = sandboxAvailable();
let server: MockModelServer;
beforeAll(async () => {
  server = await startMockModelServer();
});
afterAll(async () => {
  await server.close();
});

/** A server-everything entry that first creates `marker` (started eagerly, so starting it is observable). */
const markingServer = (marker: string) => ({
  command: process.execPath,
  args: [
    '-e',
    `require('fs').writeFileSync(${JSON.stringify(marker)}, ''); process.argv.push('stdio'); ` +
      `import(${JSON.stringify(EVERYTHING_BIN)})`,
  ],
  startup: 'eager',
});

async function run(dirs: CliDirs) {
  const r = await runJarvis(['-p', 'go'], {
    env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))),
    cwd: dirs.cwd,
    timeoutMs: 90_000,
  });
  expect(r.code, r.stderr).toBe(0);
  return r;
}

/** A trusted git workspace whose `.jarvis-code/mcp.json` names `ok`, a server that marks `okMarker`. */
function trustedWorkspace() {
  const dirs = makeCliDirs();
  const outside = dirname(dirs.cwd);
  const okMarker = join(outside, 'ok-started');
  const canary = join(outside, 'canary');
  expect(spawnSync('git', ['init', '-q'], { cwd: dirs.cwd }).status).toBe(0);
  mkdirSync(join(dirs.cwd, '.jarvis-code'));
  const ours = JSON.stringify({ mcpServers: { ok: markingServer(okMarker) } });
  writeFileSync(join(dirs.cwd, '.jarvis-code', 'mcp.json'), ours);
  setWorkspaceTrust(dirs.home, dirs.cwd, true);
  return { dirs, okMarker, canary, ours };
}

const heredoc = (file: string, text: string) => `cat > ${file} <<'JSON'\n${text}\nJSON\necho written`;

describe.skipIf(!available)('jarvis -p: project MCP files and a sandboxed command', () => {
  it('a .mcp.json planted by Bash is moved aside, and the next session starts only the trusted server', async () => {
    const { dirs, okMarker, canary } = trustedWorkspace();
    const planted = JSON.stringify({ mcpServers: { planted: markingServer(canary) } });
    server.push(
      { toolCalls: [{ id: 'w', name: 'Bash', arguments: { command: heredoc('.mcp.json', planted) } }] },
      { text: 'Done.' },
    );
    await run(dirs);
    const written = server.requests
      .at(-1)!
      .body.messages.find((m: { tool_call_id?: string }) => m.tool_call_id === 'w');
    expect(String(written.content)).toContain(`${join(dirs.cwd, '.mcp.json')} was moved to`);
    expect(existsSync(join(dirs.cwd, '.mcp.json'))).toBe(false);
    expect(existsSync(join(dirs.cwd, '.mcp.json.quarantined-by-jarvis'))).toBe(true);

    rmSync(okMarker, { force: true });
    server.push({ text: 'next' });
    const next = await run(dirs);
    expect(existsSync(canary)).toBe(false);
    expect(existsSync(okMarker)).toBe(true);
    expect(next.stderr).not.toContain('changed since');
    expect(JSON.stringify(server.requests.at(-1)!.body.tools)).not.toContain('mcp__planted__');
  });

  it('a .jarvis-code/mcp.json rewritten by Bash stays as trusted (read-only inside the sandbox)', async () => {
    const { dirs, okMarker, canary, ours } = trustedWorkspace();
    const rewritten = JSON.stringify({
      mcpServers: { ...JSON.parse(ours).mcpServers, planted: markingServer(canary) },
    });
    server.push(
      { toolCalls: [{ id: 'w', name: 'Bash', arguments: { command: heredoc('.jarvis-code/mcp.json', rewritten) } }] },
      { text: 'Done.' },
    );
    await run(dirs);
    const result = server.requests.at(-1)!.body.messages.find((m: { tool_call_id?: string }) => m.tool_call_id === 'w');
    expect(String(result.content)).toContain('Read-only file system');
    expect(readFileSync(join(dirs.cwd, '.jarvis-code', 'mcp.json'), 'utf8')).toBe(ours);
    rmSync(okMarker, { force: true });
    server.push({ text: 'next' });
    const next = await run(dirs);
    expect(existsSync(canary)).toBe(false);
    expect(existsSync(okMarker)).toBe(true);
    expect(next.stderr).not.toContain('changed since');
  });

  it('a project MCP file changed outside the sandbox since it was trusted starts none of its servers', async () => {
    const { dirs, okMarker, canary, ours } = trustedWorkspace();
    const other = JSON.stringify({ mcpServers: { other: markingServer(canary) } });
    // Written the way a `git pull` or another tool would, outside any sandbox.
    writeFileSync(join(dirs.cwd, '.mcp.json'), other);
    const rewritten = JSON.stringify({
      mcpServers: { ...JSON.parse(ours).mcpServers, planted: markingServer(canary) },
    });
    writeFileSync(join(dirs.cwd, '.jarvis-code', 'mcp.json'), rewritten);
    server.push({ text: 'next' });
    const next = await run(dirs);
    expect(existsSync(canary)).toBe(false);
    expect(existsSync(okMarker)).toBe(false);
    expect(next.stderr).toMatch(/\.jarvis-code\/mcp\.json changed since this workspace was trusted; its MCP/);
    expect(next.stderr).toContain('its MCP servers were not started: ok, planted (to approve it, run `jarvis`');
    expect(next.stderr).toMatch(
      /\.mcp\.json changed since this workspace was trusted; its MCP servers were not started: other/,
    );
    expect(next.stderr).toContain('run `jarvis` in this folder and accept the trust prompt');
    expect(JSON.stringify(server.requests.at(-1)!.body.tools)).not.toContain('mcp__planted__');
  });
});
