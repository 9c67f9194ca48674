import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadMcpServers } from '../../src/store/mcpConfig';
import { setWorkspaceTrust } from '../../src/store/trust';

const root = mkdtempSync(join(tmpdir(), 'jarvis-mcpcfg-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const defaults = { startupTimeoutMs: 30_000, toolTimeoutMs: 60_000 };
let n = 0;
function setup(user: unknown, project?: unknown) {
  const home = join(root, `h${++n}`);
  const projectDir = join(root, `p${n}`);
  mkdirSync(home, { recursive: true });
  mkdirSync(join(projectDir, '.jarvis-code'), { recursive: true });
  if (user !== undefined) writeFileSync(join(home, 'mcp.json'), typeof user === 'string' ? user : JSON.stringify(user));
  if (project !== undefined) writeFileSync(join(projectDir, '.jarvis-code', 'mcp.json'), JSON.stringify(project));
  return { home, projectDir };
}

describe('mcp.json loading', () => {
  it('command → stdio, url → http, transport "sse" → SSE; timeouts default from settings; enabled:false kept as disabled', () => {
    const d = setup({
      mcpServers: {
        a: { command: 'srv', args: ['x'], env: { K: 'v' }, cwd: 'sub' },
        b: { url: 'http://127.0.0.1:1/mcp', headers: { H: '1' }, startupTimeoutMs: 5 },
        c: { url: 'http://127.0.0.1:1/sse', transport: 'sse', enabled: false, toolTimeoutMs: 7 },
        d: { type: 'http', url: 'http://127.0.0.1:1/mcp', description: 'other clients write extra keys' },
      },
    });
    const r = loadMcpServers({ ...d, trusted: false, defaults });
    expect(r.warnings).toEqual([]);
    expect(r.servers.map((s) => [s.name, s.transport, s.enabled, s.startupTimeoutMs, s.toolTimeoutMs])).toEqual([
      ['a', 'stdio', true, 30_000, 60_000],
      ['b', 'http', true, 5, 60_000],
      ['c', 'sse', false, 30_000, 7],
      ['d', 'http', true, 30_000, 60_000],
    ]);
    expect(r.servers[0].cwd).toBe(join(d.home, 'sub'));
  });

  it('project servers override same-named user ones only in a trusted workspace; untrusted ones are listed apart', () => {
    const d = setup(
      { mcpServers: { same: { command: 'user-one' }, mine: { command: 'm' } } },
      { mcpServers: { same: { command: 'project-one' }, extra: { url: 'http://127.0.0.1:1/mcp' } } },
    );
    setWorkspaceTrust(d.home, d.projectDir, true);
    const trusted = loadMcpServers({ ...d, trusted: true, defaults });
    expect(trusted.servers.map((s) => `${s.name}:${s.scope}:${s.command ?? s.url}`)).toEqual([
      'same:project:project-one',
      'mine:user:m',
      'extra:project:http://127.0.0.1:1/mcp',
    ]);
    const untrusted = loadMcpServers({ ...d, trusted: false, defaults });
    expect(untrusted.servers.map((s) => `${s.name}:${s.scope}`)).toEqual(['same:user', 'mine:user']);
    expect(untrusted.untrusted.map((s) => s.name)).toEqual(['same', 'extra']);
  });

  it('a broken file or entry is a warning naming it; the other servers load', () => {
    const broken = loadMcpServers({ ...setup('{"mcpServers": '), trusted: false, defaults });
    expect(broken.servers).toEqual([]);
    expect(broken.warnings[0]).toMatch(/mcp\.json is not valid JSON .*its MCP servers are not used until it is fixed/);
    const entries = loadMcpServers({
      ...setup({
        mcpServers: {
          ok: { command: 'x' },
          none: {},
          badArgs: { command: 'x', args: 'a b' },
          badUrl: { url: 'ftp://x' },
          slow: { command: 'x', startupTimeoutMs: 0 },
        },
      }),
      trusted: false,
      defaults,
    });
    expect(entries.servers.map((s) => s.name)).toEqual(['ok']);
    expect(entries.warnings).toEqual([
      expect.stringMatching(
        /MCP server "none": needs "command" \(a local server\) or "url" \(a remote one\) \(server skipped\)/,
      ),
      expect.stringMatching(/MCP server "badArgs": args: /),
      expect.stringMatching(/MCP server "badUrl": url "ftp:\/\/x" is not an http\(s\) URL/),
      expect.stringMatching(/MCP server "slow": startupTimeoutMs: /),
    ]);
  });
});
