// `jarvis acp` with an installed plugin: the editor is offered the plugin's commands, a command prompt
// reaches the model expanded, and the plugin's prompt text is in the session's system prompt.
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PluginManager } from '../../src/ext/plugins/manager';
import { startAcpClient, type AcpTestClient } from '../helpers/acpClient';
import { cliEnv, makeCliDirs, mockModelEnv, waitUntil } from '../helpers/cli';
import { startMockModelServer, type MockModelServer } from '../helpers/mockModelServer';

let server: MockModelServer;
let editor: AcpTestClient;
let cwd: string;

beforeAll(async () => {
  server = await startMockModelServer();
  const dirs = makeCliDirs();
  cwd = dirs.cwd;
  await new PluginManager({ home: dirs.home, env: {} }).install(resolve(__dirname, '../fixtures/plugins/kimi-finance'));
  editor = await startAcpClient({ env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))), cwd });
});

afterAll(async () => {
  await editor?.close();
  await server?.close();
});

describe('jarvis acp with a plugin', () => {
  it('advertises /<plugin>:<command> and sends the expanded prompt', async () => {
    const { sessionId } = await editor.connection.agent.request('session/new', { cwd, mcpServers: [] });
    const commands = () =>
      editor.updates.flatMap((u) =>
        u.sessionId === sessionId && u.update.sessionUpdate === 'available_commands_update'
          ? u.update.availableCommands.map((c) => c.name)
          : [],
      );
    await waitUntil(() => commands().length > 0, 10_000, 'the slash commands');
    // The plugin's commands, and its skills (and the bundled plugins') as /skill:<name>.
    expect(commands().slice(0, 2)).toEqual(['compact', 'plan']);
    expect(commands()).toEqual(
      expect.arrayContaining(['kimi-finance:market/summary', 'kimi-finance:quote', 'skill:using-finance']),
    );
    server.push({ text: 'quoted' });
    const before = server.requests.length;
    const response = await editor.connection.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: '/kimi-finance:quote NVDA' }],
    });
    expect(response.stopReason).toBe('end_turn');
    const body = server.requests[before].body;
    expect(JSON.stringify(body.messages.at(-1))).toContain('Fetch the latest quote for NVDA with the quotes tool');
    expect(JSON.stringify(body.messages[0])).toContain('FINANCE-PLUGIN-RULE');
  });
});
