// Bundles the CLI into dist/jarvis.js. Everything beyond the entry is reached through dynamic import(),
// so esbuild puts it in lazy chunks: the provider SDKs are bundled too (one file each to parse instead
// of a hundred module resolutions) but load only on the first model request. Native or self-locating
// packages (sharp, ripgrep) and the UI libraries stay in node_modules.
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
  minify: true, // less to parse on every start; debug with node --enable-source-maps bin/jarvis
  loader: { '.md': 'text' },
  define: { __JARVIS_VERSION__: JSON.stringify(pkg.version) },
  // sharp and ripgrep find their native binaries relative to their own package; the UI libraries load lazily.
  external: ['sharp', '@vscode/ripgrep', '@mariozechner/pi-tui', 'cli-highlight'],
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
