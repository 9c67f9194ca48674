// `/remote` in the terminal UI (docs/remote.md): the session server (httpServer.ts) started inside the terminal's
// process, holding the terminal's live session — the same Runtime, through TuiSessionDriver — next to any other
// session a client opens in the folder. Approvals, questions and plan reviews wait in the terminal's panel and in
// the server's brokers at once (src/ui/remote/remoteBridge.ts); these are the server's halves of that.
import { realpathSync } from 'node:fs';
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import { initEvent } from '../engine/runtime/streamJson';
import type { RemoteLink, RemoteSettings, RemoteTarget } from '../ui/remote/remoteLink';
import { startServer } from './httpServer';
import { DEFAULT_PORT, isLoopback, listenOn } from './listen';
import { ServerSession } from './serverSession';
import { loadOrCreateToken, tokenPath } from './serverToken';
import { TuiSessionDriver } from './tuiSessionDriver';

/** How long an approval waits for a web client when nobody answers in the terminal either (as `jarvis serve`). */
const APPROVAL_EXPIRY_MS = 86_400_000;

export interface RemoteContext {
  home: string;
  env: NodeJS.ProcessEnv;
  version: string;
}

/** `/remote`'s settings refused before anything is bound (a message for the user). */
export class RemoteSettingsError extends Error {}

/** The settings checked as `jarvis serve` checks its flags: an IP address or localhost; not loopback needs a password. */
export function checkRemoteSettings(settings: { host: string; port: number; password?: string }): void {
  const { host, port, password } = settings;
  if (!isIP(host) && host !== 'localhost')
    throw new RemoteSettingsError(
      `--host ${host}: give an IP address (127.0.0.1, ::1, 0.0.0.0, a tailnet address) or localhost`,
    );
  if (!isLoopback(host) && !password)
    throw new RemoteSettingsError(
      `--host ${host} is reachable from other machines: set JARVIS_CODE_PASSWORD before starting jarvis, or keep 127.0.0.1 and use SSH forwarding (docs/remote.md)`,
    );
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new RemoteSettingsError(`--port ${port}: give a port number 0-65535 (0 picks a free one)`);
}

/**
 * The origin a phone uses for the login link: the bound address, or for a wildcard bind (0.0.0.0, ::) this
 * machine's first outside IPv4 address — the server's own URL says 127.0.0.1 there, which a phone cannot reach.
 */
function reachableOrigin(host: string, port: number, url: string): string {
  if (host !== '0.0.0.0' && host !== '::') return url;
  const outside = Object.values(networkInterfaces())
    .flat()
    .find((a) => a && a.family === 'IPv4' && !a.internal);
  return outside ? `http://${outside.address}:${port}` : url;
}

export async function startRemoteServer(
  target: RemoteTarget,
  asked: RemoteSettings,
  ctx: RemoteContext,
): Promise<RemoteLink> {
  const settings: Required<RemoteSettings> & { password?: string } = {
    host: asked.host ?? '127.0.0.1',
    port: asked.port ?? DEFAULT_PORT,
    password: ctx.env.JARVIS_CODE_PASSWORD || undefined,
  };
  checkRemoteSettings(settings);
  const { token } = loadOrCreateToken(ctx.home);
  const cwd = realpathSync(target.cwd);
  const server = await startServer(
    {
      host: settings.host,
      port: settings.port,
      home: ctx.home,
      env: ctx.env,
      roots: [cwd],
      allowHosts: [],
      token,
      password: settings.password,
      version: ctx.version,
      approvalExpiryMs: APPROVAL_EXPIRY_MS,
      warn: (text) => target.warn(text),
    },
    listenOn(settings.host, settings.port),
  );
  const rt = target.runtime;
  const driver = new TuiSessionDriver(target);
  const session = ServerSession.attach(
    rt.session.id,
    { cwd, epoch: server.epoch, approvalExpiryMs: APPROVAL_EXPIRY_MS, warn: (text) => target.warn(text) },
    {
      driver,
      // Read each time: the terminal's options change on /reload.
      base: {
        get plugins() {
          return target.base.plugins;
        },
        get rules() {
          return target.base.rules;
        },
      },
      mcp: target.mcp,
      early: [initEvent(rt.session.id, rt.agent.model.model, cwd)],
    },
  );
  driver.bind(session);
  server.registry.adopt(session);
  const loopbackOnly = isLoopback(settings.host);
  return {
    url: server.url,
    exposed: {
      address: `${settings.host.includes(':') ? `[${settings.host}]` : settings.host}:${server.port}`,
      loopbackOnly,
    },
    tokenFile: tokenPath(ctx.home),
    loginLink: () =>
      server.mintLoginLink().url.replace(server.url, reachableOrigin(settings.host, server.port, server.url)),
    get connections() {
      return server.connections;
    },
    onEngineEvent: (event) => driver.observe(event),
    approval: (request, signal) => {
      const { id, done } = session.approvals.open(request, signal);
      return { id, done: done.then((d) => ({ value: d.answer, clientId: d.clientId })) };
    },
    settleApproval: (id, answer) => session.approvals.settleFrom(id, answer, 'tui'),
    questions: (request, signal) => {
      const { id, done } = session.questions.openQuestions(request, signal);
      return { id, done: done.then((d) => ({ value: d.value, clientId: d.clientId })) };
    },
    settleQuestions: (id, response) =>
      session.questions.settleFrom(id, 'answers' in response ? { answers: response.answers } : 'dismiss', 'tui'),
    planReview: (request, signal) => {
      const { id, done } = session.questions.openPlanReview(request, signal);
      return { id, done: done.then((d) => ({ value: d.value, clientId: d.clientId })) };
    },
    settlePlanReview: (id, answer) =>
      session.questions.settleFrom(
        id,
        answer.decision === 'approve'
          ? { plan_decision: 'approve', ...(answer.option ? { option: answer.option } : {}) }
          : answer.decision === 'revise'
            ? { plan_decision: 'revise', feedback: answer.feedback }
            : { plan_decision: answer.decision },
        'tui',
      ),
    close: () => server.close(),
  };
}
