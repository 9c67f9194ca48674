// MCP failures that must not outlive themselves (issue 39 item 15): a failed tool-list update is
// reported and later updates still happen (turns never fail on an old error); a connection that closes
// while its tools are listed is not "ready".
import { describe, expect, it } from 'vitest';
import { attachMcpTools } from '../../../src/engine/extensions/mcpTools';
import { ToolRegistry } from '../../../src/engine/loop/toolRegistry';
import { McpManager, type McpOfferedTool } from '../../../src/ext/mcp/mcpManager';
import { mcpEntry } from '../../helpers/mcpServers';

const clientInfo = { name: 'jarvis-test', version: '0.0.0' };

describe('the MCP tool-sync chain', () => {
  it('an update that throws is reported, and the next change still reaches the registry', async () => {
    const tool: McpOfferedTool = {
      server: 'srv',
      name: 't',
      qualifiedName: 'mcp__srv__t',
      description: 'a tool',
      readOnly: true,
      inputSchema: { type: 'object', properties: {} },
    };
    let broken = true;
    const listeners: Array<() => void> = [];
    const manager = {
      tools: () => {
        if (broken) throw new Error('the server list is being rebuilt');
        return new Map([['srv', [tool]]]);
      },
      configOf: () => undefined,
      status: () => [],
      onToolsChanged: (listener: () => void) => (listeners.push(listener), () => {}),
    } as unknown as McpManager;
    const registry = new ToolRegistry({ availability: { capabilities: [], nonInteractive: false } });
    const warnings: string[] = [];
    const attached = attachMcpTools(manager, registry, (w) => warnings.push(w));
    // What the next turn waits for resolves; it does not carry the failure along.
    await expect(attached.settled()).resolves.toBeUndefined();
    const reported = 'MCP tools could not be brought up to date (the server list is being rebuilt)';
    expect(warnings).toEqual([expect.stringContaining(reported)]);
    broken = false;
    listeners[0]();
    await expect(attached.settled()).resolves.toBeUndefined();
    expect(registry.list().map((t) => t.name)).toEqual(['mcp__srv__t']);
  });
});

/** A stdio server that answers initialize, then sends its tool list and exits at once. */
const LISTS_THEN_EXITS = `
const rl = require('node:readline').createInterface({ input: process.stdin });
rl.on('line', (line) => {
  const m = JSON.parse(line);
  const send = (result) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, result }) + '\\n');
  const info = { capabilities: { tools: {} }, serverInfo: { name: 'x', version: '1' } };
  if (m.method === 'initialize') send({ protocolVersion: m.params.protocolVersion, ...info });
  if (m.method === 'tools/list') process.exit(0);
});`;

describe('MCP start-up', () => {
  it('a connection that closes while its tools are listed is failed, with the reason, not ready', async () => {
    const m = new McpManager([mcpEntry('flaky', { args: ['-e', LISTS_THEN_EXITS] })], { clientInfo });
    try {
      await m.start();
      expect(m.status()[0]).toMatchObject({ state: 'failed', error: expect.stringMatching(/Connection closed/) });
      expect(m.tools().get('flaky') ?? []).toEqual([]);
      await expect(m.call('flaky', 't', {})).rejects.toThrow(/MCP server "flaky" is not connected/);
    } finally {
      await m.close();
    }
  });
});
