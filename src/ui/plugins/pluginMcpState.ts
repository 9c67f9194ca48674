// What the /plugins MCP sub-view says about each server of a plugin right now (docs/plugins.md "The /plugins
// manager"): its state in the running session, read at every render from the session's MCP manager, so the
// line never outlives the state it describes, and whether a switch still waits for /reload or /new.
import type { McpServerStatus } from '../../ext/mcp/mcpManager';
import type { PluginView } from '../../ext/plugins/manager';

type Server = PluginView['mcpServers'][number];

function stateText(live: McpServerStatus | undefined): string {
  if (!live) return 'not running in this session';
  switch (live.state) {
    case 'ready':
      return `running · ${live.tools.length} tool${live.tools.length === 1 ? '' : 's'}`;
    case 'starting':
      return 'starting…';
    case 'lazy':
      return 'not started yet (starts when a tool is first used)';
    case 'failed':
      return `failed to start: ${live.error ?? 'no reason given'}`;
    case 'disconnected':
      return `disconnected${live.error ? ` (${live.error})` : ''}; reconnects on the next call`;
    case 'disabled':
      return 'off in this session';
    case 'closed':
    case 'removed':
      return 'stopped';
  }
}

/** `now: running · 11 tools`, plus what /reload or /new will change when the switch differs from the session. */
export function mcpServerStateLine(server: Server, statuses: readonly McpServerStatus[]): string {
  const live = statuses.find((s) => s.name === server.runsAs);
  const runs = live !== undefined && live.state !== 'disabled' && live.state !== 'closed' && live.state !== 'removed';
  const pending =
    server.enabled && !runs
      ? ' · on after /reload or /new'
      : !server.enabled && runs
        ? ' · off after /reload or /new'
        : '';
  return `now: ${stateText(live)}${pending}`;
}
