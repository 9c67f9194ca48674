// Claude Code's project `.mcp.json` (trust-gated, below .jarvis-code/mcp.json, `[compat] mcp_json`) and `${VAR}`
// expansion in every MCP entry (docs/mcp.md "Variables", docs/compatibility.md "MCP configs").
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_COMPAT } from '../../src/store/compat';
import { loadMcpServers, parseServerEntry, readProjectMcpServers } from '../../src/store/mcpConfig';
import { expandMcpText, McpVariableError } from '../../src/store/mcpVariables';
import { setWorkspaceTrust } from '../../src/store/trust';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'jarvis-mcpcompat-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const defaults = { startupTimeoutMs: 30_000, toolTimeoutMs: 60_000 };
let n = 0;

function repo(files: { claude?: unknown; ours?: unknown }) {
  const home = join(root, `h${++n}`);
  const top = join(root, `r${n}`);
  mkdirSync(home, { recursive: true });
  mkdirSync(join(top, '.git'), { recursive: true });
  mkdirSync(join(top, 'sub', '.jarvis-code'), { recursive: true });
  if (files.claude !== undefined) writeFileSync(join(top, '.mcp.json'), JSON.stringify(files.claude));
  if (files.ours !== undefined) writeFileSync(join(top, 'sub', '.jarvis-code', 'mcp.json'), JSON.stringify(files.ours));
  // Trusted as the files are now (docs/mcp.md, "Workspace trust"); the untrusted cases pass trusted: false.
  setWorkspaceTrust(home, join(top, 'sub'), true);
  return { home, top, projectDir: join(top, 'sub') };
}

// What `claude mcp add --scope project` writes.
const claudeFile = {
  mcpServers: {
    files: { type: 'stdio', command: 'npx', args: ['-y', 'some-server', '${HOME_DIR:-/srv}'], env: {} },
    remote: { type: 'http', url: '${API_BASE}/mcp', headers: { Authorization: 'Bearer ${API_TOKEN}' } },
    shared: { type: 'sse', url: 'http://127.0.0.1:9/sse' },
  },
};

describe('.mcp.json at the repository root', () => {
  const env = { API_BASE: 'http://127.0.0.1:7', API_TOKEN: 't0k' };

  it('is read as project servers in a trusted workspace, with ${VAR} and ${VAR:-default} expanded', () => {
    const d = repo({ claude: claudeFile });
    const r = loadMcpServers({ home: d.home, projectDir: d.projectDir, trusted: true, defaults, env });
    expect(r.warnings).toEqual([]);
    const byName = Object.fromEntries(r.servers.map((s) => [s.name, s]));
    expect(byName.files).toMatchObject({ scope: 'project', transport: 'stdio', args: ['-y', 'some-server', '/srv'] });
    expect(byName.remote).toMatchObject({
      transport: 'http',
      url: 'http://127.0.0.1:7/mcp',
      headers: { Authorization: 'Bearer t0k' },
      file: join(d.top, '.mcp.json'),
    });
    expect(byName.shared.transport).toBe('sse');
  });

  it('is not used in an untrusted workspace (listed as untrusted), and the trust prompt lists it', () => {
    const d = repo({ claude: claudeFile });
    const r = loadMcpServers({ home: d.home, projectDir: d.projectDir, trusted: false, defaults, env });
    expect(r.servers).toEqual([]);
    expect(r.untrusted.map((s) => s.name).sort()).toEqual(['files', 'remote', 'shared']);
    expect(readProjectMcpServers(d.projectDir).map((s) => s.name)).toContain('shared');
  });

  it('loses to .jarvis-code/mcp.json on a name clash (shadowed); [compat] mcp_json = false skips it', () => {
    const d = repo({ claude: claudeFile, ours: { mcpServers: { shared: { command: 'ours' } } } });
    const r = loadMcpServers({ home: d.home, projectDir: d.projectDir, trusted: true, defaults, env });
    expect(r.servers.find((s) => s.name === 'shared')).toMatchObject({ command: 'ours' });
    expect(r.shadowed.map((s) => s.name)).toEqual(['shared']);
    const off = loadMcpServers({
      home: d.home,
      projectDir: d.projectDir,
      trusted: true,
      defaults,
      env,
      compat: { ...DEFAULT_COMPAT, mcpJson: false },
    });
    expect(off.servers.map((s) => s.name)).toEqual(['shared']);
    expect(off.shadowed).toEqual([]);
  });

  it('an unset variable without a default skips that server with an error naming it and the variable', () => {
    const d = repo({ claude: claudeFile });
    const r = loadMcpServers({ home: d.home, projectDir: d.projectDir, trusted: true, defaults, env: {} });
    expect(r.servers.map((s) => s.name).sort()).toEqual(['files', 'shared']);
    expect(r.warnings).toEqual([
      expect.stringMatching(
        new RegExp(
          '\\.mcp\\.json: MCP server "remote": url uses \\$\\{API_BASE\\}, which is not set; ' +
            'set it in the environment or write \\$\\{API_BASE:-default\\} \\(server skipped\\)$',
        ),
      ),
    ]);
  });

  it('a broken .mcp.json is a warning naming it; the other files still load', () => {
    const d = repo({ ours: { mcpServers: { a: { command: 'a' } } } });
    writeFileSync(join(d.top, '.mcp.json'), '{"mcpServers": {');
    const r = loadMcpServers({ home: d.home, projectDir: d.projectDir, trusted: true, defaults, env });
    expect(r.servers.map((s) => s.name)).toEqual(['a']);
    expect(r.warnings[0]).toMatch(/\.mcp\.json is not valid JSON/);
  });
});

describe('${VAR} expansion', () => {
  const env = { SET: 'value', EMPTY: '' };
  it.each([
    ['${SET}', 'value'],
    ['a-${SET}-b', 'a-value-b'],
    ['${MISSING:-fallback}', 'fallback'],
    ['${EMPTY:-fallback}', 'fallback'],
    ['${EMPTY}', ''],
    ['${SET:-fallback}', 'value'],
    ['$SET stays', '$SET stays'],
    ['cost: $5', 'cost: $5'],
    ['${SET}${SET}', 'valuevalue'],
    ['${MISSING:-}', ''],
  ])('%s → %s', (text, expected) => {
    expect(expandMcpText(text, 'args[0]', env)).toBe(expected);
  });

  it('an unset variable is an error naming the field and the variable', () => {
    expect(() => expandMcpText('x ${NOPE}', 'env.KEY', env)).toThrow(McpVariableError);
    expect(() => expandMcpText('x ${NOPE}', 'env.KEY', env)).toThrow(/^env\.KEY uses \$\{NOPE\}, which is not set/);
  });

  it('applies to command, args, env and headers of every source; given vars come before the environment', () => {
    const parsed = parseServerEntry(
      'p',
      { command: '${ROOT}/bin/srv', args: ['--dir', '${ROOT}'], env: { K: '${SET}' }, headers: {} },
      { scope: 'user', file: '/x/mcp.json', defaults, env: { ...env, ROOT: '/env' }, vars: { ROOT: '/plugin' } },
    );
    expect(parsed).toMatchObject({
      server: { command: '/plugin/bin/srv', args: ['--dir', '/plugin'], env: { K: 'value' } },
    });
  });

  it('expand: false keeps the text as written (jarvis mcp add stores what the user typed)', () => {
    const parsed = parseServerEntry(
      'p',
      { command: 'srv', args: ['${LATER}'] },
      { scope: 'user', file: '/x/mcp.json', defaults, env: {}, expand: false },
    );
    expect(parsed).toMatchObject({ server: { args: ['${LATER}'] } });
  });
});
