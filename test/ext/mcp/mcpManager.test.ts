// The MCP client against real servers: @modelcontextprotocol/server-everything from npm over stdio and
// over streamable HTTP on loopback, and an SDK-built server whose tool list grows.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpManager } from '../../../src/ext/mcp/mcpManager';
import { EVERYTHING_BIN, GROWING_SERVER, mcpEntry, startEverythingHttp } from '../../helpers/mcpServers';

const clientInfo = { name: 'jarvis-test', version: '0.0.0' };
const managers: McpManager[] = [];
function manager(...servers: Parameters<typeof mcpEntry>[]): McpManager {
  const m = new McpManager(
    servers.map((s) => mcpEntry(...s)),
    { clientInfo },
  );
  managers.push(m);
  return m;
}
afterAll(async () => {
  await Promise.all(managers.map((m) => m.close()));
});

const names = (m: McpManager, server: string) => (m.tools().get(server) ?? []).map((t) => t.qualifiedName);
const texts = (r: { content: Array<{ type: string; text?: string }> }) =>
  r.content.filter((p) => p.type === 'text').map((p) => p.text);

describe('MCP over stdio (server-everything)', () => {
  let m: McpManager;
  beforeAll(async () => {
    m = manager(['everything']);
    await m.start();
  });

  it('starts, and lists the tools as mcp__<server>__<tool> with their schemas and read-only hints', () => {
    expect(m.status()[0]).toMatchObject({ name: 'everything', state: 'ready', transport: 'stdio' });
    expect(names(m, 'everything')).toEqual(
      expect.arrayContaining(['mcp__everything__echo', 'mcp__everything__get-sum', 'mcp__everything__get-tiny-image']),
    );
    const sum = m
      .tools()
      .get('everything')!
      .find((t) => t.name === 'get-sum')!;
    expect(sum.inputSchema).toMatchObject({ type: 'object', required: ['a', 'b'] });
    expect(sum.readOnly).toBe(true);
    expect(
      m
        .tools()
        .get('everything')!
        .find((t) => t.name === 'toggle-simulated-logging')!.readOnly,
    ).toBe(false);
  });

  it('tools server-everything registers after initialisation (announced by list_changed) are offered', () => {
    expect(names(m, 'everything')).toContain('mcp__everything__simulate-research-query');
  });

  it('calls a tool and returns its text', async () => {
    expect(texts(await m.call('everything', 'echo', { message: 'hello there' }))).toEqual(['Echo: hello there']);
    expect(texts(await m.call('everything', 'get-sum', { a: 2, b: 40 }))[0]).toMatch(/42/);
  });

  it('passes structured content on', async () => {
    const r = await m.call('everything', 'get-structured-content', { location: 'Chicago' });
    // The server repeats the structured value as text, so it is given once.
    expect(texts(r)).toEqual(['{"temperature":36,"conditions":"Light rain / drizzle","humidity":82}']);
    expect(r.summary).toMatch(/structured/);
  });

  it('passes an image result on as an image part', async () => {
    const r = await m.call('everything', 'get-tiny-image', {});
    const image = r.content.find((p) => p.type === 'image') as { mediaType: string; data: string };
    expect(image.mediaType).toBe('image/png');
    expect(Buffer.from(image.data, 'base64').subarray(1, 4).toString()).toBe('PNG');
  });

  it('passes resource links on as descriptions the model can act on', async () => {
    const r = await m.call('everything', 'get-resource-links', { count: 2 });
    expect(texts(r).join('\n')).toMatch(/Resource link: .*<demo:\/\/resource\/dynamic\/\w+\/1> \(text\/plain\)/);
  });

  it('a server-side error result is marked as an error', async () => {
    const r = await m.call('everything', 'get-sum', { a: 'x', b: 1 });
    expect(r.isError).toBe(true);
    expect(texts(r).join()).toMatch(/a/);
  });
});

