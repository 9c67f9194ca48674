// An unknown `/name` at the start of a prompt (docs/skills-and-agents.md, "Unknown /names"), through the built
// CLI: print mode says which commands and skills are closest and exits 2 without a request; a path or a known
// name still goes through; ACP answers the same refusal in the conversation and sends nothing either.
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PluginManager } from '../../src/ext/plugins/manager';
import { startAcpClient } from '../helpers/acpClient';
import { putFile } from '../helpers/files';
import { cliEnv, makeCliDirs, mockModelEnv, runJarvis, type CliDirs } from '../helpers/cli';
import { startMockModelServer, type MockModelServer } from '../helpers/mockModelServer';

let server: MockModelServer;
let dirs: CliDirs;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  server = await startMockModelServer();
  dirs = makeCliDirs();
  // A project skill written the Claude Code way, and a plugin with commands.
  putFile(
    join(dirs.cwd, '.claude/skills/review-pr/SKILL.md'),
    '---\r\nname: review-pr\r\ndescription: Review the open pull request\r\n---\r\nReview $ARGUMENTS.\r\n',
  );
  await new PluginManager({ home: dirs.home, env: {} }).install(resolve(__dirname, '../fixtures/plugins/kimi-finance'));
  env = cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai')));
});
afterAll(async () => {
  await server.close();
});

async function print(prompt: string, extra: string[] = []) {
  const before = server.requests.length;
  const r = await runJarvis(['-p', prompt, ...extra], { env, cwd: dirs.cwd, timeoutMs: 60_000 });
  return { ...r, sent: server.requests.slice(before) };
}

describe('an unknown /name (built CLI)', { timeout: 120_000 }, () => {
  it('print mode: exit 2, the closest commands and skills named, nothing sent', async () => {
    const typo = await print('/reveiw-pr the login change');
    expect(typo.code).toBe(2);
    expect(typo.sent).toEqual([]);
    expect(typo.stderr).toContain('Unknown command /reveiw-pr');
    expect(typo.stderr).toContain('/review-pr (skill)');
    const plugin = await print('/kimi-fin:quote AAPL');
    expect(plugin.code).toBe(2);
    expect(plugin.stderr).toContain('/kimi-finance:quote (plugin command)');
    // stream-json scripts get the same message as an error event and in the result.
    const json = await print('/nothing-like-it', ['--output-format', 'stream-json']);
    expect(json.code).toBe(2);
    const result = JSON.parse(json.stdout.trim().split('\n').at(-1)!);
    expect(result).toMatchObject({ type: 'result', outcome: 'error', exit_code: 2 });
    expect(result.error).toContain('Unknown command /nothing-like-it');
    expect(result.error).toContain('Print mode runs /goal <objective>');
    // A command of the interactive UI is named as one.
    const ui = await print('/compact');
    expect(ui.code).toBe(2);
    expect(ui.stderr).toContain('/compact is a command of the interactive UI (jarvis without -p)');
    expect(ui.sent).toEqual([]);
  });

  it('print mode: paths, known names and a leading space go through as before', async () => {
    server.push({ text: 'a' }, { text: 'b' }, { text: 'c' }, { text: 'd' });
    const path = await print('/usr/bin/env is missing on this machine');
    expect(path.code, path.stderr).toBe(0);
    expect(JSON.stringify(path.sent[0].body.messages.at(-1))).toContain('/usr/bin/env is missing on this machine');
    const existing = await print('/tmp is full');
    expect(existing.code, existing.stderr).toBe(0);
    const skill = await print('/review-pr 42');
    expect(skill.code, skill.stderr).toBe(0);
    expect(JSON.stringify(skill.sent[0].body.messages.at(-1))).toContain('Review 42.');
    const spaced = await print(' /reveiw-pr as text');
    expect(spaced.code, spaced.stderr).toBe(0);
  });

  it('ACP: the refusal is the answer; nothing reaches the model', async () => {
    const editor = await startAcpClient({ env, cwd: dirs.cwd });
    try {
      const { sessionId } = await editor.connection.agent.request('session/new', { cwd: dirs.cwd, mcpServers: [] });
      const before = server.requests.length;
      const response = await editor.connection.agent.request('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: '/reveiw-pr 42' }],
      });
      expect(response.stopReason).toBe('end_turn');
      expect(server.requests.length).toBe(before);
      const said = editor.updates
        .filter((u) => u.sessionId === sessionId && u.update.sessionUpdate === 'agent_message_chunk')
        .map((u) => JSON.stringify(u.update))
        .join('');
      expect(said).toContain('Unknown command /reveiw-pr');
      expect(said).toContain('/review-pr (skill)');
      // A path is text: it reaches the model.
      server.push({ text: 'looked' });
      await editor.connection.agent.request('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: '/usr/bin/env is missing' }],
      });
      expect(server.requests.length).toBe(before + 1);
    } finally {
      await editor.close();
    }
  });
});
