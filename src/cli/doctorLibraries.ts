// `jarvis doctor libraries`: loads every library the CLI imports lazily and uses each once, through the
// same code the tools use, so an installation (or a bundle, scripts/build.mjs) that cannot load one is
// named here instead of at the first tool call. docs/testing.md says why: a library that works from
// src/ can fail in the bundle. Optional parts that are missing (sharp, Chromium) are skipped with a reason.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parseCron } from '../engine/background/cronSchedule';
import { loadBashParser } from '../platform/bashSyntax';
import { BrowserSession, findChromium } from '../platform/browser/browserSession';
import { ImageSupportMissingError, imageInfo } from '../platform/images';
import { defaultRipgrep } from '../platform/ripgrep';
import { readZip, writeZip } from '../platform/zip';
import { defineJsonSchemaTool } from '../tools/jsonSchemaTool';
import { datasetCost } from '../llm/pricing';
import { loadHighlighter } from '../ui/markdown';

export type LibraryOutcome =
  { status: 'ok'; detail: string } | { status: 'skip'; reason: string } | { status: 'fail'; error: string };

export interface LibraryCheck {
  name: string;
  run(): Promise<LibraryOutcome>;
}

/** Thrown by a check when the library loaded but did not do what it should. */
class CheckFailed extends Error {}

function expect(condition: boolean, what: string): void {
  if (!condition) throw new CheckFailed(what);
}

const ARTICLE = `<!doctype html><html><head><title>Probe</title><script>var probe = 1;</script></head><body>
<nav>NAV-LINKS</nav><main><article><h1>Probe article</h1>
<p>This paragraph is long enough for Readability to take the article as the main content of the page,
which is what the FetchURL tool relies on when it turns a web page into Markdown for the model.</p>
<h2>Code</h2><pre><code class="language-sh">npm test</code></pre>
<p>A second paragraph, so that the scoring sees more than one block of prose inside the article element.</p>
</article></main><aside>BUY-NOW-AD</aside></body></html>`;

/** A 1×1 transparent PNG. */
const PIXEL_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

