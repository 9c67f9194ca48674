// Opens one session for the server (docs/server.md "Sessions"): the launch the terminal UI would make in that folder
// (config.toml, extensions, MCP servers, the user's model settings), a SessionHost around it whose approvals go to
// the server's clients, and everything closed again if the host cannot be made.
import { loadExtensions, loadStartup, type Startup } from '../engine/runtime/startup/startup';
import { RunControls } from '../engine/runtime/runControls';
import { mcpFailureText, startMcpServers } from '../ext/mcp/mcpSession';
import { mcpToolDeferral } from '../engine/loop/deferredTools';
import type { ApprovalAnswer, ApprovalRequest } from '../engine/policy/approvals';
import { SessionHost, type HostMessage } from '../sdk/sessionHost';
import type { McpManager } from '../ext/mcp/mcpManager';
import type { InteractionPort } from '../engine/delegation/interactions';
import type { EngineEvent } from '../engine/loop/events';

declare const __JARVIS_VERSION__: string;

export interface LaunchedHost {
  host: SessionHost;
  startup: Startup;
  mcp: McpManager | undefined;
}

export async function launchHost(opts: {
  cwd: string;
  env: NodeJS.ProcessEnv;
  resume?: string;
  model?: string;
  decide(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer>;
  interactions: InteractionPort;
  onMessage(message: HostMessage): void;
  onEngineEvent(event: EngineEvent): void;
  warn(text: string): void;
}): Promise<LaunchedHost> {
  const startup = loadStartup(
    { session: opts.resume, model: opts.model },
    { nonInteractive: false, env: opts.env, cwd: opts.cwd },
  );
  await loadExtensions(startup, {}, opts.env);
  for (const w of startup.warnings) opts.warn(w);
  const mcp = startMcpServers(startup.mcp.servers, {
    home: startup.home,
    clientName: startup.settings.identity.slug,
    version: typeof __JARVIS_VERSION__ === 'string' ? __JARVIS_VERSION__ : '0.0.0',
    onFailure: (server, error) => opts.warn(mcpFailureText(server, error)),
    onWarning: (text) => opts.warn(text),
    deferred: mcpToolDeferral(startup.runtime.deferral),
    cwd: opts.cwd,
  });
  const controls = await RunControls.open({});
  const bg = startup.settings.background;
  try {
    const host = new SessionHost({
      base: { ...startup.runtime, mcp, mainAgent: controls.mainAgent },
      controls,
      mcp,
      nonInteractive: false,
      decide: opts.decide,
      interactionPort: opts.interactions,
      // A turn ends when the model is done; background tasks go on, as in the terminal UI (not print mode's wait).
      background: {
        mode: 'exit',
        waitCeilingMs: bg.printWaitCeilingS * 1000,
        maxTurns: bg.printMaxTurns,
      },
      onMessage: opts.onMessage,
      onEngineEvent: opts.onEngineEvent,
    });
    // A finished task starts a turn by itself to report (docs/server.md "Background tasks"), as in the terminal UI.
    host.runtime.notifications.setDelivery('agent');
    return { host, startup, mcp };
  } catch (e) {
    await mcp?.close();
    controls.close();
    throw e;
  }
}
