// The official plugins in a real session: installed with `jarvis plugin install` from their built folders,
// their MCP tools offered to the model (a loopback mock) and run by `jarvis -p`.
import { existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cliEnv, makeCliDirs, mockModelEnv, runJarvis } from '../helpers/cli';
import { startDebugChromium } from '../helpers/debugChromium';
import { serve, startFixtureServer, type FixtureServer } from '../helpers/fixtureServer';
import { startMockModelServer, type MockModelServer } from '../helpers/mockModelServer';
import { requireSystemPart } from '../helpers/requireAll';

const DIST_PLUGINS = resolve(__dirname, '../../dist/plugins');
const hasChromium = requireSystemPart('chromium', 'WebBridge attaches to a real Chromium');

let model: MockModelServer;
let images: FixtureServer;
let png: Buffer;
beforeAll(async () => {
  model = await startMockModelServer();
  png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#00ff00' } })
    .png()
    .toBuffer();
  images = await startFixtureServer({
    '/v1/images/generations': (_req, res) =>
      void res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ data: [{ b64_json: png.toString('base64') }] })),
  });
});
afterAll(async () => {
  await images.close();
  await model.close();
});

const toolResults = (i: number) =>
  (model.requests[i].body.messages as Array<{ role: string; content: string }>)
    .filter((m) => m.role === 'tool')
    .map((m) => m.content)
    .join('\n');

describe('official plugins in a session', { timeout: 120_000 }, () => {
  it('image_generation: installed, configured, its tool called by the model saves the image in the project', async () => {
    const dirs = makeCliDirs();
    const env = cliEnv(dirs, mockModelEnv(model.baseUrlFor('openai')));
    const install = await runJarvis(
      ['plugin', 'install', join(DIST_PLUGINS, 'image_generation'), '--tier', 'official'],
      { env, cwd: dirs.cwd },
    );
    expect(install.code).toBe(0);
    writeFileSync(
      join(dirs.home, 'config.toml'),
      `[services.image_generation]\nbase_url = "${images.url}/v1"\napi_key = "sk-x"\n`,
    );
    const tool = 'mcp__plugin-image_generation_images__generate_image';
    const before = model.requests.length;
    model.push(
      { toolCalls: [{ name: tool, arguments: { prompt: 'a green square', path: 'pics/green' } }] },
      { text: 'done' },
    );
    const r = await runJarvis(['-p', 'draw', '-y'], { env, cwd: dirs.cwd, timeoutMs: 60_000 });
    expect(r.code).toBe(0);
    // MCP tools may be deferred (offered through ToolSearch) next to the bundled plugin's; the trail shows it ran.
    expect(r.stderr).toContain(`• ${tool}`);
    expect(toolResults(before + 1)).toContain(`${join(dirs.cwd, 'pics', 'green.png')} (png, ${png.length} bytes)`);
    expect(readFileSync(join(dirs.cwd, 'pics', 'green.png'))).toEqual(png);
  });

  it.runIf(hasChromium)(
    "jarvis-webbridge: the model drives the user's running Chromium through the plugin",
    async () => {
      const chrome = await startDebugChromium();
      const site = await startFixtureServer({
        '/mail.html': serve(
          '<html><head><title>Mail</title></head><body><h1>2 new messages for Ana</h1></body></html>',
          'text/html',
        ),
      });
      try {
        const dirs = makeCliDirs();
        const binDir = join(dirs.home, 'bin');
        mkdirSync(binDir);
        symlinkSync(BIN, join(binDir, 'jarvis'));
        const env = cliEnv(dirs, {
          ...mockModelEnv(model.baseUrlFor('openai')),
          PATH: `${binDir}:${process.env.PATH ?? ''}`,
        });
        expect(
          (
            await runJarvis(['plugin', 'install', join(DIST_PLUGINS, 'jarvis-webbridge'), '--tier', 'official'], {
              env,
              cwd: dirs.cwd,
            })
          ).code,
        ).toBe(0);
        writeFileSync(join(dirs.home, 'config.toml'), `[browser]\ncdp_url = "${chrome.url}"\n`);
        const open = 'mcp__plugin-jarvis-webbridge_browser__open_tab';
        const before = model.requests.length;
        model.push(
          { toolCalls: [{ name: open, arguments: { url: `${site.url}/mail.html` } }] },
          { toolCalls: [{ name: 'mcp__plugin-jarvis-webbridge_browser__get_tab_content', arguments: { tab_id: 2 } }] },
          { text: 'done' },
        );
        const r = await runJarvis(['-p', 'read my mail', '-y'], { env, cwd: dirs.cwd, timeoutMs: 90_000 });
        expect(r.code).toBe(0);
        // Six MCP tools are deferred (offered through ToolSearch); the stderr trail shows they ran.
        expect(r.stderr).toContain(`• ${open}`);
        expect(toolResults(before + 2)).toContain('2 new messages for Ana');
        expect((await chrome.pages()).map((p) => p.url)).toContain(`${site.url}/mail.html`);
        expect(chrome.alive()).toBe(true);
        expect(existsSync(dirs.cwd) && readdirSync(dirs.cwd)).toEqual([]);
      } finally {
        await site.close();
        await chrome.close();
      }
    },
  );
});
