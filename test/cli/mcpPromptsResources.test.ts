// An MCP server's prompts and resources through the built CLI, against the real `@modelcontextprotocol/server-everything`
// (docs/mcp.md "Prompts and resources"): `/mcp__everything__args-prompt Paris` sends the prompt the server returns,
// the words mapped onto its declared arguments (in order, or `name=value`), a missing required one refused (exit 2,
// nothing sent); the model lists and reads the server's resources with the deferred ListMcpResources and
// ReadMcpResource tools.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, makeCliDirs, mockModelEnv, runJarvis, type CliDirs } from '../helpers/cli';
import { EVERYTHING_BIN } from '../helpers/mcpServers';
import { lastUserText } from '../helpers/modelRequests';
import { startMockModelServer, type MockModelServer } from '../helpers/mockModelServer';

let model: MockModelServer;
let dirs: CliDirs;
beforeAll(async () => {
  model = await startMockModelServer();
  dirs = makeCliDirs();
  const everything = { command: process.execPath, args: [EVERYTHING_BIN, 'stdio'] };
  writeFileSync(join(dirs.home, 'mcp.json'), JSON.stringify({ mcpServers: { everything } }));
});
afterAll(async () => {
  await model.close();
});

const run = (prompt: string) =>
  runJarvis(['-p', prompt], {
    env: cliEnv(dirs, mockModelEnv(model.baseUrlFor('openai'))),
    cwd: dirs.cwd,
    timeoutMs: 60_000,
  });

const lastSent = (): string => lastUserText(model.requests.at(-1)!);

function toolMessage(id: string): string {
  for (const req of model.requests) {
    const messages = req.body.messages as Array<{ role: string; tool_call_id?: string; content: unknown }>;
    const m = messages.find((x) => x.role === 'tool' && x.tool_call_id === id);
    if (m) return typeof m.content === 'string' ? m.content : JSON.stringify(m.content);
  }
  throw new Error(`no tool result for ${id}`);
}

describe('MCP prompts as commands in jarvis -p', () => {
  it('positional words fill the declared arguments in order; the prompt the server returns is sent', async () => {
    model.push({ text: 'Sunny.' });
    const r = await run('/mcp__everything__args-prompt Paris "Ile de France"');
    expect(r.code, r.stderr).toBe(0);
    expect(lastSent()).toContain("What's weather in Paris, Ile de France?");
  }, 90_000);

  it('name=value pairs, and the optional argument left out', async () => {
    model.push({ text: 'Rainy.' });
    const r = await run('/mcp__everything__args-prompt city="New York"');
    expect(r.code, r.stderr).toBe(0);
    expect(lastSent()).toContain("What's weather in New York?");
  }, 90_000);

  it('a missing required argument is a usage error naming it; nothing is sent', async () => {
    const before = model.requests.length;
    const r = await run('/mcp__everything__args-prompt');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      '/mcp__everything__args-prompt needs city (usage: /mcp__everything__args-prompt <city> [state])',
    );
    expect(model.requests.length).toBe(before);
  }, 90_000);

  it("a prompt the server does not have is refused with the server's prompts", async () => {
    const r = await run('/mcp__everything__weather Paris');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /The MCP server "everything" has no prompt \/mcp__everything__weather\. Its prompts: .*\/mcp__everything__args-prompt/,
    );
  }, 90_000);
});

describe('MCP resources for the model', () => {
  it('ListMcpResources lists the server resources; ReadMcpResource reads one', async () => {
    model.push(
      { toolCalls: [{ id: 'call_list', name: 'ListMcpResources', arguments: { server: 'everything' } }] },
      {
        toolCalls: [
          {
            id: 'call_read',
            name: 'ReadMcpResource',
            arguments: { server: 'everything', uri: 'demo://resource/dynamic/text/7' },
          },
        ],
      },
      { text: 'Read it.' },
    );
    const r = await run('what resources are there?');
    expect(r.code, r.stderr).toBe(0);
    expect(toolMessage('call_list')).toMatch(
      /everything: demo:\/\/resource\/static\/document\/architecture\.md — architecture\.md/,
    );
    expect(toolMessage('call_list')).toMatch(/demo:\/\/resource\/dynamic\/text\/\{resourceId\} — .*\(template/);
    expect(toolMessage('call_read')).toContain('Resource 7: This is a plaintext resource');
  }, 90_000);

  it('an unknown server is a tool error naming the servers', async () => {
    model.push(
      { toolCalls: [{ id: 'call_bad', name: 'ReadMcpResource', arguments: { server: 'nope', uri: 'x://y' } }] },
      { text: 'ok' },
    );
    const r = await run('read it');
    expect(r.code, r.stderr).toBe(0);
    expect(toolMessage('call_bad')).toMatch(/There is no MCP server "nope" in this session \(servers: everything/);
  }, 90_000);
});
