// `jarvis acp`: the Agent Client Protocol (v1) agent an editor talks to over stdio (docs/acp.md).
// Each method maps onto the engine: sessions are SessionControl runtimes (AcpSession), sessions on
// disk are listed, loaded (with their history replayed) and resumed from the session store.
import { agent, PROTOCOL_VERSION, RequestError, type AgentApp, type AgentContext, type ClientCapabilities, type McpServer } from '@agentclientprotocol/sdk';
import { statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { SessionLockedError } from '../store/sessionLock';
import { findSessionById, listSessions, type SessionLocation } from '../store/sessionStore';
import type { AcpLog } from './acpLog';
import type { AcpSession, PreparedSession } from './acpSession';
import { availableCommands } from './slashCommands';

/** A session cannot be prepared in that folder; `authRequired` when no model credentials resolve. */
export class SessionSetupError extends Error {
  constructor(message: string, readonly authRequired: boolean) {
    super(message);
  }
}

export interface AcpEnvironment {
  version: string;
  home: string;
  /** Config, model and servers for a session in `cwd`; rejects with SessionSetupError. */
  prepare(cwd: string): Promise<PreparedSession>;
  log: AcpLog;
}

export const LOGIN_METHOD_ID = 'login';

function setupFailure(e: unknown): never {
  if (e instanceof SessionSetupError) throw e.authRequired ? RequestError.authRequired(undefined, e.message) : RequestError.internalError(undefined, e.message);
  if (e instanceof SessionLockedError) throw RequestError.internalError(undefined, e.message);
  throw e;
}

function absoluteCwd(cwd: string): string {
  if (!isAbsolute(cwd)) throw RequestError.invalidParams(undefined, `cwd must be an absolute path, got "${cwd}"`);
  let folder = false;
  try {
    folder = statSync(cwd).isDirectory();
  } catch {
    // reported below
  }
  if (!folder) throw RequestError.invalidParams(undefined, `cwd ${cwd} is not a folder that exists`);
  return cwd;
}

export function acpAgentApp(env: AcpEnvironment): { app: AgentApp; closeAll(): Promise<void> } {
  const sessions = new Map<string, AcpSession>();
  let clientCapabilities: ClientCapabilities = {};

  const session = (id: string): AcpSession => {
    const found = sessions.get(id);
    if (!found) throw RequestError.sessionNotFound(id);
    return found;
  };

  const open = async (client: AgentContext, cwd: string, editorMcp: readonly McpServer[], resume?: SessionLocation): Promise<AcpSession> => {
    if (resume) {
      // Loading a session this connection already has open starts it again from its journal.
      await sessions.get(resume.sessionId)?.close();
      sessions.delete(resume.sessionId);
    }
    let opened: AcpSession;
    try {
      const prepared = await env.prepare(absoluteCwd(cwd));
      // The engine loads with the first session: initialize answers before it is read.
      const { AcpSession } = await import('./acpSession');
      opened = new AcpSession({ prepared, client, clientCapabilities, editorMcp, resume, version: env.version, log: env.log });
    } catch (e) {
      setupFailure(e);
    }
    sessions.set(opened.id, opened);
    // After the response that tells the editor the session id (so the update has a session to go to).
    setImmediate(() => opened.advertiseCommands(availableCommands(opened.plugins)));
    return opened;
  };

  const stored = (sessionId: string, cwd: string): SessionLocation => {
    const location = findSessionById(env.home, sessionId, absoluteCwd(cwd));
    if (!location || location.sessionId !== sessionId) throw RequestError.sessionNotFound(sessionId);
    return location;
  };

  const app = agent({ name: 'jarvis' })
    .onRequest('initialize', ({ params }) => {
      clientCapabilities = params.clientCapabilities ?? {};
      return {
        protocolVersion: PROTOCOL_VERSION,
        agentInfo: { name: 'jarvis', title: 'Jarvis Code CLI', version: env.version },
        agentCapabilities: {
          loadSession: true,
          promptCapabilities: { image: true, audio: false, embeddedContext: true },
          mcpCapabilities: { http: true, sse: true },
          sessionCapabilities: { list: {}, resume: {} },
        },
        authMethods: [{ id: LOGIN_METHOD_ID, name: 'Configured credentials', description: 'Uses the model and API key of ~/.jarvis-code/config.toml (or JARVIS_MODEL_* variables); run jarvis once in a terminal to set them up.' }],
      };
    })
    .onRequest('authenticate', async ({ params }) => {
      if (params.methodId !== LOGIN_METHOD_ID) throw RequestError.invalidParams(undefined, `unknown authentication method "${params.methodId}"; Jarvis offers "${LOGIN_METHOD_ID}"`);
      try {
        await env.prepare(process.cwd());
      } catch (e) {
        if (e instanceof SessionSetupError && e.authRequired) throw RequestError.authRequired(undefined, e.message);
        // Another problem (a broken config file) is reported when a session is created.
      }
      return {};
    })
    .onRequest('session/new', async ({ params, client }) => {
      const s = await open(client, params.cwd, params.mcpServers);
      return { sessionId: s.id, modes: s.modes(), configOptions: s.configOptions() };
    })
    .onRequest('session/load', async ({ params, client }) => {
      const s = await open(client, params.cwd, params.mcpServers, stored(params.sessionId, params.cwd));
      await s.replayHistory();
      return { modes: s.modes(), configOptions: s.configOptions() };
    })
    .onRequest('session/resume', async ({ params, client }) => {
      const s = await open(client, params.cwd, params.mcpServers ?? [], stored(params.sessionId, params.cwd));
      return { modes: s.modes(), configOptions: s.configOptions() };
    })
    .onRequest('session/list', ({ params }) => {
      const cwd = params.cwd ? absoluteCwd(params.cwd) : process.cwd();
      return {
        sessions: listSessions(env.home, cwd).map((s) => ({
          sessionId: s.sessionId,
          cwd: s.workDir,
          title: s.summary?.title ?? s.summary?.lastPrompt ?? null,
          updatedAt: new Date(s.updatedMs).toISOString(),
        })),
      };
    })
    .onRequest('session/prompt', ({ params }) => session(params.sessionId).prompt(params.prompt))
    .onNotification('session/cancel', ({ params }) => {
      sessions.get(params.sessionId)?.cancel();
    })
    .onRequest('session/set_mode', ({ params }) => {
      session(params.sessionId).setMode(params.modeId);
      return {};
    })
    .onRequest('session/set_config_option', ({ params }) => ({ configOptions: session(params.sessionId).setConfigOption(params.configId, params.value) }));

  return {
    app,
    async closeAll() {
      const all = [...sessions.values()];
      sessions.clear();
      await Promise.all(all.map((s) => s.close().catch((e: unknown) => env.log(`closing session ${s.id}: ${e instanceof Error ? e.message : String(e)}`))));
    },
  };
}
