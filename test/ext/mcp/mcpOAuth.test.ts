// OAuth for remote MCP servers against a loopback authorization server guarding the real
// server-everything; the test plays the browser by following the sign-in address.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpManager } from '../../../src/ext/mcp/mcpManager';
import { loginMcpServer, mcpCredentialsPath, sessionAuthProvider } from '../../../src/ext/mcp/mcpOAuth';
import { cliEnv, collect, makeCliDirs, spawnJarvis } from '../../helpers/cli';
import { mcpEntry } from '../../helpers/mcpServers';
import { startOAuthMcpServer, type OAuthMcpFixture } from '../../helpers/oauthMcpServer';

let fixture: OAuthMcpFixture;
const home = mkdtempSync(join(tmpdir(), 'jarvis-oauth-'));
const clientInfo = { name: 'jarvis-test', version: '0.0.0' };
beforeAll(async () => {
  fixture = await startOAuthMcpServer();
});
afterAll(async () => {
  await fixture.close();
  rmSync(home, { recursive: true, force: true });
});

const remote = () => mcpEntry('secure', { transport: 'http', command: undefined, args: [], url: fixture.url });
const session = (entry = remote()) =>
  new McpManager([entry], { clientInfo, authProviderFor: (s) => sessionAuthProvider(home, s, 'Jarvis test') });
/** Plays the browser: follows the sign-in address to the loopback callback. */
const browser = (url: string) => void fetch(url).catch(() => {});

// One story: the login stores the tokens that the refresh and the other-URL cases then use, so the order is kept
// when the suite runs shuffled.
describe('MCP OAuth', { shuffle: false }, () => {
  it('before a login, the server is reported as needing one', async () => {
    const m = session();
    await m.start();
    expect(m.status()[0]).toMatchObject({
      state: 'failed',
      error: 'the server needs authorization: run `jarvis mcp login secure` (or /mcp-config login secure)',
    });
    await m.close();
  });

  it('login registers, signs in through the loopback callback, and stores tokens readable only by the user; sessions then connect', async () => {
    await loginMcpServer(remote(), { home, clientName: 'Jarvis test', timeoutMs: 30_000, openUrl: browser });
    const file = mcpCredentialsPath(home, 'secure');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8')).tokens.access_token).toMatch(/-/);
    const m = session();
    await m.start();
    expect(m.status()[0].state).toBe('ready');
    expect((await m.call('secure', 'echo', { message: 'authorized' })).content).toEqual([
      { type: 'text', text: 'Echo: authorized' },
    ]);
    await m.close();
  });

  it('an access token the server no longer accepts is refreshed with the refresh token', async () => {
    fixture.validTokens.clear();
    const m = session();
    await m.start();
    expect(m.status()[0].state).toBe('ready');
    await m.close();
  });

  it('credentials stored for another URL under the same name are not sent', async () => {
    const file = mcpCredentialsPath(home, 'secure');
    const stored = JSON.parse(readFileSync(file, 'utf8'));
    writeFileSync(file, JSON.stringify({ ...stored, url: 'http://127.0.0.1:9/elsewhere' }));
    const m = session();
    await m.start();
    expect(m.status()[0]).toMatchObject({ state: 'failed', error: expect.stringMatching(/needs authorization/) });
    await m.close();
  });

  it('jarvis mcp login prints the sign-in address and stores the tokens', async () => {
    const dirs = makeCliDirs();
    writeFileSync(join(dirs.home, 'mcp.json'), JSON.stringify({ mcpServers: { secure: { url: fixture.url } } }));
    const child = spawnJarvis(['mcp', 'login', 'secure'], {
      env: cliEnv(dirs, { JARVIS_NO_BROWSER: '1' }),
      cwd: dirs.cwd,
    });
    let seen = '';
    child.stderr!.on('data', (d: Buffer) => {
      seen += d.toString();
      const url = /https?:\/\/\S+\/authorize\S*/.exec(seen)?.[0];
      if (url && !seen.includes('(followed)')) {
        seen += '(followed)';
        browser(url);
      }
    });
    const r = await collect(child, 60_000);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Signed in to MCP server "secure"/);
    expect(statSync(join(dirs.home, 'credentials', 'mcp', 'secure.json')).mode & 0o777).toBe(0o600);
    rmSync(join(dirs.home, '..'), { recursive: true, force: true });
  });

  it('login to a stdio server is refused with a clear message', async () => {
    await expect(
      loginMcpServer(mcpEntry('local'), { home, clientName: 'x', timeoutMs: 1000, openUrl: browser }),
    ).rejects.toThrow(/runs locally \(stdio\); only remote servers use OAuth/);
  });
});
