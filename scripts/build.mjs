// Bundles the CLI into dist/jarvis.js. Heavy dependencies stay external and are loaded on first use
// through dynamic import(), so the start path only parses what it needs.
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

await build({
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
  loader: { '.md': 'text' },
  define: { __JARVIS_VERSION__: JSON.stringify(pkg.version) },
  // Native or very large packages are not bundled; everything else is, to keep start-up to one file read.
  external: ['sharp', '@vscode/ripgrep', '@mariozechner/pi-tui', 'cli-highlight', 'openai', '@anthropic-ai/sdk'],
  banner: { js: "import { createRequire as __jarvisCreateRequire } from 'node:module'; const require = __jarvisCreateRequire(import.meta.url);" },
  logLevel: 'warning',
});
