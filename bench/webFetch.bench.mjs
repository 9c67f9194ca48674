// FetchURL on a 1 MB article page against a baseline measured in the same run: a bare `fetch` +
// linkedom + Readability of the same page. Each variant runs in its own child process so peak RSS is
// its own. Usage: node bench/webFetch.bench.mjs [--runs N]
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

const root = resolve(import.meta.dirname, '..');
const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 9;
const outDir = join(root, 'bench', 'results');
mkdirSync(outDir, { recursive: true });
const entry = join(outDir, 'webFetchEntry.mjs');

if (process.argv[2] === '--child') {
  const [, , , variant, url, n] = process.argv;
  const { runVariant } = await import(entry);
  const result = await runVariant(variant, url, Number(n));
  process.stdout.write(JSON.stringify({ ...result, maxRssMiB: process.resourceUsage().maxRSS / 1024 }));
  process.exit(0);
}

await build({
  entryPoints: [join(root, 'bench', 'webFetchEntry.ts')],
  outfile: entry,
  bundle: true,
  platform: 'node',
  format: 'esm',
  loader: { '.md': 'text' },
  external: ['sharp', '@vscode/ripgrep'],
  banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
  logLevel: 'warning',
});

// A long article (≈1 MB): navigation, sidebars and scripts around a main column of sections.
const paragraph = (i) =>
  `<p>Paragraph ${i} explains one more step of the process in plain words, with <a href="/ref/${i}">a reference</a> and <code>code_${i}()</code> inline, long enough to look like real prose that a reader would skim.</p>`;
const sections = [];
for (let s = 0; sections.join('').length < 1_000_000; s++)
  sections.push(
    `<section><h2>Section ${s}</h2>${Array.from({ length: 8 }, (_, i) => paragraph(s * 8 + i)).join('')}<ul><li>point a</li><li>point b</li></ul></section>`,
  );
const page = `<!doctype html><html><head><title>Long article</title><script>${'var x=1;'.repeat(2000)}</script></head><body><nav>${'<a href="/">menu</a>'.repeat(200)}</nav><main><article><h1>Long article</h1>${sections.join('')}</article></main><aside>${'ad '.repeat(2000)}</aside></body></html>`;
const server = createServer((_req, res) =>
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page),
);
// Runs can take seconds each: keep the baseline's keep-alive connection open between them.
server.keepAliveTimeout = 120_000;
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${server.address().port}/article.html`;

// The fixture server runs in this process, so the children are awaited, never run synchronously.
const child = (variant) =>
  new Promise((res, rej) =>
    execFile(
      process.execPath,
      [import.meta.filename, '--child', variant, url, String(runs)],
      { encoding: 'utf8' },
      (e, out) => (e ? rej(e) : res(JSON.parse(out))),
    ),
  );
const baseline = await child('baseline');
const tool = await child('tool');
server.close();

const kb = (Buffer.byteLength(page) / 1024).toFixed(0);
console.log(`page: ${kb} KiB of HTML; runs: ${runs} (medians)`);
console.log(
  `fetch + Readability (baseline): ${baseline.medianMs.toFixed(1)} ms, peak RSS ${baseline.maxRssMiB.toFixed(0)} MiB`,
);
console.log(
  `FetchURL (tool runner):         ${tool.medianMs.toFixed(1)} ms, peak RSS ${tool.maxRssMiB.toFixed(0)} MiB, ${tool.chars} characters out`,
);
console.log(
  `ratio: time ${(tool.medianMs / baseline.medianMs).toFixed(2)}×, RSS ${(tool.maxRssMiB / baseline.maxRssMiB).toFixed(2)}× the baseline`,
);
