// `jarvis acp` sessions share the connection's MCP servers (docs/acp.md, "MCP servers"): twelve
// session/new on one connection run one bundled documents server, session/close frees a session and
// the last one stops the server, and a session idle past JARVIS_ACP_IDLE_SESSION_MS is released (its
// server stops) and opened again from its journal by its next prompt. The RSS growth of the agent per
// extra session is printed (a figure for the report), never asserted.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentText, startAcpClient } from '../helpers/acpClient';
import { cliEnv, makeCliDirs, mockModelEnv, waitUntil } from '../helpers/cli';
import { startMockModelServer, type MockModelServer } from '../helpers/mockModelServer';

let server: MockModelServer;
beforeAll(async () => {
  server = await startMockModelServer();
});
afterAll(async () => {
  await server.close();
});

/** The documents servers running from this home's managed plugin copy. */
function documentsServers(home: string): number {
  try {
    const out = execFileSync('pgrep', ['-f', `${home}/plugins/managed/jarvis-documents/bin/server.mjs`], {
      encoding: 'utf8',
    });
    return out.trim().split('\n').filter(Boolean).length;
  } catch {
    return 0; // pgrep exits 1 when nothing matches
  }
}

/** A fresh home whose documents tools are pinned, so its server starts with each session (docs/mcp.md, "Lazy start"). */
function pinnedDocumentsHome() {
  const dirs = makeCliDirs();
  writeFileSync(join(dirs.home, 'config.toml'), '[tools]\npinned = ["mcp__plugin-jarvis-documents_documents__*"]\n');
  return dirs;
}

function rssKb(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);
}

describe('jarvis acp: MCP servers per connection', () => {
  it('12 session/new on one connection run one documents server; closing the last session stops it', async () => {
    const dirs = pinnedDocumentsHome();
    const env = cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai')));
    const editor = await startAcpClient({ env, cwd: dirs.cwd });
    const newSession = async () =>
      (await editor.connection.agent.request('session/new', { cwd: dirs.cwd, mcpServers: [] })).sessionId;
    try {
      expect(editor.initialized.agentCapabilities?.sessionCapabilities?.close).toEqual({});
      const ids: string[] = [];
      ids.push(await newSession());
      await waitUntil(() => documentsServers(dirs.home) === 1, 15_000, 'the documents server of the first session');
      const afterFirst = rssKb(editor.child.pid!);
      for (let i = 1; i < 12; i++) ids.push(await newSession());
      const afterTwelve = rssKb(editor.child.pid!);
      const perSession = ((afterTwelve - afterFirst) / 11).toFixed(0);
      console.log(
        `ACP: RSS ${afterFirst} kB after 1 session, ${afterTwelve} kB after 12: ${perSession} kB per extra session`,
      );
      expect(new Set(ids).size).toBe(12);
      expect(documentsServers(dirs.home)).toBe(1);

      for (const id of ids.slice(0, 11)) await editor.connection.agent.request('session/close', { sessionId: id });
      expect(documentsServers(dirs.home)).toBe(1);
      const closedPrompt = editor.connection.agent.request('session/prompt', {
        sessionId: ids[0],
        prompt: [{ type: 'text', text: 'hi' }],
      });
      await expect(closedPrompt).rejects.toThrow(/not found/i);
      await editor.connection.agent.request('session/close', { sessionId: ids[11] });
      await waitUntil(() => documentsServers(dirs.home) === 0, 10_000, 'the documents server to stop');
      // The agent answers "not found" (-32002); the SDK's client reads that as an idempotent close.
      await expect(editor.connection.agent.request('session/close', { sessionId: ids[11] })).resolves.toEqual({});
    } finally {
      await editor.close();
    }
    expect(documentsServers(dirs.home)).toBe(0);
  }, 120_000);

  it('an idle session is released (its server stops) and its next prompt opens it again from its journal', async () => {
    const dirs = pinnedDocumentsHome();
    const env = cliEnv(dirs, { ...mockModelEnv(server.baseUrlFor('openai')), JARVIS_ACP_IDLE_SESSION_MS: '1500' });
    const editor = await startAcpClient({ env, cwd: dirs.cwd });
    try {
      const { sessionId } = await editor.connection.agent.request('session/new', { cwd: dirs.cwd, mcpServers: [] });
      const releasedLine = `session ${sessionId} was idle for 1500 ms and was released`;
      await waitUntil(() => editor.stderr().includes(releasedLine), 20_000, 'the idle release');
      await waitUntil(() => documentsServers(dirs.home) === 0, 10_000, 'the documents server to stop');
      server.push({ text: 'back again' });
      const answer = await editor.connection.agent.request('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: 'are you there?' }],
      });
      expect(answer.stopReason).toBe('end_turn');
      expect(agentText(editor.updates, sessionId)).toContain('back again');
    } finally {
      await editor.close();
    }
  }, 60_000);
});
