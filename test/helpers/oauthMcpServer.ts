// A loopback OAuth authorization server in front of the real server-everything (streamable HTTP, one
// stateless server per request): RFC 9728 resource metadata, RFC 8414 server metadata, dynamic client
// registration, an /authorize that signs the user in at once (the test plays the browser), a /token
// that checks the PKCE verifier and issues access + refresh tokens, and an /mcp that answers 401 with
// the resource-metadata pointer until a valid bearer token comes.
import { createHash, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
// @ts-expect-error the reference server ships JavaScript without type declarations
import { createServer as createEverything } from '@modelcontextprotocol/server-everything/dist/server/index.js';

export interface OAuthMcpFixture {
  url: string;
  /** Tokens issued so far; clearing them makes the next request unauthorized. */
  validTokens: Set<string>;
  registrations: number;
  close(): Promise<void>;
}

async function body(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startOAuthMcpServer(): Promise<OAuthMcpFixture> {
  const clients = new Map<string, string[]>();
  const codes = new Map<string, { challenge: string; clientId: string }>();
  const validTokens = new Set<string>();
  const refreshTokens = new Set<string>();
  const fixture = { validTokens, registrations: 0 } as OAuthMcpFixture;
  let base = '';
  const json = (res: import('node:http').ServerResponse, status: number, value: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
  };
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', base);
    if (url.pathname.startsWith('/.well-known/oauth-protected-resource')) {
      return json(res, 200, { resource: `${base}/mcp`, authorization_servers: [base] });
    }
    if (url.pathname === '/.well-known/oauth-authorization-server') {
      return json(res, 200, {
        issuer: base,
        authorization_endpoint: `${base}/authorize`,
        token_endpoint: `${base}/token`,
        registration_endpoint: `${base}/register`,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['none'],
      });
    }
    if (url.pathname === '/register' && req.method === 'POST') {
      const meta = JSON.parse(await body(req)) as { redirect_uris: string[] };
      const clientId = randomUUID();
      clients.set(clientId, meta.redirect_uris);
      fixture.registrations++;
      return json(res, 201, { ...meta, client_id: clientId, client_id_issued_at: Math.floor(Date.now() / 1000) });
    }
    if (url.pathname === '/authorize') {
      const clientId = url.searchParams.get('client_id') ?? '';
      const redirect = url.searchParams.get('redirect_uri') ?? '';
      if (!clients.get(clientId)?.includes(redirect))
        return json(res, 400, { error: 'invalid_request', error_description: 'unknown client or redirect_uri' });
      const code = randomUUID();
      codes.set(code, { challenge: url.searchParams.get('code_challenge') ?? '', clientId });
      const back = new URL(redirect);
      back.searchParams.set('code', code);
      const state = url.searchParams.get('state');
      if (state) back.searchParams.set('state', state);
      res.writeHead(302, { location: back.toString() }).end();
      return;
    }
    if (url.pathname === '/token' && req.method === 'POST') {
      const form = new URLSearchParams(await body(req));
      const issue = () => {
        const access = randomUUID();
        const refresh = randomUUID();
        validTokens.add(access);
        refreshTokens.add(refresh);
        return json(res, 200, { access_token: access, token_type: 'Bearer', expires_in: 3600, refresh_token: refresh });
      };
      if (form.get('grant_type') === 'authorization_code') {
        const entry = codes.get(form.get('code') ?? '');
        const verifier = form.get('code_verifier') ?? '';
        const challenge = createHash('sha256').update(verifier).digest('base64url');
        if (!entry || entry.challenge !== challenge || entry.clientId !== form.get('client_id'))
          return json(res, 400, { error: 'invalid_grant' });
        codes.delete(form.get('code')!);
        return issue();
      }
      if (form.get('grant_type') === 'refresh_token' && refreshTokens.has(form.get('refresh_token') ?? ''))
        return issue();
      return json(res, 400, { error: 'invalid_grant' });
    }
    if (url.pathname === '/mcp') {
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      if (!token || !validTokens.has(token)) {
        res
          .writeHead(401, {
            'www-authenticate': `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`,
          })
          .end();
        return;
      }
      if (req.method !== 'POST') {
        res.writeHead(405).end();
        return;
      }
      const { server: mcp } = createEverything();
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      res.on('close', () => void transport.close());
      await mcp.connect(transport);
      await transport.handleRequest(req, res, JSON.parse(await body(req)));
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  fixture.url = `${base}/mcp`;
  fixture.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fixture;
}
