// A plugin in Kimi Code's format (`.kimi-plugin/plugin.json` with skills, commands, an agent, a stdio MCP
// server and a hook) installed with `jarvis plugin install` and used unchanged through `jarvis -p`
// against the loopback mock model: the command expands, the hook runs in the plugin root, the model
// calls the plugin's MCP tool, and the plugin's prompt text and session-start skill reach the model.
import { cpSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, makeCliDirs, mockModelEnv, runJarvis, type CliDirs } from '../helpers/cli';
import { tempDir } from '../helpers/files';
import { startMockModelServer, type MockModelServer } from '../helpers/mockModelServer';

const FIXTURE = resolve(__dirname, '../fixtures/plugins/kimi-finance');
const TOOL = 'mcp__plugin-kimi-finance_quotes__get_quote';

let server: MockModelServer;
beforeAll(async () => {
  server = await startMockModelServer();
});
afterAll(async () => {
  await server.close();
});

type Message = { role: string; content: unknown; tool_call_id?: string };
const text = (value: unknown) => JSON.stringify(value);
const toolNames = (body: { tools?: Array<{ function: { name: string; description: string } }> }) =>
  JSON.stringify(body.tools ?? []);

async function installFixture(dirs: CliDirs) {
  // Installed from a copy that is deleted afterwards: the plugin must run from its managed copy.
  const source = join(tempDir(), 'kimi-finance');
  cpSync(FIXTURE, source, { recursive: true });
  const r = await runJarvis(['plugin', 'install', source], { env: cliEnv(dirs), cwd: dirs.cwd });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  rmSync(source, { recursive: true, force: true });
}

describe('a Kimi Code plugin through jarvis -p', () => {
  it('installs unchanged; /<plugin>:<cmd> expands, the hook runs, the MCP tool is called, prompt text and session-start skill arrive', async () => {
    const dirs = makeCliDirs();
    await installFixture(dirs);
    const managed = join(dirs.home, 'plugins/managed/kimi-finance');
    const before = server.requests.length;
    server.push(
      { toolCalls: [{ id: 'call_q', name: TOOL, arguments: { ticker: 'TSLA' } }] },
      { text: 'TSLA trades at 123.45 USD.' },
    );
    const r = await runJarvis(['-p', '/kimi-finance:quote TSLA'], {
      env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))),
      cwd: dirs.cwd,
    });
    expect(r.stderr).not.toMatch(/warning/);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('TSLA trades at 123.45 USD.');
    const [first, second] = server.requests.slice(before).map((q) => q.body);
    const system = text(first.messages.find((m: Message) => m.role === 'system'));
    expect(system).toContain('FINANCE-PLUGIN-RULE: never give investment advice.');
    expect(system).toContain('<plugin id=\\"kimi-finance\\">');
    const prompt = text(first.messages.at(-1));
    expect(prompt).toContain('Fetch the latest quote for TSLA with the quotes tool');
    expect(prompt).toContain('FINANCE-SKILL: use the quotes tool');
    expect(prompt).toContain('Quote prices with their currency.');
    expect(prompt).toContain('FINANCE-HOOK: markets close at 16:00 local time.');
    expect(toolNames(first)).toContain(TOOL);
    const result = second.messages.find((m: Message) => m.role === 'tool' && m.tool_call_id === 'call_q');
    expect(text(result.content)).toContain(
      `QUOTE TSLA: 123.45 USD (cwd ${managed}, project ${dirs.cwd}, home ${dirs.home})`,
    );
    const hook = JSON.parse(readFileSync(join(dirs.home, 'plugin-hook.json'), 'utf8'));
    expect(hook).toEqual({
      cwd: managed,
      pluginRoot: managed,
      home: dirs.home,
      event: 'UserPromptSubmit',
      prompt: '/kimi-finance:quote TSLA',
    });
  });

  it('disable/enable and the MCP switch take effect for the next session; an unknown command is an error', async () => {
    const dirs = makeCliDirs();
    await installFixture(dirs);
    const env = cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai')));
    expect((await runJarvis(['plugin', 'disable', 'kimi-finance'], { env, cwd: dirs.cwd })).code).toBe(0);
    server.push({ text: 'plain' });
    const off = await runJarvis(['-p', 'hello'], { env, cwd: dirs.cwd });
    expect(off.code).toBe(0);
    const offBody = server.requests.at(-1)!.body;
    expect(text(offBody.messages)).not.toContain('FINANCE-');
    expect(toolNames(offBody)).not.toContain('mcp__plugin-kimi-finance');
    expect(existsSync(join(dirs.home, 'plugin-hook.json'))).toBe(false);
    // A disabled plugin's command is no command: refused as an unknown name, nothing sent.
    const sent = server.requests.length;
    const gone = await runJarvis(['-p', '/kimi-finance:quote X'], { env, cwd: dirs.cwd });
    expect(gone.code).toBe(2);
    expect(gone.stderr).toContain('Unknown command /kimi-finance:quote');
    expect(server.requests.length).toBe(sent);

    expect((await runJarvis(['plugin', 'enable', 'kimi-finance'], { env, cwd: dirs.cwd })).code).toBe(0);
    const { PluginManager } = await import('../../src/ext/plugins/manager');
    await new PluginManager({ home: dirs.home, env: {} }).setMcpServerEnabled('kimi-finance', 'quotes', false);
    server.push({ text: 'on again' });
    const on = await runJarvis(['-p', 'hello'], { env, cwd: dirs.cwd });
    expect(on.code).toBe(0);
    const onBody = server.requests.at(-1)!.body;
    expect(text(onBody.messages)).toContain('FINANCE-PLUGIN-RULE');
    expect(toolNames(onBody)).not.toContain(TOOL);
    expect(existsSync(join(dirs.home, 'plugin-hook.json'))).toBe(true);

    const unknown = await runJarvis(['-p', '/kimi-finance:nope'], { env, cwd: dirs.cwd });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain(
      'The plugin "kimi-finance" has no command "nope". Its commands: /kimi-finance:market/summary, /kimi-finance:quote.',
    );
  });

  it('a plugin whose manifest broke is a warning; the session runs without it', async () => {
    const dirs = makeCliDirs();
    await installFixture(dirs);
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(dirs.home, 'plugins/managed/kimi-finance/.kimi-plugin/plugin.json'), '{');
    server.push({ text: 'fine' });
    const r = await runJarvis(['-p', 'hello'], {
      env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))),
      cwd: dirs.cwd,
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /warning: plugin kimi-finance is not loaded: manifest \.kimi-plugin\/plugin\.json is not valid JSON.*jarvis plugin info kimi-finance/,
    );
    expect(r.stdout).toContain('fine');
  });
});
