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
import { startMockModelServer, toolResultIn, type MockModelServer } from '../helpers/mockModelServer';

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

const toolMessage = (id: string): string => toolResultIn(model.requests, id);

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

describe('MCP resources attached with @<server>:<uri> in jarvis -p', () => {
  it("attaches the resource's text after the prompt, in a tagged part", async () => {
    model.push({ text: 'Attached.' });
    const r = await run('summarise @everything:demo://resource/dynamic/text/7 briefly');
    expect(r.code, r.stderr).toBe(0);
    const sent = lastSent();
    expect(sent).toContain('summarise @everything:demo://resource/dynamic/text/7 briefly');
    expect(sent).toMatch(
      /<attached-resource path="everything:demo:\/\/resource\/dynamic\/text\/7" label="[^"]*1 line">/,
    );
    expect(sent).toContain('Resource 7: This is a plaintext resource');
  }, 90_000);

  it('a binary resource is not attached: the warning says what it is; the prompt goes as typed', async () => {
    model.push({ text: 'ok' });
    const r = await run('look at @everything:demo://resource/dynamic/blob/2');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      /warning: @everything:demo:\/\/resource\/dynamic\/blob\/2 was not attached: demo:\/\/resource\/dynamic\/blob\/2 is binary content \([^)]*about \d+ bytes\); only text resources are attached/,
    );
    expect(lastSent()).toBe('look at @everything:demo://resource/dynamic/blob/2');
  }, 90_000);

  it('a deny rule on ReadMcpResource holds; a first part that names no server is text', async () => {
    const config = join(dirs.home, 'config.toml');
    writeFileSync(
      config,
      '[[permission.rules]]\ndecision = "deny"\npattern = "ReadMcpResource(everything:demo://resource/dynamic/*)"\nreason = "no dynamic resources"\n',
    );
    try {
      model.push({ text: 'ok' });
      const r = await run('see @everything:demo://resource/dynamic/text/3 and @admin:secret');
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain(
        'warning: @everything:demo://resource/dynamic/text/3 was not attached: no dynamic resources.',
      );
      expect(r.stderr).not.toContain('@admin:secret');
      expect(lastSent()).toBe('see @everything:demo://resource/dynamic/text/3 and @admin:secret');
    } finally {
      writeFileSync(config, '');
    }
  }, 90_000);
});
