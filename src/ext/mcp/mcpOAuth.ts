// OAuth for remote MCP servers (docs/mcp.md): `jarvis mcp login <server>` runs the authorization-code
// flow with PKCE through the official SDK — discovery, dynamic client registration, the sign-in page
// in the user's browser, the answer received on a loopback address — and stores the result in
// `$JARVIS_CODE_HOME/credentials/mcp/<server>.json` (mode 0600). Sessions then send the stored token
// and let the SDK refresh it; they never open a browser themselves.
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { McpServerConfig } from '../../store/mcpConfig';

type DiscoveryState = Awaited<ReturnType<NonNullable<OAuthClientProvider['discoveryState']>>>;

interface StoredCredentials {
  /** The server URL the credentials belong to; another URL under the same name starts afresh. */
  url: string;
  redirectUrl?: string;
  clientInformation?: OAuthClientInformationMixed;
  tokens?: OAuthTokens;
  codeVerifier?: string;
  discovery?: DiscoveryState;
}

export function mcpCredentialsPath(home: string, server: string): string {
  return join(home, 'credentials', 'mcp', `${server}.json`);
}

/** True when a login stored tokens for this server (and URL). */
export function hasMcpCredentials(home: string, server: McpServerConfig): boolean {
  return readCredentials(mcpCredentialsPath(home, server.name), server.url!)?.tokens !== undefined;
}

function readCredentials(file: string, url: string): StoredCredentials | undefined {
  try {
    const value = JSON.parse(readFileSync(file, 'utf8')) as StoredCredentials;
    return value.url === url ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The SDK's view of one server's stored credentials; every change is written at once. */
export class StoredOAuthProvider implements OAuthClientProvider {
  private data: StoredCredentials;
  /** Set when the SDK wanted to send the user to sign in (a session cannot: it needs `jarvis mcp login`). */
  authorizationUrl?: URL;

  constructor(
    private readonly file: string,
    url: string,
    private readonly clientName: string,
    private readonly onAuthorize?: (url: URL) => void,
    redirectUrl?: string,
  ) {
    this.data = readCredentials(file, url) ?? { url };
    if (redirectUrl) this.data.redirectUrl = redirectUrl;
  }

  get redirectUrl(): string | undefined {
    return this.data.redirectUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.clientName,
      redirect_uris: this.data.redirectUrl ? [this.data.redirectUrl] : [],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  clientInformation() {
    return this.data.clientInformation;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.save({ clientInformation: info });
  }
  tokens() {
    return this.data.tokens;
  }
  saveTokens(tokens: OAuthTokens) {
    this.save({ tokens });
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
    this.onAuthorize?.(url);
  }
  saveCodeVerifier(codeVerifier: string) {
    this.save({ codeVerifier });
  }
  codeVerifier() {
    if (!this.data.codeVerifier) throw new Error('no sign-in is in progress for this server (no PKCE verifier stored)');
    return this.data.codeVerifier;
  }
  saveDiscoveryState(state: DiscoveryState) {
    this.save({ discovery: state });
  }
  discoveryState() {
    return this.data.discovery;
  }
  /** The server no longer knows the client or the tokens: forget them so they are made again. */
  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery') {
    const d = { ...this.data };
    if (scope === 'all' || scope === 'client') delete d.clientInformation;
    if (scope === 'all' || scope === 'tokens') delete d.tokens;
    if (scope === 'all' || scope === 'verifier') delete d.codeVerifier;
    if (scope === 'all' || scope === 'discovery') delete d.discovery;
    this.data = d;
    this.write();
  }

  private save(change: Partial<StoredCredentials>): void {
    this.data = { ...this.data, ...change };
    this.write();
  }

  private write(): void {
    mkdirSync(join(this.file, '..'), { recursive: true, mode: 0o700 });
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(this.data, null, 2)}\n`, { mode: 0o600 });
    chmodSync(tmp, 0o600);
    renameSync(tmp, this.file);
  }
}

/** The provider a session uses: stored tokens only, or none when the server was never logged in to. */
export function sessionAuthProvider(
  home: string,
  server: McpServerConfig,
  clientName: string,
): StoredOAuthProvider | undefined {
  if (!server.url || !hasMcpCredentials(home, server)) return undefined;
  return new StoredOAuthProvider(mcpCredentialsPath(home, server.name), server.url, clientName);
}

export interface LoginOptions {
  home: string;
  clientName: string;
  /** Shows the sign-in address to the user (and opens a browser when one is available). */
  openUrl(url: string): void;
  /** How long to wait for the user to finish signing in. */
  timeoutMs: number;
}

/** Runs the sign-in for one http/sse server; resolves when tokens are stored, rejects with a clear error. */
export async function loginMcpServer(server: McpServerConfig, opts: LoginOptions): Promise<void> {
  if (server.transport === 'stdio' || !server.url)
    throw new Error(`MCP server "${server.name}" runs locally (stdio); only remote servers use OAuth.`);
  const { auth } = await import('@modelcontextprotocol/sdk/client/auth.js');
  const file = mcpCredentialsPath(opts.home, server.name);
  // A new loopback port every time: start from a clean registration that names it.
  if (existsSync(file)) rmSync(file);
  const callback = await listenForCallback();
  try {
    const provider = new StoredOAuthProvider(
      file,
      server.url,
      opts.clientName,
      (url) => opts.openUrl(url.toString()),
      callback.url,
    );
    const first = await auth(provider, { serverUrl: server.url });
    if (first === 'AUTHORIZED') return;
    const code = await callback.code(opts.timeoutMs);
    const second = await auth(provider, { serverUrl: server.url, authorizationCode: code });
    if (second !== 'AUTHORIZED')
      throw new Error('the authorization server did not issue tokens for the code it returned');
  } finally {
    callback.close();
  }
}

/** A one-shot HTTP listener on 127.0.0.1 for the authorization server's redirect. */
async function listenForCallback(): Promise<{ url: string; code(timeoutMs: number): Promise<string>; close(): void }> {
  let settle: { resolve(code: string): void; reject(e: Error): void } | undefined;
  let early: { code?: string; error?: string } | undefined;
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/callback') {
      res.writeHead(404).end();
      return;
    }
    const code = url.searchParams.get('code') ?? undefined;
    const error = url.searchParams.get('error') ?? undefined;
    const description = url.searchParams.get('error_description');
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
    res.end(
      code
        ? 'Signed in. You can close this page and return to Jarvis.\n'
        : `Sign-in failed: ${error ?? 'no code'}. Return to Jarvis for details.\n`,
    );
    const result = {
      code,
      error: code ? undefined : `${error ?? 'no authorization code'}${description ? ` (${description})` : ''}`,
    };
    if (!settle) early = result;
    else if (result.code) settle.resolve(result.code);
    else settle.reject(new Error(`the authorization server refused the sign-in: ${result.error}`));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/callback`,
    code: (timeoutMs) =>
      new Promise<string>((resolve, reject) => {
        if (early?.code) return resolve(early.code);
        if (early?.error) return reject(new Error(`the authorization server refused the sign-in: ${early.error}`));
        const timer = setTimeout(
          () => reject(new Error(`no sign-in arrived within ${Math.round(timeoutMs / 1000)} s; run the login again`)),
          timeoutMs,
        );
        settle = {
          resolve: (c) => (clearTimeout(timer), resolve(c)),
          reject: (e) => (clearTimeout(timer), reject(e)),
        };
      }),
    close: () => server.close(),
  };
}
