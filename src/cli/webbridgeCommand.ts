// `jarvis webbridge-mcp` (hidden): the MCP stdio server of the jarvis-webbridge plugin
// (docs/plugins-official.md). By default it serves the page tools through the Jarvis WebBridge browser
// extension, which connects to it over a loopback WebSocket and pairs with a token
// (`jarvis webbridge-pair`); with `--cdp-url`, JARVIS_WEBBRIDGE_CDP_URL or `[browser] cdp_url` it attaches
// over the DevTools protocol instead. It is the CLI itself rather than a bundled file because
// playwright-core locates its own files at run time and cannot be bundled.
// Closing the connection disconnects from the browser and never closes it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileStateGuard } from '../engine/session/fileGuard';
import { executeToolCall, prepareToolCall, type ToolRunEnv } from '../engine/loop/toolRunner';
import { BrowserSession } from '../platform/browser/browserSession';
import {
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_WEBBRIDGE_PORT,
  ExtensionBridge,
} from '../platform/webbridge/extensionBridge';
import { ConfigError, loadConfig } from '../store/config';
import { packageRoot } from '../store/packageRoot';
import { jarvisHome } from '../store/paths';
import { newWebbridgeToken, webbridgeToken } from '../store/webbridgeToken';
import { BROWSER_SERVICE, browserPageTools } from '../tools/browser';
import { EXTENSION_SERVICE, extensionPageTools } from '../tools/browser/extensionTabTools';
import type { ServiceKey, Tool, ToolServices } from '../tools/defineTool';

export interface WebbridgeOptions {
  cdpUrl?: string;
}

interface WebbridgeSettings {
  /** Set: attach over CDP; unset: the browser extension. */
  cdpUrl?: string;
  port: number;
  connectTimeoutMs: number;
}

/**
 * `--cdp-url`, else JARVIS_WEBBRIDGE_CDP_URL, else `[browser] cdp_url` chooses CDP; otherwise the extension, on
 * `[webbridge] port`. Plugin servers do not inherit the CLI's environment, so config.toml is where users set these.
 */
function settingsFor(options: WebbridgeOptions, env: NodeJS.ProcessEnv): WebbridgeSettings {
  const fromEnv = options.cdpUrl ?? (env.JARVIS_WEBBRIDGE_CDP_URL?.trim() || undefined);
  let config;
  try {
    config = loadConfig(jarvisHome(env)).config;
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    process.stderr.write(
      `jarvis-webbridge: config.toml is invalid (${e.message.split('\n')[0]}); using the defaults\n`,
    );
    return { cdpUrl: fromEnv, port: DEFAULT_WEBBRIDGE_PORT, connectTimeoutMs: DEFAULT_CONNECT_TIMEOUT_MS };
  }
  return {
    cdpUrl: fromEnv ?? config.browser.cdp_url,
    port: config.webbridge.port,
    connectTimeoutMs: config.webbridge.connect_timeout_s * 1000,
  };
}

/** The installed plugin's copy of the extension (JARVIS_PLUGIN_ROOT), else the package's. */
export function webbridgeExtensionDir(env: NodeJS.ProcessEnv): string {
  const root = env.JARVIS_PLUGIN_ROOT?.trim();
  return root ? join(root, 'extension') : join(packageRoot(), 'dist', 'plugins', 'jarvis-webbridge', 'extension');
}

/** `jarvis webbridge-pair`: what the user pastes into the extension's popup, once. */
export function runWebbridgePair(options: { new?: boolean }, env: NodeJS.ProcessEnv = process.env): number {
  try {
    const home = jarvisHome(env);
    const token = options.new ? newWebbridgeToken(home) : webbridgeToken(home);
    const dir = webbridgeExtensionDir(env);
    process.stdout.write(
      [
        'Pair the Jarvis WebBridge extension: click its toolbar icon, paste these, press Pair.',
        `  port:  ${settingsFor({}, env).port}`,
        `  token: ${token}`,
        '',
        `The extension (chrome://extensions → Developer mode → Load unpacked): ${dir}`,
        `or its zip: ${dir}.zip. Keep the token secret: whoever has it can drive the tabs you share.`,
        '',
      ].join('\n'),
    );
    return 0;
  } catch (e) {
    process.stderr.write(`jarvis webbridge-pair: ${(e as Error).message}\n`);
    return 1;
  }
}

interface Backend {
  tools: Tool[];
  services: Map<string, unknown>;
  instructions: string;
  close(): Promise<void>;
}

async function extensionBackend(settings: WebbridgeSettings, env: NodeJS.ProcessEnv): Promise<Backend> {
  const bridge = new ExtensionBridge({
    port: settings.port,
    token: webbridgeToken(jarvisHome(env)),
    connectTimeoutMs: settings.connectTimeoutMs,
    extensionDir: webbridgeExtensionDir(env),
  });
  await bridge.listen();
  return {
    tools: extensionPageTools,
    services: new Map([[EXTENSION_SERVICE.name, bridge]]),
    instructions:
      "Browser tools in the user's own Chrome/Chromium through the Jarvis WebBridge extension: the tabs you " +
      'open and the ones the user shares, with their cookies and logged-in sessions.',
    close: () => bridge.close(),
  };
}

function cdpBackend(cdpUrl: string, env: NodeJS.ProcessEnv): Backend {
  // Attached to the user's browser: it may browse anywhere (docs/browser.md), so no request check.
  const session = new BrowserSession({ cdpUrl, env });
  return {
    tools: browserPageTools,
    services: new Map([[BROWSER_SERVICE.name, { session }]]),
    instructions:
      `Browser tools attached to the user's own Chrome/Chromium at ${cdpUrl}: ` +
      'their real tabs, cookies and logged-in sessions.',
    close: () => session.close(),
  };
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
  let backend: Backend;
  try {
    const settings = settingsFor(options, env);
    backend = settings.cdpUrl ? cdpBackend(settings.cdpUrl, env) : await extensionBackend(settings, env);
  } catch (e) {
    process.stderr.write(`jarvis-webbridge: ${(e as Error).message}\n`);
    return 1;
  }
  const registry = backend.services;
  const scratchDir = mkdtempSync(join(tmpdir(), 'jarvis-webbridge-'));
  const services: ToolServices = {
    scratchDir,
    nonInteractive: true,
    mainAgent: true,
    get<T>(key: ServiceKey<T>): T {
      if (!registry.has(key.name)) throw new Error(`the ${key.name} service is not available in WebBridge`);
      return registry.get(key.name) as T;
    },
    find: <T>(key: ServiceKey<T>) => registry.get(key.name) as T | undefined,
  };
  const runEnv: ToolRunEnv = { cwd: process.cwd(), services, guard: new FileStateGuard(), onProgress: () => undefined };
  const tools = new Map(backend.tools.map((t) => [t.name, t]));

  const server = new Server(
    { name: 'jarvis-webbridge', version },
    { capabilities: { tools: {} }, instructions: backend.instructions },
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
  await backend.close();
  rmSync(scratchDir, { recursive: true, force: true });
  return 0;
}
