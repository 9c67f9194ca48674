// An MCP server's prompts and resources in the interactive UI, against the real `@modelcontextprotocol/server-everything`
// (docs/mcp.md "Prompts and resources"): the `/` menu lists `/mcp__everything__args-prompt` with its arguments and
// description, and picking it and giving the city sends the prompt the server returns; `@` completes the server's
// resources as `@everything:<uri>` and the picked one's text goes with the prompt in a tagged part; a binary resource
// is not attached and the notice says what it is.
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EVERYTHING_BIN } from '../helpers/mcpServers';
import { lastUserText } from '../helpers/modelRequests';
import { requireSystemPart } from '../helpers/requireAll';
import { appsClosedAfterEach, launch, send, tempDir, waitForRequests, type Launched } from './e2eHarness';

const hasTmux = requireSystemPart('tmux', 'the terminal UI is tested inside tmux');
const start = appsClosedAfterEach();

const ARCHITECTURE = 'everything:demo://resource/static/document/architecture.md';

/**
 * Types `text` into the empty input until the completion popup shows `expected`: the servers' offer is listed in the
 * background once they have started, and the popup asks again at each key, so the last key is typed again while the
 * listing has not ended (up to 30 s).
 */
async function typeUntilOffered(app: Launched, text: string, expected: string): Promise<string> {
  app.tmux.type(text);
  for (let attempt = 1; ; attempt++) {
    try {
      return await app.tmux.waitFor(expected, { timeoutMs: 3_000 });
    } catch (e) {
      if (attempt === 10) throw e;
      app.tmux.keys('BSpace');
      app.tmux.type(text.slice(-1));
    }
  }
}

/** Presses Enter once the input shows `line` (keys typed while the menu filtered are in), then waits for `answer`. */
async function sendShown(app: Launched, line: string, answer: string, requests: number): Promise<void> {
  await app.tmux.waitFor(line);
  app.tmux.keys('Enter');
  await app.tmux.waitFor(answer, { timeoutMs: 30_000 });
  await waitForRequests(app, requests);
}

describe.skipIf(!hasTmux)('MCP prompts and resources in the interactive UI (tmux)', { timeout: 120_000 }, () => {
  it('lists the prompts in the / menu and runs a picked one; attaches a resource picked after @', async () => {
    const home = tempDir('jarvis-ui-mcp-offer-');
    const everything = { command: process.execPath, args: [EVERYTHING_BIN, 'stdio'] };
    writeFileSync(join(home, 'mcp.json'), JSON.stringify({ mcpServers: { everything } }));
    const app = await start({
      home,
      turns: [{ text: 'Sunny in Paris.' }, { text: 'Read the architecture.' }, { text: 'Nothing attached.' }],
    });
    // The / menu: the prompt with its arguments (`<city>` required, `[state]` optional) and description.
    const menu = await typeUntilOffered(app, '/mcp__everything__arg', '/mcp__everything__args-prompt');
    expect(menu).toMatch(/\/mcp__everything__args-prompt\s+<city> \[state\] — /);
    app.tmux.keys('Tab');
    await app.tmux.waitForGone('<city> [state]');
    app.tmux.type(' Paris');
    await sendShown(app, '/mcp__everything__args-prompt Paris', 'Sunny in Paris.', 1);
    expect(lastUserText(app.server.requests[0])).toContain("What's weather in Paris?");

    // `@`: the server's resources complete as `@everything:<uri>`; the picked one is attached.
    const popup = await typeUntilOffered(
      app,
      'summarise @everything:demo://resource/static/document/arch',
      ARCHITECTURE,
    );
    expect(popup).toContain(ARCHITECTURE);
    app.tmux.keys('Tab');
    await app.tmux.waitFor(`summarise @${ARCHITECTURE}`);
    app.tmux.type('please');
    await sendShown(app, `@${ARCHITECTURE} please`, 'Read the architecture.', 2);
    const sent = lastUserText(app.server.requests[1]);
    expect(sent).toContain(`<attached-resource path="${ARCHITECTURE}" label="text/markdown, `);
    expect(sent).toContain('Everything Server');
    expect(app.tmux.all()).toMatch(
      /\[@everything:demo:\/\/resource\/static\/document\/architecture\.md text\/markdown, \d+ lines\]/,
    );

    // A binary resource is not attached; the notice says what it is and the prompt goes as text.
    send(app, 'look at @everything:demo://resource/dynamic/blob/3');
    await app.tmux.waitFor('Nothing attached.', { timeoutMs: 30_000 });
    await waitForRequests(app, 3);
    expect(lastUserText(app.server.requests[2])).toBe('look at @everything:demo://resource/dynamic/blob/3');
    expect(app.tmux.all().replace(/\s+/g, ' ')).toMatch(
      /@everything:demo:\/\/resource\/dynamic\/blob\/3 was not attached: .* is binary content/,
    );
  });

  it('a lazy server (its tools from the cache) is started when the input asks for its prompts, and they are listed', async () => {
    const home = tempDir('jarvis-ui-mcp-lazy-');
    const everything = { command: process.execPath, args: [EVERYTHING_BIN, 'stdio'] };
    writeFileSync(join(home, 'mcp.json'), JSON.stringify({ mcpServers: { everything } }));
    // A first session lists the server's tools, which caches them (docs/mcp.md "Lazy start").
    const first = await launch({ home });
    try {
      const cache = join(home, 'cache', 'mcp-tools');
      const deadline = Date.now() + 30_000;
      while (!(existsSync(cache) && readdirSync(cache).length)) {
        if (Date.now() > deadline) throw new Error(`no tool listing was cached under ${cache}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    } finally {
      await first.cleanup();
    }
    const app = await start({ home, turns: [{ text: 'Cloudy in Oslo.' }] });
    send(app, '/mcp');
    await app.tmux.waitFor(/everything\s+lazy/, { timeoutMs: 30_000 });
    app.tmux.keys('Escape');
    await app.tmux.waitForGone('MCP servers');
    await typeUntilOffered(app, '/mcp__everything__arg', '/mcp__everything__args-prompt');
    app.tmux.keys('C-u');
    app.tmux.type('/mcp__everything__args-prompt Oslo');
    await sendShown(app, '/mcp__everything__args-prompt Oslo', 'Cloudy in Oslo.', 1);
    expect(lastUserText(app.server.requests[0])).toContain("What's weather in Oslo?");
  });
});
