// The MCP servers an editor hands over with `session/new` / `session/load`, as mcp.json entries would
// be: stdio, streamable HTTP and SSE are joined to the session's servers (the editor's win a name
// clash); other transports are dropped with a warning.
import type { McpServer } from '@agentclientprotocol/sdk';
import type { McpServerConfig, McpTimeoutDefaults } from '../store/mcpConfig';

const FROM_EDITOR = 'the editor (ACP session request)';

export function editorMcpServers(
  servers: readonly McpServer[],
  defaults: McpTimeoutDefaults,
): { servers: McpServerConfig[]; warnings: string[] } {
  const out: McpServerConfig[] = [];
  const warnings: string[] = [];
  for (const server of servers) {
    const base = {
      name: server.name,
      scope: 'user' as const,
      file: FROM_EDITOR,
      args: [],
      env: {},
      headers: {},
      enabled: true,
      ...defaults,
    };
    if (!('type' in server) || server.type === undefined) {
      const stdio = server as Extract<McpServer, { command: string }>;
      out.push({
        ...base,
        transport: 'stdio',
        command: stdio.command,
        args: stdio.args,
        env: Object.fromEntries(stdio.env.map((e) => [e.name, e.value])),
      });
    } else if (server.type === 'http' || server.type === 'sse') {
      out.push({
        ...base,
        transport: server.type,
        url: server.url,
        headers: Object.fromEntries(server.headers.map((h) => [h.name, h.value])),
      });
    } else {
      warnings.push(
        `MCP server "${(server as { name: string }).name}" from the editor uses the transport "${String((server as { type: unknown }).type)}", which Jarvis cannot connect to; it was left out.`,
      );
    }
  }
  return { servers: out, warnings };
}

/** The configured servers with the editor's joined in (same name: the editor's). */
export function joinMcpServers(
  configured: readonly McpServerConfig[],
  fromEditor: readonly McpServerConfig[],
): McpServerConfig[] {
  const names = new Set(fromEditor.map((s) => s.name));
  return [...configured.filter((s) => !names.has(s.name)), ...fromEditor];
}
