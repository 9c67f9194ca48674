// Bundles the CLI into dist/jarvis.js. Heavy dependencies stay external and are loaded on first use
// through dynamic import(), so the start path only parses what it needs.
import { build } from 'esbuild';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

const result = await build({
  entryPoints: ['src/cli/main.ts'],
  outdir: 'dist',
  entryNames: 'jarvis',
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  splitting: true, // lazy import() of the program becomes its own chunk
  sourcemap: 'linked',
  minify: true, // less to parse on every start; the source map keeps stack traces readable
  loader: { '.md': 'text' },
  define: { __JARVIS_VERSION__: JSON.stringify(pkg.version) },
  // Native or very large packages are not bundled; everything else is, to keep start-up to one file read.
  external: ['sharp', '@vscode/ripgrep', '@mariozechner/pi-tui', 'cli-highlight', 'openai', '@anthropic-ai/sdk'],
  banner: { js: "import { createRequire as __jarvisCreateRequire } from 'node:module'; const require = __jarvisCreateRequire(import.meta.url);" },
  logLevel: 'warning',
  metafile: true,
});

// Chunk names carry content hashes: remove the chunks of earlier builds so dist/ holds one build.
const produced = new Set(Object.keys(result.metafile.outputs).map((p) => resolve(p)));
for (const name of readdirSync('dist/chunks')) {
  const path = resolve('dist/chunks', name);
  if (!produced.has(path)) rmSync(path);
}
