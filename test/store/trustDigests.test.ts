// Workspace trust tied to the project MCP files' content (docs/mcp.md, "Workspace trust"): the digests recorded on
// trust, a changed or new file not approved, old entries without digests treated as changed, a damaged trust file
// failing closed, `jarvis mcp add --scope project` keeping an approved file approved, Claude Code's project settings
// (hooks) recorded beside the MCP snapshot, and `~/.claude.json`'s project servers pinned by their launch files.
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadMcpServers } from '../../src/store/mcpConfig';
import {
  fileDigest,
  isWorkspaceTrusted,
  mcpFileApproved,
  recordMcpFileWrite,
  setWorkspaceTrust,
  trustFilePath,
  workspaceTrust,
} from '../../src/store/trust';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'jarvis-trust-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const defaults = { startupTimeoutMs: 30_000, toolTimeoutMs: 60_000 };
let n = 0;

function workspace() {
  const home = join(root, `h${++n}`);
  const cwd = join(root, `w${n}`);
  mkdirSync(home, { recursive: true });
  mkdirSync(join(cwd, '.git'), { recursive: true });
  mkdirSync(join(cwd, '.jarvis-code'), { recursive: true });
  const ours = join(cwd, '.jarvis-code', 'mcp.json');
  const claude = join(cwd, '.mcp.json');
  writeFileSync(ours, JSON.stringify({ mcpServers: { a: { command: 'a-server' } } }));
  return { home, cwd, ours, claude };
}
const load = (w: { home: string; cwd: string }) =>
  loadMcpServers({ home: w.home, projectDir: w.cwd, trusted: isWorkspaceTrusted(w.home, w.cwd), defaults });

