// `jarvis serve`'s HTTP server (docs/server.md): Node's http with `ws` for the WebSocket. Every request passes
// guard.ts first (Host, ban, plain path, Origin, credential); then the route table (routes.ts) with its schemas,
// the SSE stream, or /openapi.json. Replies use the envelope of envelope.ts.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { ValidateFunction } from 'ajv';
import { createJsonSchemaValidators, compileJsonSchema } from '../tools/jsonSchemaValidators';
import { ApiError, Codes, requestIdOf, sendEnvelope, sendJson, ulid } from './envelope';
import {
  allowedHostsFor,
  authenticate,
  BanList,
  BEARER_SUBPROTOCOL,
  checkHost,
  checkOrigin,
  plainPath,
  type GuardOptions,
} from './guard';
import { ROUTES, type Route, type RouteContext } from './routes';
import { openApiDocument } from './openapi';
import { EventHub, PROTOCOL_NAME, serveSse } from './eventStreams';
import { SessionRegistry } from './sessionRegistry';
import { StaticWeb } from './staticWeb';
import { WebLogin } from './webLogin';

const MAX_BODY = 1024 * 1024;

export interface ServeOptions {
  host: string;
  port: number;
  home: string;
  env: NodeJS.ProcessEnv;
  roots: string[];
  /** Extra Host names to answer to (a reverse proxy's), `--allow-host`. */
  allowHosts: string[];
  token: string;
  password?: string;
  version: string;
  approvalExpiryMs: number;
  warn(text: string): void;
}

interface CompiledRoute {
  route: Route;
  pattern: RegExp;
  names: string[];
  body?: ValidateFunction;
  query?: ValidateFunction;
}

function compilePattern(path: string): { pattern: RegExp; names: string[] } {
  const names: string[] = [];
  const source = path
    .split(/(\{\w+\})/)
    .map((part) => {
      const m = /^\{(\w+)\}$/.exec(part);
      if (!m) return part.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
      names.push(m[1]);
      return '([A-Za-z0-9_-]{1,128})';
    })
    .join('');
  return { pattern: new RegExp(`^${source}$`), names };
}

function issues(v: ValidateFunction): string {
  return (v.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}`).join('; ');
}

function readBody(req: IncomingMessage, limit = MAX_BODY): Promise<string> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        reject(new ApiError(Codes.validation, `the body is over ${limit} bytes`, 413));
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function queryOf(params: URLSearchParams, route: Route): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const [k, v] of params) {
    const schema = route.query?.[k];
    if (!schema) throw new ApiError(Codes.validation, `unknown query parameter ${k}`);
    if (schema.type === 'boolean') {
      if (v !== 'true' && v !== 'false') throw new ApiError(Codes.validation, `${k} must be true or false`);
      out[k] = v === 'true';
    } else if (schema.type === 'integer') {
      if (!/^-?\d{1,15}$/.test(v)) throw new ApiError(Codes.validation, `${k} must be a whole number`);
      out[k] = Number(v);
    } else out[k] = v;
  }
  return out;
}

export interface RunningServer {
  url: string;
  port: number;
  /** The server run's id, the `epoch` of its events. */
  epoch: string;
  /** Its sessions (`/remote` lends it the terminal UI's live one, docs/remote.md). */
  registry: SessionRegistry;
  /** WebSocket connections open now. */
  readonly connections: number;
  /** A one-time login link for the web UI (docs/web.md "Login"): `<url>/#login=<code>`, good once for 5 minutes. */
  mintLoginLink(): { url: string; expires_at: string };
  close(): Promise<void>;
}

async function jsonBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const text = await readBody(req);
  if (!/^application\/json\b/i.test(req.headers['content-type'] ?? ''))
    throw new ApiError(Codes.validation, 'send the body as application/json');
  try {
    const body = JSON.parse(text) as unknown;
    if (body && typeof body === 'object' && !Array.isArray(body)) return body as Record<string, unknown>;
  } catch {
    // answered below
  }
  throw new ApiError(Codes.validation, 'the body is not a JSON object');
}

