// Lazy MCP servers (docs/mcp.md, "Lazy start") against the real server-everything: the first session
// lists and caches the tools; the next one offers the cached tools without starting the server, which
// starts on the first call (directly or after a ToolSearch load) and refreshes the cache. A lazy server
// that cannot start fails that call with a clear message and the session goes on; a damaged cache is a
// warning and the server starts as before; `startup = "eager"` and pinned tools keep the old behaviour.
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { McpListingCache } from '../../../src/ext/mcp/mcpListingCache';
import { McpManager } from '../../../src/ext/mcp/mcpManager';
import { mcpToolDeferral } from '../../../src/engine/loop/deferredTools';
import type { McpServerConfig } from '../../../src/store/mcpConfig';
import { GROWING_SERVER, mcpEntry } from '../../helpers/mcpServers';
import { makeEngine, runPrompt, verifyEnginesAfterEach } from '../../helpers/engineHarness';

verifyEnginesAfterEach();
const clientInfo = { name: 'jarvis-test', version: '0' };

function managerIn(home: string, servers: McpServerConfig[], pinned: string[] = []) {
  const warnings: string[] = [];
  const cache = new McpListingCache(home, 'test');
  const manager = new McpManager(servers, { clientInfo, cache, deferred: mcpToolDeferral({ deferred: [], pinned }) });
  manager.onWarning((w) => warnings.push(w));
  return { manager, warnings };
}

/** A home whose cache already holds server-everything's listing (a first session ran there). */
async function warmedHome(server = mcpEntry('everything')): Promise<string> {
  const home = mkdtempSync(join(tmpdir(), 'home-'));
  const { manager } = managerIn(home, [server]);
  await manager.start();
  expect(manager.pidOf('everything')).toBeGreaterThan(0);
  await manager.close();
  return home;
}

