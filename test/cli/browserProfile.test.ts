import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockModelServer, type MockModelServer } from '../helpers/mockModelServer';
import { cliEnv, makeCliDirs, mockModelEnv, runJarvis } from '../helpers/cli';
import { startDebugChromium } from '../helpers/debugChromium';
import { serve, startFixtureServer } from '../helpers/fixtureServer';
import { requireSystemPart } from '../helpers/requireAll';

const hasChromium = requireSystemPart('chromium', '--browser-cdp attaches to a real Chromium');

let server: MockModelServer;
beforeAll(async () => {
  server = await startMockModelServer();
});
afterAll(async () => {
  await server.close();
});

const toolNames = (i: number) =>
  (server.requests[i].body.tools as Array<{ function: { name: string } }>).map((t) => t.function.name);

describe('the browser profile from the command line', () => {
  it('--agent browser offers the browser tool set (and no coding tools); opfs_write lands in the workspace', async () => {
    const dirs = makeCliDirs();
    const before = server.requests.length;
    server.push(
      { toolCalls: [{ name: 'opfs_write', arguments: { path: '/notes/a.txt', content: 'hello' } }] },
      { text: 'done' },
    );
    const r = await runJarvis(['-p', 'save a note', '--agent', 'browser'], {
      env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))),
      cwd: dirs.cwd,
    });
    expect(r.stderr).toContain('Wrote notes/a.txt');
    expect(r.code).toBe(0);
    // The bundled jarvis-documents plugin's MCP tools (deferred, hence ToolSearch) come on top.
    expect(
      toolNames(before)
        .filter((n) => !n.startsWith('mcp__') && n !== 'ToolSearch')
        .sort(),
    ).toEqual([
      'activate_tab',
      'agent',
      'close_tab',
      'create_task',
      'execute_script',
      'get_tab_content',
      'list_tabs',
      'list_tasks',
      'open_tab',
      'opfs_delete',
      'opfs_list',
      'opfs_read',
      'opfs_write',
      'update_task',
      'web_fetch',
      'web_search',
    ]);
    expect(readFileSync(join(dirs.home, 'workspace', 'notes', 'a.txt'), 'utf8')).toBe('hello');
  });

  it('--continue keeps the browser agent (its tools and prompt) without repeating --agent browser', async () => {
    const dirs = makeCliDirs();
    const env = cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai')));
    const first = server.requests.length;
    server.push({ text: 'one' });
    expect((await runJarvis(['-p', 'first', '--agent', 'browser'], { env, cwd: dirs.cwd })).code).toBe(0);
    const resumed = server.requests.length;
    server.push({ text: 'two' });
    const r = await runJarvis(['-p', 'second', '--continue'], { env, cwd: dirs.cwd });
    expect(r.code).toBe(0);
    expect(toolNames(resumed).sort()).toEqual(toolNames(first).sort());
    expect(toolNames(resumed)).toContain('opfs_write');
    expect(toolNames(resumed)).not.toContain('Bash');
    const system = (i: number) =>
      (server.requests[i].body.messages as Array<{ role: string; content: string }>)[0].content;
    expect(system(resumed)).toBe(system(first));
    expect(system(resumed)).toContain('works on the web');
  });

  it('--browser-cdp and --headed: bad input is refused before anything starts', async () => {
    const dirs = makeCliDirs();
    const env = cliEnv(dirs, { ...mockModelEnv(server.baseUrlFor('openai')), DISPLAY: '', WAYLAND_DISPLAY: '' });
    const bad = await runJarvis(['-p', 'x', '--browser-cdp', 'localhost:9222'], { env, cwd: dirs.cwd });
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('--browser-cdp "localhost:9222" is not a browser debugging URL');
    const headless = await runJarvis(['-p', 'x', '--browser', '--headed'], { env, cwd: dirs.cwd });
    expect(headless.code).not.toBe(0);
    expect(headless.stderr).toContain(
      '--headed: a visible browser needs a display, and neither DISPLAY nor WAYLAND_DISPLAY is set',
    );
    const both = await runJarvis(['-p', 'x', '--browser-cdp', 'http://127.0.0.1:9', '--headed'], {
      env,
      cwd: dirs.cwd,
    });
    expect(both.stderr).toContain('Use one of them');
  });

  it.runIf(hasChromium)(
    '--browser-cdp attaches to a running Chromium: tabs open in it, loopback allowed there, and it keeps running after',
    { timeout: 90_000 },
    async () => {
      const chrome = await startDebugChromium();
      const site = await startFixtureServer({
        '/inbox.html': serve(
          '<html><head><title>Inbox</title></head><body><main><h1>Signed in as Ana</h1><p>3 unread</p></main></body></html>',
          'text/html',
        ),
      });
      try {
        const dirs = makeCliDirs();
        const env = cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai')));
        const before = server.requests.length;
        server.push(
          { toolCalls: [{ name: 'open_tab', arguments: { url: `${site.url}/inbox.html` } }] },
          { toolCalls: [{ name: 'list_tabs', arguments: {} }] },
          { text: 'done' },
        );
        const r = await runJarvis(['-p', 'check my inbox', '--browser-cdp', chrome.url, '-y'], {
          env,
          cwd: dirs.cwd,
          timeoutMs: 60_000,
        });
        expect(r.code).toBe(0);
        const toolText = (i: number) =>
          (server.requests[i].body.messages as Array<{ role: string; content: string }>)
            .filter((m) => m.role === 'tool')
            .map((m) => m.content)
            .join('\n');
        // The user's browser, not a managed one: its own first tab is listed, and loopback pages load
        // (the address rules guard only the managed browser).
        expect(toolText(before + 1)).toContain('"title": "Inbox"');
        expect(toolText(before + 2)).toContain('about:blank');
        expect((await chrome.pages()).map((p) => p.url)).toContain(`${site.url}/inbox.html`);
        expect(chrome.alive()).toBe(true);
      } finally {
        await site.close();
        await chrome.close();
      }
    },
  );

  it('--browser adds the page tools to the default agent; without it there are none', async () => {
    const dirs = makeCliDirs();
    const env = cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai')));
    let before = server.requests.length;
    server.push({ text: 'ok' });
    expect((await runJarvis(['-p', 'hi', '--browser'], { env, cwd: dirs.cwd })).code).toBe(0);
    const withBrowser = toolNames(before);
    expect(withBrowser).toEqual(
      expect.arrayContaining(['Read', 'Bash', 'list_tabs', 'open_tab', 'get_tab_content', 'execute_script']),
    );
    expect(withBrowser).not.toContain('opfs_write');
    before = server.requests.length;
    server.push({ text: 'ok' });
    expect((await runJarvis(['-p', 'hi'], { env, cwd: dirs.cwd })).code).toBe(0);
    expect(toolNames(before)).not.toContain('list_tabs');
  });
});