export async function startServer(
  opts: ServeOptions,
  listen: (server: Server) => Promise<number>,
): Promise<RunningServer> {
  const validators = await createJsonSchemaValidators(true);
  const compiled: CompiledRoute[] = ROUTES.map((route) => ({
    route,
    ...compilePattern(route.path),
    body: route.body ? compileJsonSchema(route.body, validators) : undefined,
    query: route.query
      ? compileJsonSchema({ type: 'object', properties: route.query, additionalProperties: false }, validators)
      : undefined,
  }));
  const serverId = ulid();
  const startedAt = new Date().toISOString();
  const bans = new BanList();
  let guard: GuardOptions = { token: opts.token, password: opts.password, allowedHosts: new Set() };
  const events: { hub?: EventHub } = {};
  const registry = new SessionRegistry({
    home: opts.home,
    env: opts.env,
    roots: opts.roots,
    epoch: serverId,
    approvalExpiryMs: opts.approvalExpiryMs,
    warn: opts.warn,
    broadcast: (type, payload) => events.hub?.broadcast(type, payload),
  });
  const hub = new EventHub(registry, serverId);
  events.hub = hub;
  let boundPort = 0;
  let baseUrl = '';
  const login = new WebLogin(() => boundPort);
  const cookie = { value: (req: IncomingMessage) => login.cookieOf(req), valid: (v: string) => login.valid(v) };
  const web = new StaticWeb();
  const mintLoginLink = () => {
    const { code, expiresAt } = login.mintCode();
    return { url: `${baseUrl}/#login=${code}`, expires_at: new Date(expiresAt).toISOString() };
  };
  const meta = () => ({
    version: opts.version,
    server_id: serverId,
    started_at: startedAt,
    workspace_roots: opts.roots,
    protocol_version: 2,
    connections: hub.count,
    capabilities: {
      sessions: true,
      prompts: true,
      approvals: true,
      questions: true,
      tasks: true,
      sse: true,
      websocket: true,
    },
    features: ['providers, OAuth, terminals and file browsing are not served yet (docs/server.md)'],
  });

  const address = (req: IncomingMessage) => req.socket.remoteAddress ?? 'unknown';

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const requestId = requestIdOf(req.headers['x-request-id']);
    try {
      checkHost(req, guard.allowedHosts);
      bans.check(address(req));
      const { path, query } = plainPath(req.url ?? '/');
      const method = req.method ?? 'GET';
      if (web.handles(method, path)) return web.serve(res, path, method);
      // CORS stays closed: a preflight is answered without any Access-Control-Allow-* header.
      if (method === 'OPTIONS') {
        res.writeHead(204, { allow: 'GET, POST, OPTIONS' });
        return void res.end();
      }
      if (method === 'GET' && path === '/api/v1/healthz') return sendJson(res, 200, { ok: true });
      const changes = method !== 'GET' && method !== 'HEAD';
      checkOrigin(req, guard.allowedHosts, changes);
      if (method === 'POST' && path === '/api/v1/auth/session') {
        const body = await jsonBody(req);
        const code = body.code;
        const got = typeof code === 'string' && code.length <= 128 ? login.exchange(code) : undefined;
        if (!got) {
          bans.fail(address(req));
          throw new ApiError(Codes.unauthorized, 'this login link is used, expired or unknown; ask for a new one', 401);
        }
        res.setHeader('set-cookie', login.setCookie(got.secret));
        return sendEnvelope(res, requestId, Codes.ok, 'ok', { expires_at: new Date(got.expiresAt).toISOString() });
      }
      authenticate(req, guard, bans, address(req), cookie, changes);
      if (method === 'POST' && path === '/api/v1/auth/logout') {
        const secret = login.cookieOf(req);
        if (secret !== undefined) login.logout(secret);
        res.setHeader('set-cookie', login.clearCookie());
        return sendEnvelope(res, requestId, Codes.ok, 'ok', { logged_out: secret !== undefined });
      }
      if (method === 'POST' && path === '/api/v1/auth/links') {
        // A link is a credential maker: only the token (or password) may ask for one, never the cookie it leads to.
        if (!req.headers.authorization)
          throw new ApiError(Codes.unauthorized, 'login links are made with the token only', 403);
        return sendEnvelope(res, requestId, Codes.ok, 'ok', mintLoginLink());
      }
      if (method === 'GET' && path === '/openapi.json') return sendJson(res, 200, openApiDocument(opts.version));
      const sse = /^\/api\/v1\/sessions\/([0-9A-Z]{26})\/events$/.exec(path);
      if (method === 'GET' && sse) {
        for (const k of query.keys())
          if (k !== 'since_seq') throw new ApiError(Codes.validation, `unknown query parameter ${k}`);
        return await serveSse(req, res, registry, sse[1], query.get('since_seq'));
      }
      let match: { c: CompiledRoute; m: RegExpExecArray } | undefined;
      let pathKnown = false;
      for (const c of compiled) {
        const m = c.pattern.exec(path);
        if (!m) continue;
        pathKnown = true;
        if (c.route.method === method) {
          match = { c, m };
          break;
        }
      }
      if (!match) {
        const action = /:([A-Za-z_]+)$/.exec(path);
        if (action && !pathKnown) throw new ApiError(Codes.validation, `unsupported action: ${action[1]}`);
        throw new ApiError(
          Codes.route,
          pathKnown ? `${method} is not served on ${path}` : `no endpoint ${path}`,
          pathKnown ? 405 : 404,
        );
      }
      const { c, m } = match;
      const params: Record<string, string> = {};
      c.names.forEach((n, i) => (params[n] = m[i + 1]));
      const q = queryOf(query, c.route);
      if (c.query && !c.query(q)) throw new ApiError(Codes.validation, `query: ${issues(c.query)}`);
      let body: Record<string, unknown> = {};
      if (method === 'POST') {
        const type = req.headers['content-type'] ?? '';
        const text = await readBody(req, c.route.maxBody);
        if (text.trim()) {
          if (!/^application\/json\b/i.test(type))
            throw new ApiError(Codes.validation, 'send the body as application/json');
          try {
            body = JSON.parse(text) as Record<string, unknown>;
          } catch {
            throw new ApiError(Codes.validation, 'the body is not JSON');
          }
        }
        if (c.body && !c.body(body)) throw new ApiError(Codes.validation, `body: ${issues(c.body)}`);
      }
      const clientHeader = req.headers['x-client-id'];
      const clientId =
        typeof clientHeader === 'string' && /^[A-Za-z0-9_.:-]{1,64}$/.test(clientHeader)
          ? clientHeader
          : `http:${address(req)}`;
      const ctx: RouteContext = { params, query: q, body, clientId, registry, meta };
      const data = await c.route.handler(ctx);
      sendEnvelope(res, requestId, Codes.ok, 'ok', data ?? null);
    } catch (e) {
      if (res.headersSent) return void res.end();
      if (e instanceof ApiError) return sendEnvelope(res, requestId, e.code, e.message, e.data, e.httpStatus);
      opts.warn(`request ${requestId} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      sendEnvelope(
        res,
        requestId,
        Codes.internal,
        `internal error: ${e instanceof Error ? e.message : String(e)}`,
        null,
      );
    }
  }

  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_BODY,
    // A client that offers subprotocols must get one back (browsers drop the connection otherwise): `jarvis-code.v2`
    // when offered, else the bearer one it sent (its own token, back to itself on the same connection).
    handleProtocols: (protocols) => {
      if (protocols.has(PROTOCOL_NAME)) return PROTOCOL_NAME;
      for (const p of protocols) if (p.startsWith(BEARER_SUBPROTOCOL)) return p;
      return false;
    },
  });

  function upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const refuse = (status: number, code: number, msg: string) => {
      const body = JSON.stringify({ code, msg, data: null, request_id: ulid() });
      socket.end(
        `HTTP/1.1 ${status} ${status === 401 ? 'Unauthorized' : status === 429 ? 'Too Many Requests' : status === 403 ? 'Forbidden' : 'Bad Request'}\r\n` +
          `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
      );
    };
    try {
      checkHost(req, guard.allowedHosts);
      bans.check(address(req));
      const { path } = plainPath(req.url ?? '/');
      // A WebSocket from another site is refused outright: browsers let any page open one.
      checkOrigin(req, guard.allowedHosts, true);
      authenticate(req, guard, bans, address(req), cookie, true);
      if (path !== '/api/v1/ws') throw new ApiError(Codes.route, `no WebSocket at ${path}`, 404);
    } catch (e) {
      const err = e instanceof ApiError ? e : new ApiError(Codes.internal, String(e), 500);
      return refuse(err.httpStatus === 200 ? 400 : err.httpStatus, err.code, err.message);
    }
    wss.handleUpgrade(req, socket, head, (ws) => hub.accept(ws));
  }

  const server = createServer((req, res) => void handle(req, res));
  server.on('upgrade', upgrade);
  const port = await listen(server);
  boundPort = port;
  guard = { ...guard, allowedHosts: allowedHostsFor(opts.host, port, opts.allowHosts) };
  const shown = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
  baseUrl = `http://${shown === '0.0.0.0' ? '127.0.0.1' : shown === '[::]' ? '[::1]' : shown}:${port}`;
  return {
    url: baseUrl,
    port,
    epoch: serverId,
    registry,
    get connections() {
      return hub.count;
    },
    mintLoginLink,
    close: async () => {
      hub.closeAll();
      await registry.closeAll();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
