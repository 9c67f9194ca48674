// `jarvis webbridge-mcp` (hidden): the MCP stdio server of the jarvis-webbridge plugin
// (docs/plugins-official.md). It serves the browser page tools — list_tabs, open_tab, close_tab,
// activate_tab, get_tab_content, execute_script — attached over CDP to the user's own running
// Chrome/Chromium, so an agent works in the user's logged-in tabs. It is the CLI itself rather than a
// bundled file because playwright-core locates its own files at run time and cannot be bundled.
// Closing the connection disconnects from the browser and never closes it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileStateGuard } from '../engine/session/fileGuard';
import { executeToolCall, prepareToolCall, type ToolRunEnv } from '../engine/loop/toolRunner';
import { BrowserSession } from '../platform/browser/browserSession';
import { ConfigError, loadConfig } from '../store/config';
import { jarvisHome } from '../store/paths';
import { BROWSER_SERVICE, browserPageTools } from '../tools/browser';
import type { ServiceKey, ToolServices } from '../tools/defineTool';

/** Chrome's conventional debugging port, used when nothing else says where the browser listens. */
export const DEFAULT_CDP_URL = 'http://127.0.0.1:9222';

export interface WebbridgeOptions {
  cdpUrl?: string;
}

/** `--cdp-url`, else JARVIS_WEBBRIDGE_CDP_URL, else `[browser] cdp_url`, else 127.0.0.1:9222. */
function cdpUrlFor(options: WebbridgeOptions, env: NodeJS.ProcessEnv): string {
  if (options.cdpUrl) return options.cdpUrl;
  if (env.JARVIS_WEBBRIDGE_CDP_URL?.trim()) return env.JARVIS_WEBBRIDGE_CDP_URL.trim();
  try {
    return loadConfig(jarvisHome(env)).config.browser.cdp_url ?? DEFAULT_CDP_URL;
  } catch (e) {
    if (e instanceof ConfigError)
      process.stderr.write(
        `jarvis-webbridge: config.toml is invalid (${e.message.split('\n')[0]}); using ${DEFAULT_CDP_URL}\n`,
      );
    return DEFAULT_CDP_URL;
  }
}

export async function runWebbridgeMcp(
  version: string,
  options: WebbridgeOptions,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const [{ Server }, { StdioServerTransport }, types] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/index.js'),
    import('@modelcontextprotocol/sdk/server/stdio.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]);
  const cdpUrl = cdpUrlFor(options, env);
  // Attached to the user's browser: it may browse anywhere (docs/browser.md), so no request check.
  const session = new BrowserSession({ cdpUrl, env });
  const registry = new Map<string, unknown>([[BROWSER_SERVICE.name, { session }]]);
  const sessionDir = mkdtempSync(join(tmpdir(), 'jarvis-webbridge-'));
  const services: ToolServices = {
    sessionDir,
    nonInteractive: true,
    mainAgent: true,
    get<T>(key: ServiceKey<T>): T {
      if (!registry.has(key.name)) throw new Error(`the ${key.name} service is not available in WebBridge`);
      return registry.get(key.name) as T;
    },
    find: <T>(key: ServiceKey<T>) => registry.get(key.name) as T | undefined,
  };
  const runEnv: ToolRunEnv = { cwd: process.cwd(), services, guard: new FileStateGuard(), onProgress: () => undefined };
  const tools = new Map(browserPageTools.map((t) => [t.name, t]));

  const server = new Server(
    { name: 'jarvis-webbridge', version },
    {
      capabilities: { tools: {} },
      instructions: `Browser tools attached to the user's own Chrome/Chromium at ${cdpUrl}: their real tabs, cookies and logged-in sessions.`,
    },
  );
  server.setRequestHandler(types.ListToolsRequestSchema, () => ({
    tools: [...tools.values()].map((t) => ({
      name: t.name,
      description: t.renderedDescription,
      inputSchema: t.jsonSchema as { type: 'object' },
      annotations: { readOnlyHint: t.readOnly, openWorldHint: true },
    })),
  }));
  let calls = 0;
  server.setRequestHandler(types.CallToolRequestSchema, async (request, extra) => {
    const call = {
      id: `webbridge_${++calls}`,
      name: request.params.name,
      arguments: JSON.stringify(request.params.arguments ?? {}),
    };
    const { result } = await executeToolCall(prepareToolCall(call, tools, runEnv), runEnv, extra.signal);
    const parts =
      typeof result.content === 'string' ? [{ type: 'text' as const, text: result.content }] : result.content;
    return {
      content: parts.map((p) =>
        p.type === 'text'
          ? { type: 'text' as const, text: p.text }
          : { type: 'image' as const, data: p.data, mimeType: p.mediaType },
      ),
      isError: result.isError === true,
    };
  });

  const closed = new Promise<void>((resolve) => (server.onclose = resolve));
  await server.connect(new StdioServerTransport());
  await closed;
  await session.close();
  rmSync(sessionDir, { recursive: true, force: true });
  return 0;
}
