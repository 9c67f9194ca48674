// A small ZIP (PKWARE APPNOTE 6.3) writer for exports, and a reader that checks what it wrote. Entries
// are deflated with node:zlib (stored when deflate would not shrink them), names are UTF-8 (flag bit
// 11), sizes are known up front so no data descriptors are needed. ZIP64 is not written: an archive
// past its limits (4 GiB, 65 535 entries) is refused with a clear error rather than silently broken.
import { closeSync, lstatSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { crc32, deflateRawSync, inflateRawSync } from 'node:zlib';

export interface ZipEntry {
  /** Path inside the archive, `/`-separated, relative. */
  name: string;
  data: Buffer;
  mtime?: Date;
  /** Unix permission bits (e.g. 0o644). */
  mode?: number;
}

export class ZipError extends Error {}

const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_CENTRAL_DIR = 0x06054b50;
const UTF8_NAMES = 0x0800;
const VERSION = 20; // 2.0: deflate
const MADE_BY_UNIX = (3 << 8) | VERSION;
const STORED = 0;
const DEFLATED = 8;
const MAX_32 = 0xffffffff;
const MAX_ENTRIES = 0xffff;

function checkName(name: string): void {
  const parts = name.split('/');
  if (!name || name.startsWith('/') || name.includes('\\') || parts.some((p) => p === '..' || p === '')) {
    throw new ZipError(`unsafe or empty entry name in archive: "${name}"`);
  }
}

/** MS-DOS date and time (local time, 2-second resolution; 1980 is the earliest it can say). */
function dosDateTime(date: Date): { time: number; date: number } {
  const d = date.getFullYear() < 1980 ? new Date(1980, 0, 1) : date;
  return {
    time: (d.getHours() << 11) | (d.getMinutes() << 5) | Math.floor(d.getSeconds() / 2),
    date: ((d.getFullYear() - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate(),
  };
}

function fromDosDateTime(time: number, date: number): Date {
  return new Date(1980 + (date >> 9), ((date >> 5) & 0xf) - 1, date & 0x1f, time >> 11, (time >> 5) & 0x3f, (time & 0x1f) * 2);
}

/** Writes `entries` to `path` (through a temporary file, so a failed export leaves no partial archive). */
export function writeZip(path: string, entries: readonly ZipEntry[]): { entries: number; bytes: number } {
  if (entries.length > MAX_ENTRIES) throw new ZipError(`too many files for one archive (${entries.length}; the limit is ${MAX_ENTRIES})`);
  const seen = new Set<string>();
  const tmp = `${path}.${process.pid}.tmp`;
  const fd = openSync(tmp, 'w');
  const central: Buffer[] = [];
  let offset = 0;
  const write = (buf: Buffer) => {
    writeSync(fd, buf);
    offset += buf.length;
  };
  try {
    for (const entry of entries) {
      checkName(entry.name);
      if (seen.has(entry.name)) throw new ZipError(`duplicate entry name in archive: "${entry.name}"`);
      seen.add(entry.name);
      const name = Buffer.from(entry.name, 'utf8');
      const deflated = deflateRawSync(entry.data);
      const method = deflated.length < entry.data.length ? DEFLATED : STORED;
      const body = method === DEFLATED ? deflated : entry.data;
      const crc = crc32(entry.data);
      const { time, date } = dosDateTime(entry.mtime ?? new Date());
      if (entry.data.length > MAX_32 || offset + 30 + name.length + body.length > MAX_32) {
        throw new ZipError('the archive would be larger than 4 GiB, which needs ZIP64 (not supported)');
      }
      const local = Buffer.alloc(30);
      local.writeUInt32LE(LOCAL_HEADER, 0);
      local.writeUInt16LE(VERSION, 4);
      local.writeUInt16LE(UTF8_NAMES, 6);
      local.writeUInt16LE(method, 8);
      local.writeUInt16LE(time, 10);
      local.writeUInt16LE(date, 12);
      local.writeUInt32LE(crc, 14);
      local.writeUInt32LE(body.length, 18);
      local.writeUInt32LE(entry.data.length, 22);
      local.writeUInt16LE(name.length, 26);
      local.writeUInt16LE(0, 28);
      const header = Buffer.alloc(46);
      header.writeUInt32LE(CENTRAL_HEADER, 0);
      header.writeUInt16LE(MADE_BY_UNIX, 4);
      header.writeUInt16LE(VERSION, 6);
      header.writeUInt16LE(UTF8_NAMES, 8);
      header.writeUInt16LE(method, 10);
      header.writeUInt16LE(time, 12);
      header.writeUInt16LE(date, 14);
      header.writeUInt32LE(crc, 16);
      header.writeUInt32LE(body.length, 20);
      header.writeUInt32LE(entry.data.length, 24);
      header.writeUInt16LE(name.length, 28);
      // extra length, comment length, disk number, internal attributes: all 0
      header.writeUInt32LE((((entry.mode ?? 0o644) | 0o100000) << 16) >>> 0, 38); // regular file + permissions
      header.writeUInt32LE(offset, 42);
      central.push(header, name);
      write(local);
      write(name);
      write(body);
    }
    const cdOffset = offset;
    for (const buf of central) write(buf);
    const end = Buffer.alloc(22);
    end.writeUInt32LE(END_OF_CENTRAL_DIR, 0);
    end.writeUInt16LE(entries.length, 8);
    end.writeUInt16LE(entries.length, 10);
    end.writeUInt32LE(offset - cdOffset, 12);
    end.writeUInt32LE(cdOffset, 16);
    write(end);
    closeSync(fd);
    renameSync(tmp, path);
    return { entries: entries.length, bytes: offset };
  } catch (e) {
    try {
      closeSync(fd);
    } catch {
      // already closed after a successful write; the rename is what failed
    }
    rmSync(tmp, { force: true });
    throw e;
  }
}

/** Every regular file under `dir` as entries named `prefix` + relative path. Symlinks are skipped. */
export function directoryEntries(dir: string, prefix: string): ZipEntry[] {
  const out: ZipEntry[] = [];
  const walk = (abs: string, rel: string) => {
    for (const name of readdirSync(abs).sort()) {
      const path = join(abs, name);
      const st = lstatSync(path);
      if (st.isDirectory()) walk(path, `${rel}${name}/`);
      else if (st.isFile()) out.push({ name: `${prefix}${rel}${name}`, data: readFileSync(path), mtime: st.mtime, mode: st.mode & 0o777 });
    }
  };
  walk(dir, '');
  return out;
}

/** Reads an archive this module wrote (or any plain ZIP without ZIP64), checking every CRC. */
export function readZip(data: Buffer): Array<{ name: string; data: Buffer; mtime: Date }> {
  let end = -1;
  for (let i = data.length - 22; i >= Math.max(0, data.length - 22 - 0xffff); i--) {
    if (data.readUInt32LE(i) === END_OF_CENTRAL_DIR) {
      end = i;
      break;
    }
  }
  if (end < 0) throw new ZipError('not a ZIP archive (no end-of-central-directory record)');
  const count = data.readUInt16LE(end + 10);
  let p = data.readUInt32LE(end + 16);
  const out: Array<{ name: string; data: Buffer; mtime: Date }> = [];
  for (let i = 0; i < count; i++) {
    if (data.readUInt32LE(p) !== CENTRAL_HEADER) throw new ZipError(`corrupt central directory at byte ${p}`);
    const method = data.readUInt16LE(p + 10);
    const mtime = fromDosDateTime(data.readUInt16LE(p + 12), data.readUInt16LE(p + 14));
    const crc = data.readUInt32LE(p + 16);
    const size = data.readUInt32LE(p + 20);
    const nameLength = data.readUInt16LE(p + 28);
    const skip = nameLength + data.readUInt16LE(p + 30) + data.readUInt16LE(p + 32);
    const localOffset = data.readUInt32LE(p + 42);
    const name = data.subarray(p + 46, p + 46 + nameLength).toString('utf8');
    checkName(name);
    if (data.readUInt32LE(localOffset) !== LOCAL_HEADER) throw new ZipError(`corrupt local header for "${name}"`);
    const start = localOffset + 30 + data.readUInt16LE(localOffset + 26) + data.readUInt16LE(localOffset + 28);
    const raw = data.subarray(start, start + size);
    if (method !== STORED && method !== DEFLATED) throw new ZipError(`"${name}" uses compression method ${method}, which is not supported`);
    const content = method === DEFLATED ? inflateRawSync(raw) : Buffer.from(raw);
    if (crc32(content) !== crc) throw new ZipError(`"${name}" is corrupt (CRC mismatch)`);
    out.push({ name, data: content, mtime });
    p += 46 + skip;
  }
  return out;
}
