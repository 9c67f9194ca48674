// /openapi.json, generated from the route table the server validates with (routes.ts), so it cannot drift
// (docs/server.md "Endpoints"). OpenAPI 3.1: its schemas are JSON Schema 2020-12, as the route table's are.
import { EVENT_SCHEMAS } from './eventSchemas';
import { ROUTES, type JsonSchema } from './routes';

const envelope = (data: JsonSchema = {}): JsonSchema => ({
  type: 'object',
  required: ['code', 'msg', 'data', 'request_id'],
  properties: { code: { type: 'integer' }, msg: { type: 'string' }, data, request_id: { type: 'string' } },
});

/** The fixed endpoints outside the route table (health, the event streams, this document). */
const FIXED: Record<string, Record<string, unknown>> = {
  '/api/v1/healthz': {
    get: {
      summary: 'liveness; needs no token',
      operationId: 'healthz',
      security: [],
      tags: ['server'],
      responses: { '200': { description: 'alive', content: { 'application/json': { schema: { type: 'object' } } } } },
    },
  },
  '/api/v1/ws': {
    get: {
      summary: 'WebSocket event stream (docs/server.md "WebSocket"); token as subprotocol jarvis-code.bearer.<token>',
      operationId: 'websocket',
      tags: ['events'],
      responses: { '101': { description: 'switching protocols' } },
    },
  },
  '/api/v1/sessions/{id}/events': {
    get: {
      summary: 'server-sent events of one session; since_seq or Last-Event-ID catch up (docs/server.md "SSE")',
      operationId: 'sessionEvents',
      tags: ['events'],
      parameters: [
        { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
        { name: 'since_seq', in: 'query', required: false, schema: { type: 'integer', minimum: 0 } },
      ],
      responses: {
        '200': { description: 'event stream', content: { 'text/event-stream': { schema: { type: 'string' } } } },
      },
    },
  },
  // The web UI's login (docs/web.md "Login").
  '/api/v1/auth/session': {
    post: {
      summary: 'trade a one-time login code for the web UI cookie (jarvis_web_<port>, HttpOnly, SameSite=Strict)',
      operationId: 'postAuthSession',
      security: [],
      tags: ['auth'],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: { type: 'object', required: ['code'], properties: { code: { type: 'string', maxLength: 128 } } },
          },
        },
      },
      responses: {
        '200': { description: 'logged in; Set-Cookie', content: { 'application/json': { schema: envelope() } } },
        '401': { description: 'a used, expired or unknown code' },
      },
    },
  },
  '/api/v1/auth/logout': {
    post: {
      summary: "end the web UI cookie's secret",
      operationId: 'postAuthLogout',
      tags: ['auth'],
      responses: { '200': { description: 'logged out', content: { 'application/json': { schema: envelope() } } } },
    },
  },
  '/api/v1/auth/links': {
    post: {
      summary: 'a one-time login link for the web UI (the token or password only, never the cookie)',
      operationId: 'postAuthLinks',
      tags: ['auth'],
      responses: {
        '200': {
          description: '{ url, expires_at }',
          content: {
            'application/json': {
              schema: envelope({
                type: 'object',
                properties: { url: { type: 'string' }, expires_at: { type: 'string' } },
              }),
            },
          },
        },
      },
    },
  },
  '/openapi.json': {
    get: {
      summary: 'this document',
      operationId: 'openapi',
      tags: ['server'],
      responses: {
        '200': { description: 'OpenAPI 3.1', content: { 'application/json': { schema: { type: 'object' } } } },
      },
    },
  },
};

function operationId(method: string, path: string): string {
  const words = path
    .replace('/api/v1/', '')
    .split(/[/:{}]+/)
    .filter(Boolean)
    .map((w, i) => (i === 0 ? w : w[0].toUpperCase() + w.slice(1)));
  return method.toLowerCase() + words.map((w) => w[0].toUpperCase() + w.slice(1)).join('');
}

export function openApiDocument(version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = { ...FIXED };
  for (const r of ROUTES) {
    const params = [...r.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
      name: m[1],
      in: 'path',
      required: true,
      schema: { type: 'string' },
    }));
    const query = Object.entries(r.query ?? {}).map(([name, schema]) => ({
      name,
      in: 'query',
      required: false,
      schema,
    }));
    const op: Record<string, unknown> = {
      summary: r.summary,
      operationId: operationId(r.method, r.path),
      tags: [r.tag],
      ...(params.length || query.length ? { parameters: [...params, ...query] } : {}),
      ...(r.body ? { requestBody: { required: true, content: { 'application/json': { schema: r.body } } } } : {}),
      responses: {
        '200': {
          description: 'the envelope; code 0 on success, an error code otherwise',
          content: { 'application/json': { schema: envelope() } },
        },
        '401': { description: 'no or wrong token (40101)' },
        '429': { description: 'this address is banned for 60 s after 10 failed logins (42901)' },
      },
    };
    paths[r.path] = { ...(paths[r.path] ?? {}), [r.method.toLowerCase()]: op };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Jarvis Code session API (experimental)', version },
    servers: [{ url: '/' }],
    security: [{ bearer: [] }, { password: [] }],
    components: {
      // The payloads of the live events (docs/server.md "Live events"), as `event.<type>`.
      schemas: Object.fromEntries(Object.entries(EVENT_SCHEMAS).map(([type, schema]) => [`event.${type}`, schema])),
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'the token `jarvis serve` prints (server.token)' },
        password: { type: 'http', scheme: 'basic', description: 'JARVIS_CODE_PASSWORD as the password' },
      },
    },
    paths,
  };
}
