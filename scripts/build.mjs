// Bundles the CLI into dist/jarvis.js. Everything beyond the entry is reached through dynamic import(),
// so esbuild puts it in lazy chunks: the provider SDKs are bundled too (one file each to parse instead
// of a hundred module resolutions) but load only on the first model request.
//
// What is bundled and what is installed follows package.json (see docs/distribution.md): a package in
// `dependencies` stays external and is installed with the package (self-locating ones: ripgrep); one in
// `peerDependencies` (sharp, optional and not installed by default) stays external too and is found
// where the user installed it; everything else the code imports comes from `devDependencies`
// and is bundled here, so a user's install carries neither it nor its install scripts. pi-tui asks for
// koffi only on Windows (to tell Shift+Tab from Tab) and copes without it, so koffi stays out.
import { build } from 'esbuild';
import { spawn } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { gzipSync } from 'node:zlib';
import yazl from 'yazl';
import { buildWeb } from './buildWeb.mjs';
import { mergeStartChunks } from './startChunk.mjs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

// zod's namespace object carries every message locale it has (`z.locales`, some 60 languages). Jarvis writes
// its own error messages and never switches zod's language, so only the English one (zod's default) is bundled:
// the zod chunk every start loads is 193 KiB instead of 444 KiB.
const zodLocalesEnglishOnly = {
  name: 'zod-locales-english-only',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(`${join('node_modules', 'zod')}`)
        ? { path: args.importer, namespace: 'zod-locales' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(join(dirname(args.path), '../locales/en.js'))};`,
      loader: 'js',
      resolveDir: dirname(args.path),
    }));
  },
};

const requireBanner =
  "import { createRequire as __jarvisCreateRequire } from 'node:module'; const require = __jarvisCreateRequire(import.meta.url);";

// Two entries share the lazy chunks: the CLI (dist/jarvis.js) and the SDK (dist/sdk.js, `jarvis-code/sdk`; its types
// are src/sdk/api.ts, copied below as dist/sdk.d.ts — docs/sdk.md).
const result = await build({
  entryPoints: { jarvis: 'src/cli/main.ts', sdk: 'src/sdk/index.ts', startLoader: 'src/cli/startLoader.ts' },
  outdir: 'dist',
  entryNames: '[name]',
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  splitting: true, // lazy import() of the program becomes its own chunk
  sourcemap: 'linked',
  sourcesContent: false, // stack traces still map to file:line; the sources themselves are not shipped
  minify: true, // less to parse on every start; debug with node --enable-source-maps bin/jarvis
  loader: { '.md': 'text' },
  define: { __JARVIS_VERSION__: JSON.stringify(pkg.version) },
  external: [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {}), 'koffi'],
  banner: { js: requireBanner },
  plugins: [zodLocalesEnglishOnly],
  logLevel: 'warning',
  write: false,
  metafile: true, // read by the start chunk step below
});

// Each file is written beside its place and renamed over it, so a jarvis (or a test) running from dist/
// during a rebuild reads either the old file or the new one, never a half-written one.
const produced = new Set();
for (const file of result.outputFiles) {
  produced.add(file.path);
  mkdirSync(dirname(file.path), { recursive: true });
  const temporary = `${file.path}.${process.pid}.tmp`;
  writeFileSync(temporary, file.contents);
  renameSync(temporary, file.path);
}
{
  const temporary = `dist/sdk.d.ts.${process.pid}.tmp`;
  copyFileSync('src/sdk/api.ts', temporary);
  renameSync(temporary, 'dist/sdk.d.ts');
}
// The Bash parser (src/platform/bashSyntax.ts) is bundled; the WebAssembly it loads is data, copied
// beside the bundle so an installed package needs neither web-tree-sitter nor tree-sitter-bash.
const resolvePackage = createRequire(import.meta.url).resolve;
mkdirSync('dist/wasm', { recursive: true });
for (const wasm of ['web-tree-sitter/tree-sitter.wasm', 'tree-sitter-bash/tree-sitter-bash.wasm']) {
  const from = resolvePackage(wasm);
  const temporary = `dist/wasm/${basename(from)}.${process.pid}.tmp`;
  copyFileSync(from, temporary);
  renameSync(temporary, `dist/wasm/${basename(from)}`);
}

// The web UI (docs/web.md), served by `jarvis serve` / `jarvis web` from dist/web.
await buildWeb();

// What `jarvis -p` loads before its first request becomes one file (scripts/startChunk.mjs).
for (const path of await mergeStartChunks({ metafile: result.metafile, root: process.cwd() })) produced.add(path);

// Chunk names carry content hashes: remove the chunks of earlier builds so dist/ holds one build.
for (const name of readdirSync('dist/chunks')) {
  const path = resolve('dist/chunks', name);
  if (!produced.has(path)) rmSync(path);
}

// The bundled official plugins (docs/plugins-official.md). A plugin runs from its managed copy under
// $JARVIS_CODE_HOME/plugins/managed/, where the CLI's node_modules cannot be resolved, so its MCP server
// (src/plugins/<id>/server.ts, when there is one) becomes one self-contained bundle with every library
// inside. The manifest and the `copy` folders are copied as they are; `extra(stage)` adds files of its
// own. The folder is staged and swapped in whole, so a running server (or a test) never sees half a
// plugin.
//
// With `compress`, the bundle is stored gzipped (bin/server.mjs.gz) behind a small bin/server.mjs that
// inflates and imports it (a data: module, which may import only node: builtins — a self-contained
// bundle imports nothing else): a quarter of the size on disk, which keeps the installed package
// within its bound (test/package/packInstall.test.ts), for about 30 ms at server start.
const PLUGIN_BANNER =
  "#!/usr/bin/env node\nimport { createRequire as __jarvisCreateRequire } from 'node:module'; const require = __jarvisCreateRequire(process.env.JARVIS_PLUGIN_BIN_DIR ? process.env.JARVIS_PLUGIN_BIN_DIR + '/server.mjs' : import.meta.url);";
const INFLATING_SERVER = `#!/usr/bin/env node
// Inflates the gzipped server bundle beside this file and runs it (scripts/build.mjs, buildPlugin).
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
process.env.JARVIS_PLUGIN_BIN_DIR = dirname(fileURLToPath(import.meta.url));
const code = gunzipSync(readFileSync(new URL('./server.mjs.gz', import.meta.url)));
await import(\`data:text/javascript;base64,\${code.toString('base64')}\`);
`;

// With `listing` (and `compress`), bin/server.mjs is instead the launcher of scripts/pluginLauncher.mjs:
// it answers the handshake and tools/list from bin/listing.json, recorded here from the built server, and
// loads the server itself on the first other request. Only for servers whose tool list is fixed.
async function recordListing(bundle, binDir) {
  const file = join(tmpdir(), `jarvis-plugin-listing-${process.pid}.mjs`);
  writeFileSync(file, bundle);
  try {
    const child = spawn(process.execPath, [file], {
      env: { ...process.env, JARVIS_PLUGIN_BIN_DIR: resolve(binDir) },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const answers = new Map();
    const done = new Promise((resolveDone, reject) => {
      child.on('exit', (code) => reject(new Error(`the plugin server exited (${code}) before listing its tools`)));
      createInterface({ input: child.stdout }).on('line', (line) => {
        const message = JSON.parse(line);
        answers.set(message.id, message);
        if (answers.has(2)) resolveDone();
      });
    });
    const ask = (id, method, params) =>
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    ask(1, 'initialize', {
      protocolVersion: LATEST_PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: 'jarvis-build', version: '0' },
    });
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    ask(2, 'tools/list', {});
    await done;
    child.kill();
    const init = answers.get(1).result;
    return {
      protocolVersions: SUPPORTED_PROTOCOL_VERSIONS,
      capabilities: init.capabilities,
      serverInfo: init.serverInfo,
      instructions: init.instructions,
      tools: answers.get(2).result.tools,
    };
  } finally {
    rmSync(file, { force: true });
  }
}

async function buildPlugin(id, { copy = [], extra, compress = false, listing = false } = {}) {
  const root = `dist/plugins/${id}`;
  const source = `src/plugins/${id}`;
  const stage = `${root}.${process.pid}.tmp`;
  rmSync(stage, { recursive: true, force: true });
  mkdirSync(`${stage}/bin`, { recursive: true });
  if (existsSync(`${source}/server.ts`)) {
    const server = await build({
      entryPoints: [`${source}/server.ts`],
      outfile: `${stage}/bin/server.mjs`,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      minify: true,
      legalComments: 'none',
      loader: { '.md': 'text' },
      banner: { js: PLUGIN_BANNER },
      logLevel: 'warning',
      write: false,
    });
    const bundle = server.outputFiles[0].contents;
    if (compress && listing) {
      writeFileSync(`${stage}/bin/server.mjs.gz`, gzipSync(bundle, { level: 9 }));
      writeFileSync(`${stage}/bin/listing.json`, JSON.stringify(await recordListing(bundle, `${stage}/bin`)));
      copyFileSync('scripts/pluginLauncher.mjs', `${stage}/bin/server.mjs`);
      chmodSync(`${stage}/bin/server.mjs`, 0o755);
    } else if (compress) {
      writeFileSync(`${stage}/bin/server.mjs.gz`, gzipSync(bundle, { level: 9 }));
      writeFileSync(`${stage}/bin/server.mjs`, INFLATING_SERVER, { mode: 0o755 });
    } else {
      writeFileSync(`${stage}/bin/server.mjs`, bundle, { mode: 0o755 });
    }
  }
  cpSync(`${source}/jarvis.plugin.json`, `${stage}/jarvis.plugin.json`);
  for (const folder of copy) cpSync(`${source}/${folder}`, `${stage}/${folder}`, { recursive: true });
  await extra?.(stage);
  rmSync(root, { recursive: true, force: true });
  renameSync(stage, root);
}

// jarvis-documents renders PDF pages with pdf.js inside Chromium; the renderer reads these two files
// (gzipped, like the server) from beside the server and loads them into the page as data.
function copyPdfjs(stage) {
  mkdirSync(`${stage}/bin/pdfjs`, { recursive: true });
  for (const name of ['pdf.min.mjs', 'pdf.worker.min.mjs']) {
    writeFileSync(
      `${stage}/bin/pdfjs/${name}.gz`,
      gzipSync(readFileSync(resolvePackage(`pdfjs-dist/build/${name}`)), { level: 9 }),
    );
  }
  copyFileSync(resolvePackage('pdfjs-dist/LICENSE'), `${stage}/bin/pdfjs/LICENSE`);
}

// extension.zip beside extension/: the same files, with a fixed date so the zip is the same on every build.
async function zipExtension(stage) {
  const zip = new yazl.ZipFile();
  for (const name of readdirSync(`${stage}/extension`).sort())
    zip.addBuffer(readFileSync(`${stage}/extension/${name}`), name, { mtime: new Date('2026-01-01T00:00:00Z') });
  zip.end();
  const chunks = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk);
  writeFileSync(`${stage}/extension.zip`, Buffer.concat(chunks));
}

await buildPlugin('jarvis-documents', { copy: ['skills'], extra: copyPdfjs, compress: true, listing: true });
await buildPlugin('image_generation', { compress: true });
// Its tool list is fixed, so its launcher answers the handshake and tools/list without loading the server.
await buildPlugin('jarvis-computer-use', { compress: true, listing: true });
await buildPlugin('audio_generation', { compress: true });
// The manifest and the browser extension (unpacked, and zipped for users who prefer a file); its MCP server is
// the CLI itself (`jarvis webbridge-mcp`), which carries playwright-core and the extension's WebSocket server.
await buildPlugin('jarvis-webbridge', { copy: ['extension'], extra: zipExtension });
