// The start chunk (docs/FEATURES.md, "Start-up time against Codex"; docs/distribution.md). esbuild's code splitting
// leaves the modules every `jarvis -p` loads before its first model request in some 90 small chunks joined by some 550
// imports, and Node 20 resolves, reads and links each of them separately: on a warm home that bookkeeping cost about
// a sixth of the CPU before the first request. This step bundles those chunks again into one file, and leaves in
// place of each a one-line module re-exporting its names from it, so every other chunk (the interactive UI, ACP, the
// SDK, the provider SDKs) still finds what it imported and each module still exists once.
//
// Node 20 has no compile cache for ES modules either, so the merged code is written as a CommonJS module exporting
// one function that holds it (dist/chunks/start-<hash>.cjs), which src/cli/startLoader.ts compiles with a V8 code
// cache; start-<hash>.js is the ES module the re-exports point at, which runs it and exports its names. Inside the body `import.meta.url` is the
// chunk's URL, and `import()` is spelt `__jimp()` (the same length, so the source map still fits), a function the
// wrapper passes in: code compiled by `vm` may not call `import()` itself without an experimental flag.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

/**
 * The modules the print path loads before the first request (each the target of a dynamic import() in
 * src/cli/main.ts, src/cli/program.ts and the session start): their chunks and every chunk they import statically
 * make the start chunk. Of the provider SDKs only OpenAI's is in it, with its two adapters (the `openai`,
 * `openai_responses` and OpenAI-compatible providers): measured with the cache, it saves a session using it ~9 ms of
 * CPU before the first request and costs an Anthropic session ~6 ms; the other SDKs load when a session uses them.
 */
export const START_PATH_MODULES = [
  'src/cli/program.ts',
  'src/cli/printCommand.ts',
  'src/ext/plugins/sessionPlugins.ts',
  'node_modules/openai/index.mjs',
  'src/llm/openaiChat.ts',
  'src/llm/openaiResponses.ts',
];

/** The chunks (absolute paths) of `START_PATH_MODULES` and their static imports, from esbuild's metafile. */
function startChunks(metafile, root) {
  const outputs = metafile.outputs;
  const pending = Object.keys(outputs).filter((out) => START_PATH_MODULES.includes(outputs[out].entryPoint));
  if (pending.length !== START_PATH_MODULES.length) {
    const found = pending.map((out) => outputs[out].entryPoint);
    const missing = START_PATH_MODULES.filter((m) => !found.includes(m));
    throw new Error(`start chunk: no chunk of ${missing.join(', ')} (is it still imported dynamically?)`);
  }
  const chunks = new Set();
  while (pending.length) {
    const out = pending.pop();
    if (chunks.has(out)) continue;
    chunks.add(out);
    for (const imported of outputs[out].imports)
      if (imported.kind === 'import-statement' && !imported.external) pending.push(imported.path);
  }
  return new Map([...chunks].map((out) => [resolve(root, out), outputs[out].exports]));
}

/** An export name of a merged chunk, as the start chunk exports it: unique across chunks, a valid identifier. */
const mergedName = (index, name) => `c${index}_${name}`;

