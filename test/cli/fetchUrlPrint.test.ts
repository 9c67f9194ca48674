// FetchURL end to end (docs/web-tools.md): `jarvis -p` from the built CLI, a mock model that fetches three
// loopback pages (a short news article under Readability's length thresholds, a long article, a docs
// page with code and a table), and the tool results the model receives: the article's Markdown, with
// none of the navigation, ads, banners, sidebars, footers or scripts around it.
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, makeCliDirs, mockModelEnv, runJarvis } from '../helpers/cli';
import { serve, startFixtureServer, type FixtureServer } from '../helpers/fixtureServer';
import { startMockModelServer, type MockModelServer, type RecordedRequest } from '../helpers/mockModelServer';

const FIXTURES = resolve(__dirname, '../fixtures/web');
const page = (name: string) => serve(readFileSync(join(FIXTURES, name)), 'text/html; charset=utf-8');
/** Text that only the chrome around the articles carries (the fixtures' nav, ads, scripts…). */
const CHROME = [
  'NAV-LINK-SOUP',
  'BUY-NOW-AD',
  'SPONSORED-AD',
  'COOKIE-BANNER',
  'SIDEBAR-RELATED',
  'FOOTER-TEXT',
  'TRACKING_SCRIPT',
  'AD-SCRIPT-OUTPUT',
  'Accept',
  'Most read',
  'Edit this page',
];

let model: MockModelServer;
let site: FixtureServer;
beforeAll(async () => {
  model = await startMockModelServer();
  site = await startFixtureServer({
    '/news/fox.html': page('short-article.html'),
    '/courier/ferry-diary.html': page('long-article.html'),
    '/docs/config.html': page('docs-page.html'),
  });
});
afterAll(async () => {
  await model.close();
  await site.close();
});

type WireMessage = { role: string; tool_call_id?: string; content: string | Array<{ type: string; text?: string }> };
function toolResult(req: RecordedRequest, id: string): string {
  const message = (req.body.messages as WireMessage[]).find((m) => m.role === 'tool' && m.tool_call_id === id);
  if (!message) throw new Error(`no tool result for ${id} in the request`);
  return typeof message.content === 'string' ? message.content : message.content.map((p) => p.text ?? '').join('');
}

describe('FetchURL through jarvis -p on a loopback site', () => {
  it("the model receives each page's article as Markdown without the page chrome", async () => {
    const dirs = makeCliDirs();
    writeFileSync(join(dirs.home, 'config.toml'), '[web]\nallow_private_network = true\n');
    model.push(
      {
        toolCalls: [
          { id: 'call_short', name: 'FetchURL', arguments: { url: `${site.url}/news/fox.html` } },
          { id: 'call_long', name: 'FetchURL', arguments: { url: `${site.url}/courier/ferry-diary.html` } },
          { id: 'call_docs', name: 'FetchURL', arguments: { url: `${site.url}/docs/config.html` } },
        ],
      },
      { text: 'Read all three.' },
    );
    const before = model.requests.length;
    const env = cliEnv(dirs, mockModelEnv(model.baseUrlFor('openai')));
    const r = await runJarvis(['-p', 'read these pages'], { env, cwd: dirs.cwd, timeoutMs: 60_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Read all three.');
    const answer = model.requests[before + 1];

    const short = toolResult(answer, 'call_short');
    expect(short).toBe(
      [
        'Title: Fox Facts — Daily Wildlife News',
        '',
        'The quick brown fox hunts at dusk, mostly voles and mice.',
        '',
        '## Where foxes live',
        '',
        'Foxes den in woods, fields and town gardens.',
      ].join('\n'),
    );

    const long = toolResult(answer, 'call_long');
    expect(long).toMatch(/^Title: A ferry diary of 160 years\n\nThe river town of Alder Ford has kept a weather diary/);
    expect(long).toMatch(/^## What the diary records$/m);
    expect(long).toMatch(/^### Numbers$/m);
    expect(long).toContain('> Every page was read by at least two volunteers.');
    const numbers = [
      '1. 1861: the first entry',
      '2. 1974: the flood that found the box',
      '3. 2023: the transcription finished',
    ];
    expect(long).toContain(numbers.join('\n'));
    expect(long).toMatch(/the week the ferry engine caught fire\.\n\n### Numbers/);

    const docs = toolResult(answer, 'call_docs');
    expect(docs).toMatch(/^Title: Configuration reference — tidewater 3\.2 docs\n\n/);
    expect(docs).toContain('tidewater reads `tidewater.toml` from the project root.');
    const example = [
      '## Example',
      '',
      '```toml',
      '[server]',
      'port = 8080',
      'workers = 4',
      '',
      '[cache]',
      'dir = ".tidewater/cache"',
      '```',
    ];
    expect(docs).toContain(example.join('\n'));
    expect(docs).toContain(
      [
        '| Key | Type | Default |',
        '| --- | --- | --- |',
        '| `server.port` | integer | 8080 |',
        '| `server.workers` | integer | number of cores |',
        '| `cache.dir` | string | .tidewater/cache |',
      ].join('\n'),
    );
    expect(docs).toContain('```sh\ntidewater check --config tidewater.toml\n```');
    expect(docs).toContain('**Note:** unknown keys are reported as warnings, not errors.');

    for (const text of [short, long, docs]) {
      for (const chrome of CHROME) expect(text).not.toContain(chrome);
      expect(text).not.toMatch(/<\/?[a-z]+[\s>]/);
    }
  });
});
