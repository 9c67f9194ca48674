// The MCP servers' resources for the resource tools (tools/mcp/, docs/mcp.md "Prompts and resources"): a server is
// asked only when it says it has resources; one named by the model that has not started (lazy) starts first. The
// tools join the registry whenever the session has MCP servers, deferred (their names cost a line in ToolSearch).
import { McpCallError } from '../../ext/mcp/mcpConnection';
import type { McpManager } from '../../ext/mcp/mcpManager';
import type { McpResourceAccess, McpResourceContent, McpResourceEntry } from '../../tools/mcp';
import { listMcpResourcesTool, readMcpResourceTool } from '../../tools/mcp';
import type { ToolRegistry } from '../loop/toolRegistry';

export function mcpResourceAccess(manager: McpManager): McpResourceAccess {
  const connection = (server: string) => {
    const c = manager.connectionsInUse().find((x) => x.config.name === server);
    if (!c) {
      const names = manager.connectionsInUse().map((x) => x.config.name);
      throw new McpCallError(
        `There is no MCP server "${server}" in this session (servers: ${names.join(', ') || 'none'}).`,
      );
    }
    return c;
  };
  /** A failure of the server (or an unknown one) is the tool's error text; anything else is a fault. */
  const asError = (e: unknown) => {
    if (e instanceof McpCallError) return { error: e.message };
    throw e;
  };
  return {
    async list(server, signal) {
      await manager.ready();
      let targets;
      try {
        targets = server ? [connection(server)] : manager.connectionsInUse();
      } catch (e) {
        return asError(e);
      }
      const resources: McpResourceEntry[] = [];
      const problems: string[] = [];
      for (const c of targets) {
        if (signal.aborted) break;
        if (server && c.state === 'lazy') await c.start();
        if (c.state !== 'ready' || !c.capabilities().resources) continue;
        try {
          const found = await c.request('the listing of its resources', async (client, timeout) => {
            const out: McpResourceEntry[] = [];
            let cursor: string | undefined;
            do {
              const page = await client.listResources(cursor ? { cursor } : undefined, { timeout, signal });
              for (const r of page.resources)
                out.push({
                  server: c.config.name,
                  uri: r.uri,
                  name: r.name,
                  description: r.description,
                  mimeType: r.mimeType,
                });
              cursor = page.nextCursor;
            } while (cursor && out.length < 10_000);
            const templates = await client.listResourceTemplates(undefined, { timeout, signal });
            for (const t of templates.resourceTemplates)
              out.push({
                server: c.config.name,
                uri: t.uriTemplate,
                name: t.name,
                description: t.description,
                mimeType: t.mimeType,
                template: true,
              });
            return out;
          });
          resources.push(...found);
        } catch (e) {
          if (!(e instanceof McpCallError)) throw e;
          problems.push(e.message);
        }
      }
      return { resources, problems };
    },
    async read(server, uri, signal) {
      let result;
      try {
        result = await connection(server).request(`the reading of ${uri}`, (client, timeout) =>
          client.readResource({ uri }, { timeout, signal }),
        );
      } catch (e) {
        return asError(e);
      }
      return result.contents.map((x) => ({
        uri: x.uri,
        mimeType: x.mimeType,
        ...('text' in x && typeof x.text === 'string' ? { text: x.text } : {}),
        ...('blob' in x && typeof x.blob === 'string' ? { blob: x.blob } : {}),
      })) as McpResourceContent[];
    },
  };
}

/** Offers ListMcpResources and ReadMcpResource (deferred) in a session with MCP servers. */
export function attachMcpResourceTools(manager: McpManager, registry: ToolRegistry): string[] {
  if (!manager.size) return [];
  return registry.setSource({ id: 'mcp:resources', kind: 'mcp' }, [listMcpResourcesTool, readMcpResourceTool]);
}