/** A call of `import()` in the merged code, and what stands for it (src/cli/startLoader.ts, PARAMETERS). */
const DYNAMIC_IMPORT = /(?<![\w$.])import\(/g;
const IMPORT_STAND_IN = '__jimp(';

/**
 * Bundles the start chunks (already written under `root`/dist/chunks) into one, then replaces each by its re-export
 * module. Returns the paths written, for the build's clean-up.
 */
export async function mergeStartChunks({ metafile, root }) {
  const chunks = startChunks(metafile, root);
  const dir = join(root, 'dist', 'chunks');
  const order = [...chunks.keys()];
  const entry = order
    .map((path, i) => {
      const names = chunks.get(path).map((name) => `${name} as ${mergedName(i, name)}`);
      return `export { ${names.join(', ')} } from ${JSON.stringify(`./${basename(path)}`)};`;
    })
    .join('\n');
  const result = await build({
    stdin: { contents: entry, resolveDir: dir, sourcefile: 'start-entry.js', loader: 'js' },
    outfile: join(dir, 'start.cjs'),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    minify: true,
    sourcemap: 'linked',
    sourcesContent: false,
    // Each merged chunk keeps its own `require` (the first build's banner), made from this URL.
    define: { 'import.meta.url': '__jarvisStartUrl' },
    // The parameters are src/cli/startLoader.ts's StartChunkCode; esbuild's source map counts the banner's line.
    banner: { js: 'module.exports = function (exports, require, module, __jarvisStartUrl, __jimp) {' },
    footer: { js: '};' },
    logLevel: 'error',
    write: false,
    plugins: [
      {
        // A chunk outside the start set stays a separate file, imported by the same relative name (the start chunk
        // sits beside it); packages and node: builtins stay external as in the first build.
        name: 'start-chunk-boundary',
        setup(b) {
          b.onResolve({ filter: /.*/ }, (args) => {
            if (args.kind === 'entry-point') return undefined;
            if (!args.path.startsWith('.')) return { path: args.path, external: true };
            const path = resolve(args.resolveDir, args.path);
            if (chunks.has(path)) return { path };
            if (dirname(path) !== dir) throw new Error(`start chunk: ${args.importer} imports ${path} outside chunks/`);
            return { path: `./${basename(path)}`, external: true };
          });
        },
      },
    ],
  });
  // A warning here is code that would change meaning as CommonJS (`import.meta` other than `.url`, say): stop.
  if (result.warnings.length) throw new Error(`start chunk: esbuild warned: ${result.warnings[0].text}`);
  const code = result.outputFiles.find((f) => f.path.endsWith('.cjs'));
  const map = result.outputFiles.find((f) => f.path.endsWith('.cjs.map'));
  const body = code.text.replace(DYNAMIC_IMPORT, IMPORT_STAND_IN);
  const exported = order.flatMap((path, i) => chunks.get(path).map((n) => mergedName(i, n)));
  if (!new RegExp(`module\\.exports\\s*=\\s*\\{\\s*${exported[0]}\\b`).test(body.replace(/\s+/g, ' ')))
    throw new Error('start chunk: esbuild no longer ends a CommonJS bundle with its export names; check the body');
  const name = `start-${createHash('sha256').update(body).digest('hex').slice(0, 8).toUpperCase()}`;
  const bodyPath = join(dir, `${name}.cjs`);
  const wrapperPath = join(dir, `${name}.js`);
  const written = [bodyPath, `${bodyPath}.map`, wrapperPath];
  writeAtomically(
    bodyPath,
    body.replace(/\/\/# sourceMappingURL=start\.cjs\.map\s*$/, `//# sourceMappingURL=${name}.cjs.map\n`),
  );
  const sourceMap = JSON.parse(map.text);
  sourceMap.file = `${name}.cjs`;
  writeAtomically(`${bodyPath}.map`, JSON.stringify(sourceMap));
  writeAtomically(
    wrapperPath,
    [
      'import { loadStartChunk } from "../startLoader.js";',
      `const load = (s) => import(s.startsWith(".") ? new URL(s, import.meta.url).href : s);`,
      `export const { ${exported.join(', ')} } = loadStartChunk(new URL("./${name}.cjs", import.meta.url), load);`,
      '',
    ].join('\n'),
  );
  // The start chunk is on disk before any chunk points at it.
  for (const [i, path] of order.entries()) {
    const names = chunks.get(path).map((n) => `${mergedName(i, n)} as ${n}`);
    writeAtomically(path, `export { ${names.join(', ')} } from "./${name}.js";\n`);
    rmSync(`${path}.map`, { force: true });
    written.push(path);
  }
  return written;
}

function writeAtomically(path, text) {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, path);
}
