// `jarvis acp`: the Agent Client Protocol (v1) agent an editor talks to over stdio (docs/acp.md).
// Each method maps onto the engine: sessions are SessionControl runtimes (AcpSession), sessions on
// disk are listed, loaded (with their history replayed) and resumed from the session store. Sessions
// share the connection's MCP servers; `session/close` ends one, and a session idle for
// JARVIS_ACP_IDLE_SESSION_MS is released and opened again from its journal on its next request.
import {
  agent,
  PROTOCOL_VERSION,
  RequestError,
  type AgentApp,
  type AgentContext,
  type ClientCapabilities,
  type McpServer,
} from '@agentclientprotocol/sdk';
import { statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { SessionLockedError } from '../store/sessionLock';
import { LinkInTheWayError } from '../store/privateFiles';
import { findSessionById, listSessions, type SessionLocation } from '../store/sessionStore';
import type { AcpLog } from './acpLog';
import type { AcpSession, PreparedSession } from './acpSession';
import type { AcpMcpPool } from './mcpPool';
import { availableCommands } from './slashCommands';

/** A session cannot be prepared in that folder; `authRequired` when no model credentials resolve. */
export class SessionSetupError extends Error {
  constructor(
    message: string,
    readonly authRequired: boolean,
  ) {
    super(message);
  }
}

export interface AcpEnvironment {
  version: string;
  home: string;
  /** Config, model and servers for a session in `cwd`; rejects with SessionSetupError. */
  prepare(cwd: string): Promise<PreparedSession>;
  log: AcpLog;
  /** How long a session may sit idle before it is released (default 30 min; 0: never). */
  idleSessionMs?: number;
}

export const DEFAULT_IDLE_SESSION_MS = 30 * 60_000;

/** JARVIS_ACP_IDLE_SESSION_MS, when it is a whole number of milliseconds; otherwise the default. */
export function idleSessionMsFrom(env: NodeJS.ProcessEnv): { ms: number; warning?: string } {
  const raw = env.JARVIS_ACP_IDLE_SESSION_MS;
  if (raw === undefined || raw === '') return { ms: DEFAULT_IDLE_SESSION_MS };
  const ms = Number(raw);
  if (Number.isInteger(ms) && ms >= 0 && ms <= 2_147_483_647) return { ms };
  const warning =
    `JARVIS_ACP_IDLE_SESSION_MS=${raw} is not a whole number of milliseconds (0–2147483647); ` +
    `using ${DEFAULT_IDLE_SESSION_MS}`;
  return { ms: DEFAULT_IDLE_SESSION_MS, warning };
}

interface Released {
  client: AgentContext;
  cwd: string;
  editorMcp: readonly McpServer[];
}

export const LOGIN_METHOD_ID = 'login';

function setupFailure(e: unknown): never {
  if (e instanceof SessionSetupError)
    throw e.authRequired
      ? RequestError.authRequired(undefined, e.message)
      : RequestError.internalError(undefined, e.message);
  if (e instanceof SessionLockedError || e instanceof LinkInTheWayError)
    throw RequestError.internalError(undefined, e.message);
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
  /** Sessions released as idle: opened again from their journal on their next request. */
  const released = new Map<string, Released>();
  const idleTimers = new Map<string, NodeJS.Timeout>();
  const idleMs = env.idleSessionMs ?? DEFAULT_IDLE_SESSION_MS;
  let pool: AcpMcpPool | undefined;
  let clientCapabilities: ClientCapabilities = {};

  const forget = (id: string) => {
    clearTimeout(idleTimers.get(id));
    idleTimers.delete(id);
  };

  /** (Re)starts the idle clock of a session; a turn in progress keeps it alive. */
  const touch = (s: AcpSession, origin: Released) => {
    forget(s.id);
    if (!idleMs) return;
    const timer = setTimeout(() => {
      if (s.busy) return touch(s, origin);
      if (sessions.get(s.id) !== s) return;
      sessions.delete(s.id);
      idleTimers.delete(s.id);
      released.set(s.id, origin);
      env.log(`session ${s.id} was idle for ${idleMs} ms and was released; its next request opens it again`);
      void s.close().catch((e: unknown) => {
        env.log(`closing idle session ${s.id}: ${e instanceof Error ? e.message : String(e)}`);
      });
    }, idleMs);
    timer.unref();
    idleTimers.set(s.id, timer);
  };

  const origins = new Map<string, Released>();
  const session = async (id: string): Promise<AcpSession> => {
    let found = sessions.get(id);
    const wasReleased = released.get(id);
    if (!found && wasReleased) {
      released.delete(id);
      found = await open(wasReleased.client, wasReleased.cwd, wasReleased.editorMcp, stored(id, wasReleased.cwd));
    }
    if (!found) throw RequestError.sessionNotFound(id);
    touch(found, origins.get(id)!);
    return found;
  };

  const open = async (
    client: AgentContext,
    cwd: string,
    editorMcp: readonly McpServer[],
    resume?: SessionLocation,
  ): Promise<AcpSession> => {
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
      pool ??= new (await import('./mcpPool')).AcpMcpPool();
      opened = new AcpSession({
        prepared,
        client,
        clientCapabilities,
        editorMcp,
        resume,
        version: env.version,
        log: env.log,
        mcpPool: pool,
      });
    } catch (e) {
      setupFailure(e);
    }
    sessions.set(opened.id, opened);
    released.delete(opened.id);
    const origin = { client, cwd, editorMcp };
    origins.set(opened.id, origin);
    touch(opened, origin);
    // After the response that tells the editor the session id (so the update has a session to go to).
    setImmediate(() => opened.advertiseCommands(availableCommands(opened.plugins, opened.skills)));
    // The MCP servers' prompts join the list once the servers have started.
    void opened.mcpPromptCommands().then((prompts) => {
      if (prompts.length) opened.advertiseCommands(availableCommands(opened.plugins, opened.skills, prompts));
    });
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
          sessionCapabilities: { list: {}, resume: {}, close: {} },
        },
        authMethods: [
          {
            id: LOGIN_METHOD_ID,
            name: 'Configured credentials',
            description:
              'Uses the model and API key of ~/.jarvis-code/config.toml (or JARVIS_MODEL_* variables); run jarvis once in a terminal to set them up.',
          },
        ],
      };
    })
    .onRequest('authenticate', async ({ params }) => {
      if (params.methodId !== LOGIN_METHOD_ID)
        throw RequestError.invalidParams(
          undefined,
          `unknown authentication method "${params.methodId}"; Jarvis offers "${LOGIN_METHOD_ID}"`,
        );
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
    .onRequest('session/prompt', async ({ params }) => {
      const s = await session(params.sessionId);
      try {
        return await s.prompt(params.prompt);
      } finally {
        if (sessions.get(s.id) === s) touch(s, origins.get(s.id)!);
      }
    })
    .onNotification('session/cancel', ({ params }) => {
      sessions.get(params.sessionId)?.cancel();
    })
    .onRequest('session/set_mode', async ({ params }) => {
      (await session(params.sessionId)).setMode(params.modeId);
      return {};
    })
    .onRequest('session/set_config_option', async ({ params }) => {
      const s = await session(params.sessionId);
      return { configOptions: s.setConfigOption(params.configId, params.value) };
    })
    .onRequest('session/close', async ({ params }) => {
      const s = sessions.get(params.sessionId);
      if (!s && !released.delete(params.sessionId)) throw RequestError.sessionNotFound(params.sessionId);
      forget(params.sessionId);
      origins.delete(params.sessionId);
      if (s) {
        sessions.delete(params.sessionId);
        s.cancel();
        await s.close();
      }
      return {};
    });

  return {
    app,
    async closeAll() {
      const all = [...sessions.values()];
      sessions.clear();
      for (const id of [...idleTimers.keys()]) forget(id);
      await Promise.all(
        all.map((s) =>
          s
            .close()
            .catch((e: unknown) => env.log(`closing session ${s.id}: ${e instanceof Error ? e.message : String(e)}`)),
        ),
      );
      await pool?.closeAll();
    },
  };
}