describe('MCP over streamable HTTP on loopback (server-everything)', () => {
  let http: Awaited<ReturnType<typeof startEverythingHttp>>;
  let m: McpManager;
  beforeAll(async () => {
    http = await startEverythingHttp();
    m = manager(['remote', { transport: 'http', command: undefined, args: [], url: http.url }]);
    await m.start();
  });
  afterAll(async () => {
    await m.close();
    await http.stop();
  });

  it('lists and calls tools, with structured content and images', async () => {
    expect(m.status()[0]).toMatchObject({ state: 'ready', transport: 'http' });
    expect(names(m, 'remote')).toContain('mcp__remote__echo');
    expect(texts(await m.call('remote', 'echo', { message: 'over http' }))).toEqual(['Echo: over http']);
    expect(texts(await m.call('remote', 'get-structured-content', { location: 'New York' }))[0]).toMatch(/Cloudy/);
    expect((await m.call('remote', 'get-tiny-image', {})).content.some((p) => p.type === 'image')).toBe(true);
  });

  it('a bearer token named by bearerTokenEnvVar that is not set is reported, not sent empty', async () => {
    const other = new McpManager(
      [
        mcpEntry('tokened', {
          transport: 'http',
          command: undefined,
          args: [],
          url: http.url,
          bearerTokenEnvVar: 'JARVIS_TEST_NO_SUCH_TOKEN',
        }),
      ],
      { clientInfo, env: {} },
    );
    managers.push(other);
    await other.start();
    expect(other.status()[0]).toMatchObject({
      state: 'failed',
      error: expect.stringMatching(/JARVIS_TEST_NO_SUCH_TOKEN \(bearerTokenEnvVar\) is not set/),
    });
  });
});

