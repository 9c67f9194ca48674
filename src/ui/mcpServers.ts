// The terminal UI's MCP servers (docs/mcp.md): those of mcp.json and enabled plugins start with the app
// while the user types (the first model request waits for them) and again on /reload;
// `/mcp-config login` signs in to an OAuth server and reconnects it.
import type { McpManager } from '../ext/mcp/mcpManager';
import { loginMcpServer } from '../ext/mcp/mcpOAuth';
import { LAUNCH_CHANGED_MARK } from '../ext/mcp/launchPin';
import { mcpFailureText, startMcpServers } from '../ext/mcp/mcpSession';
import { openInBrowser } from '../platform/openInBrowser';
import type { AppOptions } from './appOptions';
import { mcpToolDeferral } from '../engine/loop/deferredTools';

type Notice = (level: 'info' | 'warning' | 'error' | 'success', text: string, hint?: string) => void;

const SIGN_IN_TIMEOUT_MS = 5 * 60_000;

export function startUiMcpServers(
  opts: Pick<AppOptions, 'home' | 'version' | 'mcp' | 'mcpClientName' | 'runtime'>,
  notice: Notice,
  /** A project server was not started because a file it starts with changed since trusted (launchPin.ts). */
  onLaunchChanged?: (server: string) => void,
): McpManager | undefined {
  return startMcpServers(opts.mcp?.servers ?? [], {
    home: opts.home,
    clientName: opts.mcpClientName ?? 'jarvis',
    version: opts.version,
    always: !!(opts.mcp?.untrusted.length || opts.mcp?.changed.length),
    deferred: mcpToolDeferral(opts.runtime.deferral),
    onWarning: (text) => notice('warning', text),
    onFailure: (server, error) => {
      notice(
        'warning',
        mcpFailureText(server, error),
        '/mcp shows every server; fix the configuration and run /reload.',
      );
      if (error.includes(LAUNCH_CHANGED_MARK)) onLaunchChanged?.(server);
    },
  });
}

/**
 * Signs in to `server` (the browser opens the provider's page) and reconnects it; failures become notices.
 * `mcp` is read again after the sign-in: a /reload meanwhile replaced the servers.
 */
export async function signInToMcpServer(
  server: string,
  opts: { mcp: () => McpManager | undefined; home: string; clientName?: string; notice: Notice },
): Promise<void> {
  const { notice } = opts;
  const config = opts.mcp()?.configOf(server);
  if (!config) {
    notice('error', `There is no MCP server "${server}" in this session.`, '/mcp lists them.');
    return;
  }
  try {
    await loginMcpServer(config, {
      home: opts.home,
      clientName: opts.clientName ?? 'jarvis',
      timeoutMs: SIGN_IN_TIMEOUT_MS,
      openUrl: (url) => {
        notice('info', `Open this address to sign in to "${server}": ${url}`);
        openInBrowser(url);
      },
    });
  } catch (e) {
    notice('error', `Signing in to "${server}" failed: ${(e as Error).message}`);
    return;
  }
  await opts.mcp()!.add(config);
  notice('success', `Signed in to "${server}"; reconnecting.`, '/mcp shows its state.');
}