export const LIBRARY_CHECKS: LibraryCheck[] = [
  {
    name: 'HTML extraction (linkedom, @mozilla/readability, turndown)',
    async run() {
      const { htmlToMarkdown } = await import('../platform/web/htmlToMarkdown');
      const page = await htmlToMarkdown(ARTICLE);
      expect(page.method === 'readability', `the article was extracted by "${page.method}", not by Readability`);
      const { markdown } = page;
      expect(/^## Code$/m.test(markdown) && markdown.includes('```'), 'no heading or code fence in the Markdown');
      expect(!markdown.includes('NAV-LINKS') && !markdown.includes('BUY-NOW-AD'), 'navigation or ad text was kept');
      return { status: 'ok', detail: `Readability, ${page.markdown.length} characters of Markdown` };
    },
  },
  {
    name: 'JSON Schema validation (ajv, ajv-formats)',
    async run() {
      const tool = defineJsonSchemaTool({
        name: 'probe',
        description: 'probe',
        inputSchema: { type: 'object', properties: { day: { type: 'string', format: 'date' } }, required: ['day'] },
        readOnly: true,
        defaultApproval: 'auto',
        execute: () => Promise.resolve({ content: '' }),
      });
      // Ajv loads and the schema compiles on the first call (docs/mcp.md, "Lazy start").
      await tool.prepare?.();
      expect(tool.validateArgs!({ day: '2026-12-01' }).ok, 'a valid argument was refused');
      expect(!tool.validateArgs!({ day: 'tomorrow' }).ok, 'a date format violation was accepted');
      return { status: 'ok', detail: 'draft 2020-12 with formats' };
    },
  },
  {
    name: 'price dataset (@pydantic/genai-prices)',
    async run() {
      const model = { model: 'gpt-4o', baseUrl: 'https://api.openai.com/v1' };
      const { usd, problem } = await datasetCost(model, { inputTokens: 1_000_000, outputTokens: 0 });
      expect(problem === undefined, problem ?? '');
      expect(usd !== undefined && usd > 0, 'no price for gpt-4o on api.openai.com');
      return { status: 'ok', detail: `gpt-4o input at $${usd} per million tokens` };
    },
  },
  {
    name: 'zip (yazl, yauzl)',
    async run() {
      const dir = mkdtempSync(join(tmpdir(), 'jarvis-doctor-'));
      try {
        const file = join(dir, 'probe.zip');
        await writeZip(file, [{ name: 'a/b.txt', data: Buffer.from('zip probe') }]);
        const entries = await readZip(readFileSync(file));
        expect(entries.length === 1 && entries[0].name === 'a/b.txt', 'the archive read back differs');
        expect(entries[0].data.toString() === 'zip probe', 'the entry read back differs');
        return { status: 'ok', detail: 'written and read back' };
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  },
  {
    name: 'cron (croner)',
    run() {
      const schedule = parseCron('30 9 * * 1-5');
      expect(schedule.nextMatch(Date.now()) !== undefined, 'no next run time');
      return Promise.resolve({ status: 'ok', detail: schedule.humanSchedule });
    },
  },
  {
    name: 'Bash parser (web-tree-sitter, tree-sitter-bash WebAssembly)',
    async run() {
      const parser = await loadBashParser();
      const kind = parser.parse('ls | wc -l', (root) => root.firstChild?.type);
      expect(kind === 'pipeline', `"ls | wc -l" parsed as ${kind ?? 'nothing'}, not a pipeline`);
      return { status: 'ok', detail: 'parsed a pipeline' };
    },
  },
  {
    name: 'JS sandbox (quickjs-emscripten)',
    async run() {
      const { runInSandbox } = await import('../platform/sandbox/quickjsSandbox');
      const result = await runInSandbox('return 6 * 7', { timeoutMs: 20_000 });
      expect(result.json === '42', `6 * 7 gave ${result.json}`);
      return { status: 'ok', detail: 'evaluated a script in a worker' };
    },
  },
  {
    name: 'code highlighting (cli-highlight)',
    async run() {
      const highlight = await loadHighlighter();
      const out = highlight('const answer = 42;', { language: 'javascript', ignoreIllegals: true });
      expect(out.includes('answer') && out.includes('42'), `highlighting lost the code: ${JSON.stringify(out)}`);
      return { status: 'ok', detail: 'highlighted JavaScript' };
    },
  },
  {
    name: 'ripgrep (@vscode/ripgrep)',
    async run() {
      const rg = await defaultRipgrep();
      const { stdout } = await promisify(execFile)(rg.path, ['--version']);
      return { status: 'ok', detail: `${stdout.split('\n')[0]} (${rg.source})` };
    },
  },
  {
    name: 'images (sharp)',
    async run() {
      try {
        const info = await imageInfo(PIXEL_PNG);
        expect(info.width === 1 && info.format === 'png', `a 1×1 PNG read as ${info.width}px ${info.format}`);
        return { status: 'ok', detail: 'read a PNG' };
      } catch (e) {
        // sharp is an optional dependency (docs/distribution.md); only its absence is a skip.
        if (e instanceof ImageSupportMissingError) return { status: 'skip', reason: e.message };
        throw e;
      }
    },
  },
  {
    name: 'browser (playwright-core, Chromium)',
    async run() {
      const executable = findChromium();
      const reason = 'no Chromium on PATH (the browser tools need one; docs/browser.md)';
      if (!executable) return { status: 'skip', reason };
      const session = new BrowserSession({ executable });
      try {
        const page = await (await session.context()).newPage();
        await page.setContent('<title>probe</title><p id="p">browser probe</p>');
        const text = await page.textContent('#p');
        expect(text === 'browser probe', `the page read back ${JSON.stringify(text)}`);
        return { status: 'ok', detail: `headless ${executable}` };
      } finally {
        await session.close();
      }
    },
  },
];

/** Runs each check; a check that throws is a failure naming what failed, never a skip. */
export async function runLibraryChecks(
  checks: readonly LibraryCheck[] = LIBRARY_CHECKS,
): Promise<{ lines: string[]; ok: boolean }> {
  const lines: string[] = [];
  let ok = true;
  for (const check of checks) {
    let outcome: LibraryOutcome;
    try {
      outcome = await check.run();
    } catch (e) {
      outcome = { status: 'fail', error: e instanceof Error ? e.message : String(e) };
    }
    if (outcome.status === 'ok') lines.push(`ok    ${check.name}: ${outcome.detail}`);
    else if (outcome.status === 'skip') lines.push(`skip  ${check.name}: ${outcome.reason}`);
    else {
      ok = false;
      lines.push(`FAIL  ${check.name}: ${outcome.error}`);
    }
  }
  return { lines, ok };
}