describe('MCP lifecycle', () => {
  it('list_changed: a tool the server adds mid-session is offered at once', async () => {
    const m = manager(['growing', { args: [GROWING_SERVER] }]);
    let changes = 0;
    m.onToolsChanged(() => changes++);
    await m.start();
    expect(names(m, 'growing')).toEqual(['mcp__growing__grow']);
    const before = changes;
    expect(texts(await m.call('growing', 'grow', {}))).toEqual(['added grown-1']);
    await expect.poll(() => names(m, 'growing')).toEqual(['mcp__growing__grow', 'mcp__growing__grown-1']);
    expect(changes).toBeGreaterThan(before);
    expect(texts(await m.call('growing', 'grown-1', { word: 'hi' }))).toEqual(['grown-1: hi']);
  });

  it('a server that crashes mid-call: a clear error, then the next call reconnects', async () => {
    const m = manager(['crashy']);
    await m.start();
    const pid = m.pidOf('crashy')!;
    expect(pid).toBeGreaterThan(0);
    const pending = m.call('crashy', 'trigger-long-running-operation', { duration: 60, steps: 60 });
    // Give the call time to reach the server before killing it; the outcome is the same either way.
    await expect.poll(() => m.status()[0].state).toBe('ready');
    process.kill(pid, 'SIGKILL');
    await expect(pending).rejects.toThrow(
      /MCP server "crashy" closed the connection during the call to trigger-long-running-operation/,
    );
    expect(m.status()[0].state).toBe('disconnected');
    expect(texts(await m.call('crashy', 'echo', { message: 'back' }))).toEqual(['Echo: back']);
    expect(m.pidOf('crashy')).not.toBe(pid);
    expect(m.status()[0].state).toBe('ready');
  });

  it('a server whose command does not exist is reported; the other servers work', async () => {
    const m = manager(['ghost', { command: 'no-such-mcp-server-xyz', args: [] }], ['everything']);
    const failures: string[] = [];
    m.onStartFailure((server, error) => failures.push(`${server}: ${error}`));
    await m.start();
    expect(failures).toEqual([
      'ghost: could not start: command "no-such-mcp-server-xyz" was not found (stdio: no-such-mcp-server-xyz)',
    ]);
    expect(m.status().map((s) => s.state)).toEqual(['failed', 'ready']);
    expect(names(m, 'ghost')).toEqual([]);
    await expect(m.call('ghost', 'echo', {})).rejects.toThrow(
      /MCP server "ghost" is not connected .*reconnecting failed: could not start/,
    );
  });

  it('a server that never answers fails with the startup timeout message and is stopped', async () => {
    const m = manager(['silent', { args: ['-e', 'setInterval(() => {}, 1000)'], startupTimeoutMs: 500 }]);
    await m.start();
    expect(m.status()[0]).toMatchObject({
      state: 'failed',
      error: expect.stringMatching(/^did not answer within 500 ms and was stopped \(raise "startupTimeoutMs"/),
    });
    expect(m.pidOf('silent')).toBeUndefined();
  });

  it('a server that exits at once reports its stderr', async () => {
    const m = manager(['broken', { args: ['-e', 'console.error("missing API key FOO"); process.exit(3)'] }]);
    await m.start();
    expect(m.status()[0].error).toMatch(/could not start: .*missing API key FOO/);
  });

  it('a call past toolTimeoutMs fails with a message that names the setting', async () => {
    const m = manager(['slow', { toolTimeoutMs: 300 }]);
    await m.start();
    await expect(m.call('slow', 'trigger-long-running-operation', { duration: 30, steps: 30 })).rejects.toThrow(
      /did not answer the call to trigger-long-running-operation within 300 ms \("toolTimeoutMs"\)/,
    );
  });

  it('enabledTools and disabledTools filter the offered tools (globs allowed)', async () => {
    const m = manager(['picky', { enabledTools: ['echo', 'get-*'], disabledTools: ['get-env', 'get-resource-*'] }]);
    await m.start();
    expect(names(m, 'picky').sort()).toEqual(
      ['echo', 'get-annotated-message', 'get-structured-content', 'get-sum', 'get-tiny-image'].map(
        (t) => `mcp__picky__${t}`,
      ),
    );
  });

  it('enabled: false does not start the server', async () => {
    const m = manager(['off', { enabled: false }]);
    await m.start();
    expect(m.status()[0]).toMatchObject({ state: 'disabled', tools: [] });
    await expect(m.call('off', 'echo', {})).rejects.toThrow(/is disabled/);
  });

  it('servers start in parallel: three servers that each wait until all three were launched all become ready', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jarvis-mcp-par-'));
    // Each server marks that it was launched, waits for the other two marks, then serves. Started one
    // after another, the first would wait forever and fail its startup timeout.
    const waitAll = (n: string) =>
      `const fs=require('fs');fs.writeFileSync(${JSON.stringify(join(dir, n))},'');` +
      `const t=setInterval(()=>{if(['p1','p2','p3'].every(f=>fs.existsSync(${JSON.stringify(dir)}+'/'+f))){clearInterval(t);process.argv.push('stdio');import(${JSON.stringify(EVERYTHING_BIN)});}},20);`;
    const m = manager(
      ...(['p1', 'p2', 'p3'] as const).map((n): Parameters<typeof mcpEntry> => [
        n,
        { args: ['-e', waitAll(n)], startupTimeoutMs: 30_000 },
      ]),
    );
    await m.start();
    rmSync(dir, { recursive: true, force: true });
    expect(m.status().map((s) => s.state)).toEqual(['ready', 'ready', 'ready']);
  });

  it('a removed server withdraws its tools and calls say it was removed', async () => {
    const m = manager(['gone', { args: [EVERYTHING_BIN, 'stdio'] }]);
    await m.start();
    await m.remove('gone');
    expect(m.tools().get('gone')).toBeUndefined();
    expect(m.status()[0]).toMatchObject({ name: 'gone', state: 'removed' });
    await expect(m.call('gone', 'echo', {})).rejects.toThrow(/was removed from this session/);
  });
});
