// The state line of each server in the /plugins MCP sub-view (docs/plugins.md): what the running session's
// MCP manager says now, and what a switch still waits for.
import { describe, expect, it } from 'vitest';
import type { McpServerStatus } from '../../src/ext/mcp/mcpManager';
import { mcpServerStateLine } from '../../src/ui/plugins/pluginMcpState';

const server = (enabled: boolean) => ({ name: 'docs', enabled, runsAs: 'plugin-acme_docs', target: 'node s.mjs' });
const live = (over: Partial<McpServerStatus>): McpServerStatus[] => [
  {
    name: 'plugin-acme_docs',
    scope: 'plugin',
    transport: 'stdio',
    target: 'node s.mjs',
    state: 'ready',
    tools: [],
    ...over,
  },
];

describe('mcpServerStateLine', () => {
  it.each<[Partial<McpServerStatus>, string]>([
    [{ state: 'ready', tools: ['a', 'b'] }, 'now: running · 2 tools'],
    [{ state: 'ready', tools: ['a'] }, 'now: running · 1 tool'],
    [{ state: 'starting' }, 'now: starting…'],
    [{ state: 'lazy' }, 'now: not started yet (starts when a tool is first used)'],
    [{ state: 'failed', error: 'command "x" was not found' }, 'now: failed to start: command "x" was not found'],
    [{ state: 'disconnected' }, 'now: disconnected; reconnects on the next call'],
  ])('an enabled server in state %j', (status, line) => {
    expect(mcpServerStateLine(server(true), live(status))).toBe(line);
  });

  it('says what a switch waits for, and when the session does not run the server', () => {
    expect(mcpServerStateLine(server(false), live({ state: 'ready', tools: ['a'] }))).toBe(
      'now: running · 1 tool · off after /reload or /new',
    );
    expect(mcpServerStateLine(server(true), [])).toBe('now: not running in this session · on after /reload or /new');
    expect(mcpServerStateLine(server(false), [])).toBe('now: not running in this session');
    expect(mcpServerStateLine(server(true), live({ state: 'removed' }))).toBe(
      'now: stopped · on after /reload or /new',
    );
  });
});