describe('lazy MCP servers', () => {
  it('the first start caches the listing (0700/0600); the next session offers it without starting the server', async () => {
    const home = await warmedHome();
    const dir = join(home, 'cache', 'mcp-tools');
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const [file] = readdirSync(dir);
    expect(statSync(join(dir, file)).mode & 0o777).toBe(0o600);

    const { manager, warnings } = managerIn(home, [mcpEntry('everything')]);
    await manager.start();
    expect(manager.status()[0].state).toBe('lazy');
    expect(manager.pidOf('everything')).toBeUndefined();
    expect(manager.startingServers()).toEqual([]);
    expect(
      manager
        .tools()
        .get('everything')!
        .map((t) => t.qualifiedName),
    ).toContain('mcp__everything__echo');
    const result = await manager.call('everything', 'echo', { message: 'lazy' });
    expect(result.content).toEqual([{ type: 'text', text: 'Echo: lazy' }]);
    expect(manager.status()[0].state).toBe('ready');
    expect(manager.pidOf('everything')).toBeGreaterThan(0);
    expect(warnings).toEqual([]);
    await manager.close();
  });

  it('in a session: a deferred tool called directly starts the server then, and the call succeeds', async () => {
    const home = await warmedHome();
    const { manager } = managerIn(home, [mcpEntry('everything')]);
    await manager.start();
    const call = { id: 'e', name: 'mcp__everything__echo', arguments: { message: 'direct' } };
    const h = makeEngine({ mcp: manager, mode: 'yolo', responses: [{ toolCalls: [call] }, { text: 'ok' }] });
    await runPrompt(h, 'echo');
    expect(h.client.requests[0].tools.map((t) => t.name)).toContain('ToolSearch');
    expect(JSON.stringify(h.client.requests[0].tools)).toMatch(/- mcp__everything__\{[^}]*\becho\b/);
    expect(h.eventsOf('tool_result')[0]).toMatchObject({ isError: false, text: 'Echo: direct' });
    expect(manager.pidOf('everything')).toBeGreaterThan(0);
    await manager.close();
  });

  it('in a session: loading the tool with ToolSearch starts the server, and the call after it succeeds', async () => {
    const home = await warmedHome();
    const { manager } = managerIn(home, [mcpEntry('everything')]);
    await manager.start();
    const states: string[] = [];
    const h = makeEngine({
      mcp: manager,
      mode: 'yolo',
      extensions: [{ beforeStep: () => void states.push(manager.status()[0].state) }],
      responses: [
        { toolCalls: [{ id: 's', name: 'ToolSearch', arguments: { names: ['mcp__everything__get-sum'] } }] },
        { toolCalls: [{ id: 'g', name: 'mcp__everything__get-sum', arguments: { a: 2, b: 3 } }] },
        { text: 'ok' },
      ],
    });
    await runPrompt(h, 'sum');
    // Not started for the first request; started by the load, before the model called the tool.
    expect(states[0]).toBe('lazy');
    expect(['starting', 'ready']).toContain(states[1]);
    const results = h.eventsOf('tool_result');
    expect(results[0]).toMatchObject({ isError: false, toolName: 'ToolSearch' });
    expect(results[1]).toMatchObject({ isError: false, text: expect.stringContaining('5') });
    expect(h.client.requests[1].tools.map((t) => t.name)).toContain('mcp__everything__get-sum');
    await manager.close();
  });

  it('a lazy server that cannot start fails the call that needed it with the reason; the session goes on', async () => {
    const home = mkdtempSync(join(tmpdir(), 'home-'));
    const failing = 'process.stderr.write("no licence key\\n"); process.exit(3)';
    const broken = mcpEntry('broken', { command: process.execPath, args: ['-e', failing] });
    const cache = new McpListingCache(home, 'test');
    const tools = Array.from({ length: 5 }, (_, i) => ({
      name: `t${i}`,
      description: `tool ${i}`,
      inputSchema: { type: 'object' },
      readOnly: true,
    }));
    expect(cache.write(broken, { tools })).toBeUndefined();
    const { manager } = managerIn(home, [broken]);
    await manager.start();
    expect(manager.status()[0].state).toBe('lazy');
    const call = { id: 'b', name: 'mcp__broken__t1', arguments: {} };
    const h = makeEngine({ mcp: manager, mode: 'yolo', responses: [{ toolCalls: [call] }, { text: 'carried on' }] });
    const outcome = await runPrompt(h, 'use it');
    const reason = /^MCP server "broken" could not be started for the call to t1: could not start: .*no licence key/;
    expect(h.eventsOf('tool_result')[0]).toMatchObject({ isError: true, text: expect.stringMatching(reason) });
    expect(outcome).toMatchObject({ reason: 'completed', text: 'carried on' });
    await manager.close();
  });

  it('a damaged cache file is a warning naming it; the server starts and the listing is cached again', async () => {
    const home = await warmedHome();
    const dir = join(home, 'cache', 'mcp-tools');
    const file = join(dir, readdirSync(dir)[0]);
    writeFileSync(file, '{"format": 1, "tools": [{"name": 3}]');
    const { manager, warnings } = managerIn(home, [mcpEntry('everything')]);
    await manager.start();
    const damaged =
      /^the cached tool list of MCP server "everything" \(.*\) is damaged \(.*\); it is ignored and the server starts now/;
    expect(warnings).toEqual([expect.stringMatching(damaged)]);
    expect(manager.status()[0].state).toBe('ready');
    expect(JSON.parse(readFileSync(file, 'utf8')).tools.length).toBeGreaterThan(4);
    await manager.close();
  });

  it('startup = "eager", a pinned tool, or a changed configuration (a new cache key) start the server at once', async () => {
    const home = await warmedHome();
    for (const [servers, pinned] of [
      [[mcpEntry('everything', { startup: 'eager' })], []],
      [[mcpEntry('everything')], ['mcp__everything__echo']],
      [[mcpEntry('everything', { env: { EXTRA: '1' } })], []],
    ] as const) {
      const { manager } = managerIn(home, [...servers], [...pinned]);
      await manager.start();
      expect(manager.status()[0].state).toBe('ready');
      await manager.close();
    }
  });

  it('a server that says its list changed has its cached listing replaced by the new one', async () => {
    const home = mkdtempSync(join(tmpdir(), 'home-'));
    const growing = mcpEntry('growing', { args: [GROWING_SERVER] });
    const { manager } = managerIn(home, [growing]);
    await manager.start();
    const cache = new McpListingCache(home, 'test');
    const names = () => ('listing' in (cached = cache.read(growing)) ? cached.listing.tools.map((t) => t.name) : []);
    let cached = cache.read(growing);
    expect(names()).not.toContain('grown-1');
    await manager.call('growing', 'grow', {});
    expect(names()).toContain('grown-1');
    await manager.close();
  });
});
