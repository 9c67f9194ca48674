// Network settings end to end, through the built binary: the User-Agent version, JARVIS_CODE_CUSTOM_HEADERS
// and the proxy variables. The model lives at a made-up host (model.example.test) that only the loopback
// forward proxy knows how to reach, so whether a request went through the proxy is plain to see.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cliEnv, makeCliDirs, mockModelEnv, runJarvis } from '../helpers/cli';
import { useProxiedMockServer } from '../helpers/forwardProxy';

const VERSION: string = JSON.parse(readFileSync('package.json', 'utf8')).version;
const FAKE_BASE_URL = 'http://model.example.test/v1';
const PROXY_VARS = [
  'HTTP_PROXY',
  'http_proxy',
  'HTTPS_PROXY',
  'https_proxy',
  'ALL_PROXY',
  'all_proxy',
  'NO_PROXY',
  'no_proxy',
];

const fixture = useProxiedMockServer();

/** The CLI environment with none of the caller's proxy settings, plus the test's. */
function env(dirs: ReturnType<typeof makeCliDirs>, extra: Record<string, string>): NodeJS.ProcessEnv {
  const base = cliEnv(dirs);
  for (const name of PROXY_VARS) delete base[name];
  return { ...base, ...extra };
}

describe('network settings (e2e)', () => {
  it('requests carry jarvis-code/<version> and the JARVIS_CODE_CUSTOM_HEADERS, whose Authorization replaces the key', async () => {
    const dirs = makeCliDirs();
    fixture.server().push({ text: 'hello' });
    const r = await runJarvis(['-p', 'hi'], {
      env: env(dirs, {
        ...mockModelEnv(fixture.server().baseUrlFor('openai')),
        JARVIS_CODE_CUSTOM_HEADERS: 'X-Gateway-Team:  platform \nnot a header\nAuthorization: Bearer gateway-token',
      }),
      cwd: dirs.cwd,
    });
    expect(r.stderr).not.toMatch(/error/i);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('• hello\n');
    const { headers } = fixture.server().requests.at(-1)!;
    expect(headers['user-agent']).toBe(`jarvis-code/${VERSION}`);
    expect(headers['x-gateway-team']).toBe('platform');
    expect(headers.authorization).toBe('Bearer gateway-token');
    expect(JSON.stringify(headers)).not.toContain('test-key');
  });

  it('HTTP_PROXY carries the model request for a non-loopback host', async () => {
    const dirs = makeCliDirs();
    fixture.server().push({ text: 'via the proxy' });
    const r = await runJarvis(['-p', 'hi'], {
      env: env(dirs, { ...mockModelEnv(FAKE_BASE_URL), HTTP_PROXY: fixture.proxy().url }),
      cwd: dirs.cwd,
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('• via the proxy\n');
    expect(fixture.proxy().requests.map((q) => `${q.method} ${q.url}`)).toEqual([
      'POST http://model.example.test/v1/chat/completions',
    ]);
    expect(fixture.server().requests).toHaveLength(1);
    expect(fixture.server().requests[0].headers.host).toBe('model.example.test');
  });

  // NO_PROXY is covered by the unit tests of the proxy choice (test/llm/network.test.ts): a direct
  // request to a non-loopback host would need a DNS lookup, and tests never reach past 127.0.0.1.

  it('a loopback base URL goes direct even with HTTP_PROXY and ALL_PROXY set', async () => {
    const dirs = makeCliDirs();
    fixture.server().push({ text: 'direct' });
    const r = await runJarvis(['-p', 'hi'], {
      env: env(dirs, {
        ...mockModelEnv(fixture.server().baseUrlFor('openai')),
        HTTP_PROXY: fixture.proxy().url,
        ALL_PROXY: fixture.proxy().url,
      }),
      cwd: dirs.cwd,
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('• direct\n');
    expect(fixture.server().requests).toHaveLength(1);
    expect(fixture.proxy().requests).toEqual([]);
  });

  it('a SOCKS proxy fails the first request with a clear error instead of being ignored', async () => {
    const dirs = makeCliDirs();
    const r = await runJarvis(['-p', 'hi'], {
      env: env(dirs, { ...mockModelEnv(FAKE_BASE_URL), ALL_PROXY: 'socks5://127.0.0.1:1080' }),
      cwd: dirs.cwd,
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('SOCKS proxies are not supported yet; use an HTTP proxy or unset ALL_PROXY');
    expect(fixture.proxy().requests).toEqual([]);
  });

  it('an invalid proxy URL fails with an error naming the variable', async () => {
    const dirs = makeCliDirs();
    const r = await runJarvis(['-p', 'hi'], {
      env: env(dirs, { ...mockModelEnv(FAKE_BASE_URL), https_proxy: 'x', http_proxy: 'http://[broken' }),
      cwd: dirs.cwd,
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('http_proxy is not a valid proxy URL');
  });
});
