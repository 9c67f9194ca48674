// Puts each MCP server's tools into the runtime's tool registry (docs/mcp.md) and keeps them there as
// they change: one registry source per server, replaced whole on every change (first listing or the
// cached one, `tools/list_changed`, reconnect, removal). Arguments are checked against the server's
// JSON Schema before a call (compiled on the tool's first call); the approval subject is the tool's
// name, so rules match `mcp__server__*`; a tool the server marks read-only may run in plan mode.
import { McpCallError } from '../../ext/mcp/mcpConnection';
import type { McpManager, McpOfferedTool } from '../../ext/mcp/mcpManager';
import { defineJsonSchemaTool } from '../../tools/jsonSchemaTool';
import type { Tool } from '../../tools/defineTool';
import type { ToolRegistry } from '../loop/toolRegistry';
import { keepDesktopImages } from './desktopResults';

/** MCP results can be large; the engine's usual cap applies, raised for servers that return pages of text. */
const MCP_MAX_OUTPUT_CHARS = 100_000;

export function mcpSourceId(server: string): string {
  return `mcp:${server}`;
}

/**
 * Keeps `registry` in step with `manager`. `warn` receives the registry's problems (a name clash).
 * `settled` resolves once the registry reflects every change seen so far; `stop` stops following changes.
 */
export function attachMcpTools(
  manager: McpManager,
  registry: ToolRegistry,
  warn: (text: string) => void,
): { stop(): void; settled(): Promise<void> } {
  // A tool is built once per distinct definition (so a validator compiled by a call is kept); a server
  // whose list did not change keeps its source as it is. Servers announce changes often.
  const built = new Map<string, Tool>();
  const reported = new Set<string>();
  const lastSignature = new Map<string, string>();
  let sync: Promise<void> = Promise.resolve();
  const update = () => {
    // Each update is its own link: one that fails is reported and the chain goes on, so a later change
    // (or the next turn, which waits for `settled`) is never held up by an earlier failure.
    sync = sync
      .then(() => syncOnce())
      .catch((e: unknown) => {
        const why = e instanceof Error ? e.message : String(e);
        warn(
          `MCP tools could not be brought up to date (${why}); the tool list stays as it was until the next change.`,
        );
      });
  };
  const syncOnce = () => {
    for (const [server, tools] of manager.tools()) {
      const keys = tools.map((t) =>
        JSON.stringify([t.qualifiedName, t.name, t.title, t.description, t.readOnly, t.desktop, t.inputSchema]),
      );
      const signature = keys.join('\n');
      if (lastSignature.get(server) === signature) continue;
      const ok: Tool[] = [];
      tools.forEach((t, i) => {
        let tool = built.get(keys[i]);
        if (!tool) {
          try {
            tool = buildTool(manager, t);
          } catch (e) {
            const text = `MCP server "${server}": tool "${t.name}" is not offered: ${e instanceof Error ? e.message : String(e)}`;
            if (!reported.has(text)) warn(text);
            reported.add(text);
            return;
          }
          built.set(keys[i], tool);
        }
        ok.push(tool);
      });
      // A plugin's server is a plugin source (docs/plugins.md); its tools keep their MCP names.
      const kind = manager.configOf(server)?.scope === 'plugin' ? 'plugin' : 'mcp';
      for (const w of registry.setSource({ id: mcpSourceId(server), kind }, ok)) warn(w);
      // Remembered only once in the registry: a failed update is tried again at the next change.
      lastSignature.set(server, signature);
    }
    for (const row of manager.status()) {
      if (row.state !== 'removed' || !lastSignature.has(row.name)) continue;
      lastSignature.delete(row.name);
      registry.removeSource(mcpSourceId(row.name), `the MCP server "${row.name}" was removed from this session`);
    }
  };
  const stop = manager.onToolsChanged(update);
  update();
  return { stop, settled: () => sync };
}

/** The display a computer-use server acts on: the DISPLAY it is given (docs/computer-use.md). */
function displayOf(manager: McpManager, server: string): string {
  const env = manager.configOf(server)?.env ?? {};
  return env.DISPLAY?.trim() || (env.WAYLAND_DISPLAY?.trim() ? `wayland:${env.WAYLAND_DISPLAY.trim()}` : 'no-display');
}

function buildTool(manager: McpManager, t: McpOfferedTool): Tool {
  const desktop = t.desktop ? { action: t.desktop, display: displayOf(manager, t.server) } : undefined;
  return defineJsonSchemaTool({
    name: t.qualifiedName,
    description: t.title && t.title !== t.description ? `${t.title}: ${t.description}` : t.description,
    inputSchema: t.inputSchema,
    readOnly: t.readOnly,
    defaultApproval: 'ask',
    maxOutputChars: MCP_MAX_OUTPUT_CHARS,
    onLoaded: () => manager.warm(t.server),
    ...(desktop ? { desktop } : {}),
    async execute(args, ctx) {
      try {
        const r = await manager.call(t.server, t.name, args, { signal: ctx.signal });
        const result = { isError: r.isError, summary: `${t.server}: ${r.summary}` };
        if (desktop) {
          const { scratchDir, agentId = 'main' } = ctx.services;
          return await keepDesktopImages(r.content, result, { scratchDir, agentId });
        }
        return { content: r.content, ...result };
      } catch (e) {
        if (e instanceof McpCallError) return { content: e.message, isError: true };
        throw e;
      }
    },
  });
}
