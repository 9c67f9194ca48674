// Runs the start chunk (scripts/startChunk.mjs) with a V8 code cache. Node 20 has no compile cache for ES modules, and
// compiling the ~1.2 MB that `jarvis -p` runs before its first request (and the functions it calls on the way) was a
// fifth of that start-up's CPU. So the start chunk is built as a CommonJS module exporting one function (its code),
// compiled here with `vm.Script`, and the code V8 made for it is saved beside it when the process exits; the next
// start hands it back to V8. Under `node --enable-source-maps` it is loaded with `require` instead, without a cache,
// because Node maps stack traces only for the modules it compiles itself.
//
// The cache sits in the package folder next to the file it caches, named after that file's content hash and the
// Node version and architecture, so it has exactly the trust of the code beside it: whoever can write it can write
// the code. A cache whose checksum (CRC-32, in front of V8's data) does not match is not handed to V8, which checks
// only the header of what it is given in release builds; V8 refuses one made for other source, another V8 or other
// flags (`cachedDataRejected`). Either way the chunk is compiled as without a cache, and the cache written again. Where the package folder cannot be written (a
// system-wide install), nothing is cached and every start compiles, as before. docs/distribution.md.
//
// This file is an entry of its own and imports Node built-ins only: the start chunk's wrapper imports it before any
// chunk of the program exists.
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { crc32 } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';

/** The start chunk's code: given CommonJS names to fill, its own URL, and `import()` for the chunks it loads. */
type StartChunkCode = (
  exports: Record<string, unknown>,
  require: NodeJS.Require,
  module: { exports: Record<string, unknown> },
  startUrl: string,
  load: (specifier: string) => Promise<unknown>,
) => void;

/** The errors that mean "this folder cannot keep a cache": nothing is saved, nothing said. */
const UNWRITABLE = new Set(['EACCES', 'EPERM', 'EROFS', 'ENOSPC', 'EDQUOT']);

/** The first bytes of a cache file: a tag, then the CRC-32 of the V8 data that follows. */
const TAG = Buffer.from('JVC1');
const HEADER = TAG.length + 4;

/** The cache file of a start chunk under this Node: beside it, named for the V8 it was made by. */
export function codeCachePath(chunkFile: string): string {
  return `${chunkFile}.${process.version}-${process.arch}.v8cache`;
}

/**
 * Compiles and runs the start chunk at `url` (a `.cjs` module exporting a StartChunkCode) and returns its exports.
 * `load` is `import()` as seen from the chunk's folder.
 */
export function loadStartChunk(url: URL, load: (specifier: string) => Promise<unknown>): Record<string, unknown> {
  const file = fileURLToPath(url);
  const require = createRequire(url);
  const code = process.sourceMapsEnabled ? (require(file) as StartChunkCode) : compileWithCache(file, require);
  const module = { exports: {} as Record<string, unknown> };
  code(module.exports, require, module, url.href, load);
  return module.exports;
}

/** The chunk's exported function, compiled as Node compiles a CommonJS module, with the cache when there is one. */
function compileWithCache(file: string, require: NodeJS.Require): StartChunkCode {
  const cacheFile = codeCachePath(file);
  const cachedData = readCache(cacheFile);
  // The wrapper's line comes first and is numbered -1, so stack traces keep the file's own line numbers.
  const script = new Script(
    `(function (exports, require, module, __filename, __dirname) {\n${readFileSync(file, 'utf8')}\n})`,
    {
      filename: file,
      lineOffset: -1,
      ...(cachedData ? { cachedData } : {}),
    },
  );
  const module = { exports: {} as unknown };
  (script.runInThisContext() as (...args: unknown[]) => void)(module.exports, require, module, file, dirname(file));
  if (!cachedData || script.cachedDataRejected) process.once('exit', () => saveCache(script, cacheFile));
  return module.exports as StartChunkCode;
}

function readCache(cacheFile: string): Buffer | undefined {
  try {
    const file = readFileSync(cacheFile);
    if (file.length <= HEADER || !file.subarray(0, TAG.length).equals(TAG)) return undefined;
    const data = file.subarray(HEADER);
    return crc32(data) === file.readUInt32LE(TAG.length) ? data : undefined;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    process.stderr.write(`jarvis: the start-up code cache ${cacheFile} could not be read: ${(e as Error).message}\n`);
    return undefined;
  }
}

/** At exit, with every function the run compiled: written beside and renamed, so a reader never sees half of it. */
function saveCache(script: Script, cacheFile: string): void {
  const temporary = `${cacheFile}.${process.pid}.tmp`;
  try {
    const data = script.createCachedData();
    const header = Buffer.alloc(HEADER);
    TAG.copy(header);
    header.writeUInt32LE(crc32(data), TAG.length);
    writeFileSync(temporary, Buffer.concat([header, data]));
    renameSync(temporary, cacheFile);
  } catch (e) {
    rmSync(temporary, { force: true });
    if (UNWRITABLE.has((e as NodeJS.ErrnoException).code ?? '')) return;
    process.stderr.write(`jarvis: the start-up code cache ${cacheFile} could not be saved: ${(e as Error).message}\n`);
  }
}
