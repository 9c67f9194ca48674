// The jarvis-webbridge plugin (docs/plugins-official.md): its manifest's MCP server (`jarvis webbridge-mcp`,
// found on PATH as the manifest says) driven by the official MCP SDK client over stdio, attached over CDP
// to a Chromium the test starts with --remote-debugging-port on 127.0.0.1 — "the user's own browser".
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli';
import { startDebugChromium, type DebugChromium } from '../helpers/debugChromium';
import { serve, startFixtureServer, type FixtureServer } from '../helpers/fixtureServer';
import { requireSystemPart } from '../helpers/requireAll';

const hasChromium = requireSystemPart('chromium', 'WebBridge attaches to a real Chromium');
const MANIFEST = resolve(__dirname, '../../dist/plugins/jarvis-webbridge/jarvis.plugin.json');

let chrome: DebugChromium;
let site: FixtureServer;
beforeAll(async () => {
  if (!hasChromium) return;
  chrome = await startDebugChromium();
  site = await startFixtureServer({
    '/account.html': serve(
      '<html><head><title>My account</title></head><body><main><h1>Welcome back, Ana</h1><form><input id="q" name="q"><button id="go" type="button" onclick="document.getElementById(\'out\').textContent = \'searched \' + document.getElementById(\'q\').value">Go</button></form><p id="out"></p></main></body></html>',
      'text/html',
    ),
  });
});
afterAll(async () => {
  await site?.close();
  await chrome?.close();
});

/** The plugin's server as its manifest starts it: `jarvis` from PATH, in a project folder, with this home. */
async function connect(config: string): Promise<{ client: Client; stderr: () => string }> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'jarvis-webbridge-test-')));
  const home = join(root, 'home');
  const binDir = join(root, 'bin');
  mkdirSync(home, { recursive: true });
  mkdirSync(binDir, { recursive: true });
  symlinkSync(BIN, join(binDir, 'jarvis'));
  writeFileSync(join(home, 'config.toml'), config);
  const manifest = JSON.parse(readFileSync(MANIFEST, 'utf8')) as {
    name: string;
    mcpServers: Record<string, { command: string; args: string[] }>;
  };
  expect(manifest.name).toBe('jarvis-webbridge');
  const { command, args } = manifest.mcpServers.browser;
  const transport = new StdioClientTransport({
    command,
    args,
    cwd: root,
    env: { PATH: `${binDir}:${process.env.PATH ?? ''}`, HOME: home, JARVIS_CODE_HOME: home },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

const call = async (client: Client, name: string, args: Record<string, unknown>) => {
  const r = await client.callTool({ name, arguments: args });
  const text = (r.content as Array<{ text: string }>).map((c) => c.text).join('\n');
  return {
    isError: r.isError === true,
    text,
    json: (() => {
      try {
        return JSON.parse(text) as Record<string, unknown>;
      } catch {
        return {};
      }
    })(),
  };
};

describe.runIf(hasChromium)('jarvis-webbridge', { timeout: 120_000 }, () => {
  it("drives the running Chromium found at [browser] cdp_url: the user's tabs, loopback pages, page scripts; the browser outlives the server", async () => {
    const { client } = await connect(`[browser]\ncdp_url = "${chrome.url}"\n`);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual([
        'activate_tab',
        'close_tab',
        'execute_script',
        'get_tab_content',
        'list_tabs',
        'open_tab',
      ]);
      expect(tools.find((t) => t.name === 'get_tab_content')!.annotations?.readOnlyHint).toBe(true);
      expect(tools.find((t) => t.name === 'execute_script')!.annotations?.readOnlyHint).toBe(false);
      // The browser's own tab (about:blank, opened by the user) is there before the agent opens anything.
      const before = await call(client, 'list_tabs', {});
      expect(before.text).toContain('about:blank');
      const opened = await call(client, 'open_tab', { url: `${site.url}/account.html` });
      expect(opened.json).toMatchObject({ title: 'My account' });
      expect((await chrome.pages()).map((p) => p.url)).toContain(`${site.url}/account.html`);
      const read = await call(client, 'get_tab_content', { tab_id: opened.json.id });
      expect(read.json.content).toContain('Welcome back, Ana');
      const clicked = await call(client, 'execute_script', {
        target: 'page',
        tab_id: opened.json.id,
        code: 'document.querySelector("#q").value = "flights"; document.querySelector("#go").click(); return document.querySelector("#out").textContent',
      });
      expect(clicked.json).toMatchObject({ result: 'searched flights', target: 'page' });
      expect((await call(client, 'close_tab', { tab_id: opened.json.id })).json).toMatchObject({ success: true });
    } finally {
      await client.close();
    }
    // Closing the server disconnects; the user's browser keeps running with its own tab.
    expect(chrome.alive()).toBe(true);
    expect((await chrome.pages()).some((p) => p.url === 'about:blank')).toBe(true);
  });

  it('no browser listening at the address: the tool call says how to start one', async () => {
    const { client } = await connect('[browser]\ncdp_url = "http://127.0.0.1:9"\n');
    try {
      const r = await call(client, 'list_tabs', {});
      expect(r.isError).toBe(true);
      expect(r.text).toContain('Could not attach to the browser at http://127.0.0.1:9');
      expect(r.text).toContain('Start Chrome/Chromium with --remote-debugging-port');
    } finally {
      await client.close();
    }
  });
});