describe('project MCP file digests in the trust record', () => {
  it('trusting records a digest of each existing file; unchanged files are approved', () => {
    const w = workspace();
    setWorkspaceTrust(w.home, w.cwd, true);
    expect(workspaceTrust(w.home, w.cwd)?.mcpFiles).toEqual({ [w.ours]: fileDigest(w.ours) });
    expect(mcpFileApproved(w.home, w.cwd, w.ours)).toBe(true);
    const r = load(w);
    expect(r.servers.map((s) => s.name)).toEqual(['a']);
    expect(r.changed).toEqual([]);
  });

  it('a changed file and a new .mcp.json are not approved: their servers are listed as changed', () => {
    const w = workspace();
    setWorkspaceTrust(w.home, w.cwd, true);
    writeFileSync(w.claude, JSON.stringify({ mcpServers: { planted: { command: 'evil' } } }));
    let r = load(w);
    expect(r.servers.map((s) => s.name)).toEqual(['a']);
    expect(r.changed.map((s) => s.name)).toEqual(['planted']);
    expect(r.changedFiles).toEqual([w.claude]);
    writeFileSync(w.ours, JSON.stringify({ mcpServers: { a: { command: 'other' } } }));
    r = load(w);
    expect(r.servers).toEqual([]);
    expect(r.changedFiles).toEqual([w.ours, w.claude]);
    // Trusting again (the prompt accepted) approves the content as it is now.
    setWorkspaceTrust(w.home, w.cwd, true);
    expect(load(w).servers.map((s) => s.name)).toEqual(['a', 'planted']);
  });

  it('an entry written before digests existed counts its files as changed (fail closed), until trusted again', () => {
    const w = workspace();
    const old = { version: 1, workspaces: { [w.cwd]: { trusted: true, decidedAt: '2026-01-01T00:00:00.000Z' } } };
    writeFileSync(trustFilePath(w.home), JSON.stringify(old));
    expect(isWorkspaceTrusted(w.home, w.cwd)).toBe(true);
    const r = load(w);
    expect(r.servers).toEqual([]);
    expect(r.changedFiles).toEqual([w.ours]);
    setWorkspaceTrust(w.home, w.cwd, true);
    expect(load(w).servers.map((s) => s.name)).toEqual(['a']);
  });

  it('a damaged trust file trusts nothing: project servers stay off', () => {
    const w = workspace();
    setWorkspaceTrust(w.home, w.cwd, true);
    writeFileSync(trustFilePath(w.home), readFileSync(trustFilePath(w.home), 'utf8').slice(0, 20));
    expect(isWorkspaceTrusted(w.home, w.cwd)).toBe(false);
    expect(mcpFileApproved(w.home, w.cwd, w.ours)).toBe(false);
    const r = load(w);
    expect(r.servers).toEqual([]);
    expect(r.untrusted.map((s) => s.name)).toEqual(['a']);
  });

  it('a recorded write keeps an approved file approved, never an unapproved one', () => {
    const w = workspace();
    setWorkspaceTrust(w.home, w.cwd, true);
    writeFileSync(w.ours, JSON.stringify({ mcpServers: { a: { command: 'a-server' }, b: { command: 'b' } } }));
    recordMcpFileWrite(w.home, w.cwd, w.ours, true, fileDigest(w.ours)!);
    expect(mcpFileApproved(w.home, w.cwd, w.ours)).toBe(true);
    writeFileSync(w.ours, JSON.stringify({ mcpServers: { planted: { command: 'evil' } } }));
    recordMcpFileWrite(w.home, w.cwd, w.ours, false, fileDigest(w.ours)!);
    expect(mcpFileApproved(w.home, w.cwd, w.ours)).toBe(false);
  });

  it('a yes records the MCP snapshot shown and the settings files the question read, both', () => {
    const w = workspace();
    mkdirSync(join(w.cwd, '.claude'));
    const settings = join(w.cwd, '.claude', 'settings.json');
    writeFileSync(settings, JSON.stringify({ hooks: {} }));
    setWorkspaceTrust(w.home, w.cwd, true);
    expect(workspaceTrust(w.home, w.cwd)?.mcpFiles).toEqual({
      [w.ours]: fileDigest(w.ours),
      [settings]: fileDigest(settings),
    });
    const shown = load(w).snapshot;
    // The question read the settings file before it changed: what it showed is recorded, not the file as it is now.
    writeFileSync(settings, JSON.stringify({ hooks: { Stop: [] } }));
    setWorkspaceTrust(w.home, w.cwd, true, new Date(), { ...shown, hookFiles: { [settings]: 'shown-digest' } });
    expect(workspaceTrust(w.home, w.cwd)?.mcpFiles).toEqual({
      [w.ours]: fileDigest(w.ours),
      [settings]: 'shown-digest',
    });
    expect(mcpFileApproved(w.home, w.cwd, settings)).toBe(false);
  });

  it("~/.claude.json's project servers need a trusted folder, not that file's digest; their launch files are pinned", () => {
    const w = workspace();
    const userHome = join(root, `u${n}`);
    mkdirSync(join(w.cwd, 'tools'), { recursive: true });
    mkdirSync(userHome);
    const script = join(w.cwd, 'tools', 'srv.mjs');
    writeFileSync(script, '// a server\n');
    const local = { 'cc-local': { command: 'node', args: ['tools/srv.mjs'] } };
    const claudeJson = join(userHome, '.claude.json');
    const write = (extra: object) =>
      writeFileSync(claudeJson, JSON.stringify({ ...extra, projects: { [w.cwd]: { mcpServers: local } } }));
    write({ numStartups: 1 });
    const env = { ...process.env, HOME: userHome };
    const loadAs = () => loadMcpServers({ home: w.home, projectDir: w.cwd, trusted: true, defaults, env });
    setWorkspaceTrust(w.home, w.cwd, true, new Date(), load({ ...w }).snapshot);
    // Trusted without the launch file's digest (the snapshot above had no ~/.claude.json in view): held back.
    expect(loadAs().changes).toEqual([{ file: script, servers: ['cc-local'] }]);
    setWorkspaceTrust(w.home, w.cwd, true, new Date(), loadAs().snapshot);
    expect(loadAs().servers.map((s) => s.name)).toEqual(['a', 'cc-local']);
    // Claude Code rewrites its file all the time: that changes nothing.
    write({ numStartups: 2, tipsHistory: { x: 1 } });
    expect(loadAs().changed).toEqual([]);
    writeFileSync(script, '// planted\n');
    expect(loadAs().changes).toEqual([{ file: script, servers: ['cc-local'] }]);
  });
});
