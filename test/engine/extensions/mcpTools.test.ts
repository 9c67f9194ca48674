// MCP tools inside a real runtime, against the real server-everything: approvals (manual asks, rules by
// name, yolo approves), plan mode, argument validation, list_changed reaching the model's next step,
// and a removed server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpManager } from '../../../src/ext/mcp/mcpManager';
import { GROWING_SERVER, mcpEntry } from '../../helpers/mcpServers';
import { makeEngine, runPrompt, verifyEnginesAfterEach } from '../../helpers/engineHarness';

verifyEnginesAfterEach();
const clientInfo = { name: 'jarvis-test', version: '0' };
let mcp: McpManager;
beforeAll(async () => {
  mcp = new McpManager([mcpEntry('everything')], { clientInfo });
  await mcp.start();
});
afterAll(async () => {
  await mcp.close();
});

const echo = (id = 'e') => ({ toolCalls: [{ id, name: 'mcp__everything__echo', arguments: { message: 'hi' } }] });
const toolNames = (req: { tools: Array<{ name: string }> }) => req.tools.map((t) => t.name);

describe('MCP tools in a session', () => {
  it('more than 4 are deferred (listed in ToolSearch); pinned, they are offered with the built-in tools', async () => {
    const deferred = makeEngine({ mcp, responses: [{ text: 'ok' }] });
    await runPrompt(deferred, 'hi');
    expect(toolNames(deferred.client.requests[0])).toEqual(['Peek', 'Poke', 'ToolSearch']);
    // One line for the server, its prefix written once (docs/tools.md, "Deferred tools").
    expect(JSON.stringify(deferred.client.requests[0].tools)).toMatch(/- mcp__everything__\{[^}]*\bget-sum\b/);
  });

  it('are offered with the built-in tools and, in manual mode, ask before running (subject = tool name)', async () => {
    const h = makeEngine({
      mcp,
      deferral: { pinned: ['mcp__everything__*'], deferred: [] },
      answer: () => ({ decision: 'approve' }),
      responses: [echo(), { text: 'ok' }],
    });
    await runPrompt(h, 'echo');
    expect(toolNames(h.client.requests[0])).toEqual(
      expect.arrayContaining(['Poke', 'mcp__everything__echo', 'mcp__everything__get-sum']),
    );
    expect(h.approvals.map((a) => a.subject)).toEqual(['mcp__everything__echo']);
    expect(h.eventsOf('tool_result')[0]).toMatchObject({ isError: false, text: 'Echo: hi' });
  });

  it('rules match by name with * (arguments never considered); yolo approves', async () => {
    const allowed = makeEngine({
      mcp,
      rules: [{ decision: 'allow', pattern: 'mcp__everything__*' }],
      answer: () => ({ decision: 'reject' }),
      responses: [echo(), { text: 'ok' }],
    });
    await runPrompt(allowed, 'echo');
    expect(allowed.approvals).toEqual([]);
    expect(allowed.eventsOf('tool_result')[0].isError).toBe(false);

    const denied = makeEngine({
      mcp,
      mode: 'yolo',
      rules: [{ decision: 'deny', pattern: 'mcp__everything__ech*' }],
      responses: [echo(), { text: 'ok' }],
    });
    await runPrompt(denied, 'echo');
    expect(denied.eventsOf('tool_result')[0]).toMatchObject({
      isError: true,
      text: expect.stringMatching(/is denied/),
    });

    const yolo = makeEngine({ mcp, mode: 'yolo', responses: [echo(), { text: 'ok' }] });
    await runPrompt(yolo, 'echo');
    expect(yolo.eventsOf('tool_result')[0].isError).toBe(false);
  });

  it('plan mode lets read-only tools run and refuses the others', async () => {
    const h = makeEngine({
      mcp,
      mode: 'yolo',
      planMode: true,
      responses: [
        {
          toolCalls: [
            { id: 'r', name: 'mcp__everything__echo', arguments: { message: 'x' } },
            { id: 'w', name: 'mcp__everything__toggle-simulated-logging', arguments: {} },
          ],
        },
        { text: 'ok' },
      ],
    });
    await runPrompt(h, 'go');
    const results = new Map(h.eventsOf('tool_result').map((r) => [r.callId, r]));
    expect(results.get('r')!.isError).toBe(false);
    expect(results.get('w')!).toMatchObject({ isError: true, text: expect.stringMatching(/plan mode/i) });
  });

  it("arguments are validated against the tool's JSON Schema before any call", async () => {
    const h = makeEngine({
      mcp,
      mode: 'yolo',
      responses: [
        { toolCalls: [{ id: 's', name: 'mcp__everything__get-sum', arguments: { a: 1, b: 'two', c: 3 } }] },
        { text: 'ok' },
      ],
    });
    await runPrompt(h, 'sum');
    expect(h.eventsOf('tool_result')[0]).toMatchObject({
      isError: true,
      text: expect.stringMatching(/^Invalid arguments for mcp__everything__get-sum:\n- b: must be number/),
    });
  });

  it("a tool the server adds (list_changed) is offered at the model's next step; a removed server's tools fail with the reason", async () => {
    const growing = new McpManager([mcpEntry('growing', { args: [GROWING_SERVER] })], { clientInfo });
    await growing.start();
    const h = makeEngine({
      mcp: growing,
      mode: 'yolo',
      responses: [
        { toolCalls: [{ id: 'g', name: 'mcp__growing__grow', arguments: {} }] },
        { toolCalls: [{ id: 'n', name: 'mcp__growing__grown-1', arguments: { word: 'hey' } }] },
        { text: 'done' },
      ],
    });
    await runPrompt(h, 'grow');
    expect(toolNames(h.client.requests[0])).not.toContain('mcp__growing__grown-1');
    expect(toolNames(h.client.requests[1])).toContain('mcp__growing__grown-1');
    expect(h.eventsOf('tool_result').map((r) => r.text)).toEqual(['added grown-1', 'grown-1: hey']);

    await growing.remove('growing');
    await expect.poll(() => h.runtime.tools.get('mcp__growing__grow')).toBeUndefined();
    expect(h.runtime.tools.goneReason('mcp__growing__grow')).toMatch(/removed/);
    await growing.close();
  });
});
