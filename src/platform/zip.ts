// ZIP archives for exports, on kept libraries: yazl writes (deflate, UTF-8 names, ZIP64 when an archive
// needs it), yauzl reads. Our part is what they leave to the caller: entry names that cannot escape the
// folder they are unpacked into, no duplicates, no partial archive after a failure, and a CRC check of
// every entry read (yauzl checks sizes but not CRCs).
import { createWriteStream, lstatSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { crc32 } from 'node:zlib';
import yauzl from 'yauzl';
import yazl from 'yazl';

export interface ZipEntry {
  /** Path inside the archive, `/`-separated, relative. */
  name: string;
  data: Buffer;
  mtime?: Date;
  /** Unix permission bits (e.g. 0o644). */
  mode?: number;
}

export class ZipError extends Error {}

/** An entry name that could not escape the folder it is unpacked into: relative, `/`-separated, no `..`. */
function checkName(name: string): void {
  const parts = name.split('/');
  if (
    !name ||
    name.startsWith('/') ||
    /^[a-zA-Z]:/.test(name) ||
    name.includes('\\') ||
    parts.some((p) => p === '..' || p === '')
  ) {
    throw new ZipError(`unsafe or empty entry name in archive: "${name}"`);
  }
}

/** Writes `entries` to `path` (through a temporary file, so a failed export leaves no partial archive). */
export async function writeZip(
  path: string,
  entries: readonly ZipEntry[],
): Promise<{ entries: number; bytes: number }> {
  const seen = new Set<string>();
  for (const entry of entries) {
    checkName(entry.name);
    if (seen.has(entry.name)) throw new ZipError(`duplicate entry name in archive: "${entry.name}"`);
    seen.add(entry.name);
  }
  const zip = new yazl.ZipFile();
  for (const entry of entries) {
    // regular file + its permission bits
    zip.addBuffer(entry.data, entry.name, { mtime: entry.mtime ?? new Date(), mode: 0o100000 | (entry.mode ?? 0o644) });
  }
  zip.end();
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    await pipeline(zip.outputStream, createWriteStream(tmp));
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
  return { entries: entries.length, bytes: statSync(path).size };
}

/** Every regular file under `dir` as entries named `prefix` + relative path. Symlinks are skipped. */
export function directoryEntries(dir: string, prefix: string): ZipEntry[] {
  const out: ZipEntry[] = [];
  const walk = (abs: string, rel: string) => {
    for (const name of readdirSync(abs).sort()) {
      const path = join(abs, name);
      const st = lstatSync(path);
      if (st.isDirectory()) walk(path, `${rel}${name}/`);
      else if (st.isFile())
        out.push({ name: `${prefix}${rel}${name}`, data: readFileSync(path), mtime: st.mtime, mode: st.mode & 0o777 });
    }
  };
  walk(dir, '');
  return out;
}

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Bounds for archives from elsewhere (plugin downloads): a zip bomb stops before it is inflated. */
export interface ZipReadLimits {
  maxEntries: number;
  /** Total uncompressed bytes. */
  maxBytes: number;
}

/** A file read from an archive; `mode` holds the Unix permission bits when the archive recorded them. */
export interface ReadZipEntry {
  name: string;
  data: Buffer;
  mtime: Date;
  mode?: number;
}

const MADE_BY_UNIX = 3;

/** Reads every file entry of an archive (folders skipped), checking names, CRCs and the limits given. */
export async function readZip(data: Buffer, limits?: ZipReadLimits): Promise<ReadZipEntry[]> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.fromBufferPromise(data, { lazyEntries: true, strictFileNames: true });
  } catch (e) {
    throw new ZipError(`not a readable ZIP archive: ${(e as Error).message}`);
  }
  const out: ReadZipEntry[] = [];
  let total = 0;
  try {
    if (limits && zip.entryCount > limits.maxEntries)
      throw new ZipError(`the archive has ${zip.entryCount} entries; at most ${limits.maxEntries} are accepted`);
    for (;;) {
      const entry = await new Promise<yauzl.Entry | undefined>((resolve, reject) => {
        zip
          .once('entry', resolve)
          .once('end', () => resolve(undefined))
          .once('error', reject);
        zip.readEntry();
      });
      zip.removeAllListeners('entry').removeAllListeners('end').removeAllListeners('error');
      if (!entry) break;
      if (entry.fileName.endsWith('/')) continue;
      checkName(entry.fileName);
      total += entry.uncompressedSize;
      if (limits && total > limits.maxBytes)
        throw new ZipError(`the archive unpacks to more than ${limits.maxBytes} bytes, the limit`);
      const content = await readAll(await zip.openReadStreamPromise(entry));
      if (crc32(content) !== entry.crc32) throw new ZipError(`"${entry.fileName}" is corrupt (CRC mismatch)`);
      const unixMode = entry.versionMadeBy >> 8 === MADE_BY_UNIX ? (entry.externalFileAttributes >>> 16) & 0o777 : 0;
      out.push({
        name: entry.fileName,
        data: content,
        mtime: entry.getLastModDate(),
        ...(unixMode ? { mode: unixMode } : {}),
      });
    }
  } catch (e) {
    if (e instanceof ZipError) throw e;
    throw new ZipError(`the archive is corrupt: ${(e as Error).message}`);
  } finally {
    zip.close();
  }
  return out;
}
