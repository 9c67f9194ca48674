// Browser start-up to the first get_tab_content (open_tab + get_tab_content through the tool runner,
// from a cold BrowserSession) against bare playwright-core doing launch + goto + page.content() on the
// same loopback page, in the same run. Usage: node bench/browser.bench.mjs [--runs N]
import { createServer } from 'node:http';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

const root = resolve(import.meta.dirname, '..');
const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 5;
const outDir = join(root, 'bench', 'results');
mkdirSync(outDir, { recursive: true });
const entry = join(outDir, 'browserEntry.mjs');
await build({
  entryPoints: [join(root, 'bench', 'browserEntry.ts')],
  outfile: entry,
  bundle: true,
  platform: 'node',
  format: 'esm',
  loader: { '.md': 'text' },
  external: ['playwright-core', 'sharp', '@vscode/ripgrep'],
  logLevel: 'warning',
});
const { toolsToFirstContent, bareToFirstContent } = await import(entry);

const html = `<!doctype html><html><head><title>Bench</title></head><body><main><h1>Bench page</h1>${'<div class="row"><p>Some text in a row of the page.</p></div>'.repeat(200)}</main></body></html>`;
const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(html));
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${server.address().port}/`;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const bare = [];
const tools = [];
await bareToFirstContent(url); // warm the file cache
for (let i = 0; i < runs; i++) {
  bare.push(await bareToFirstContent(url));
  tools.push(await toolsToFirstContent(url));
}
server.close();
console.log(`runs: ${runs} (medians, interleaved)`);
console.log(`playwright launch + goto + content (baseline): ${median(bare).toFixed(0)} ms`);
console.log(`open_tab + get_tab_content from a cold session: ${median(tools).toFixed(0)} ms`);
console.log(`ratio: ${(median(tools) / median(bare)).toFixed(2)}× the baseline`);
