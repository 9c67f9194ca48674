// Recognises image and video files by their first bytes (falling back to the extension), so Read can
// point at ReadMediaFile and ReadMediaFile can refuse what models cannot take.
import { open } from 'node:fs/promises';
import { extname } from 'node:path';

export interface MediaKind {
  kind: 'image' | 'video';
  /** Short format name for messages: png, jpeg, heif, mp4… */
  format: string;
  mediaType: string;
  /** Whether ReadMediaFile sends this format to a model. */
  supported: boolean;
}

export const MEDIA_SNIFF_BYTES = 64;

const IMAGE = (format: string, mediaType: string, supported: boolean): MediaKind => ({
  kind: 'image',
  format,
  mediaType,
  supported,
});
const VIDEO = (format: string, mediaType: string): MediaKind => ({ kind: 'video', format, mediaType, supported: true });

const BY_EXTENSION: Record<string, MediaKind> = {
  '.png': IMAGE('png', 'image/png', true),
  '.jpg': IMAGE('jpeg', 'image/jpeg', true),
  '.jpeg': IMAGE('jpeg', 'image/jpeg', true),
  '.gif': IMAGE('gif', 'image/gif', true),
  '.webp': IMAGE('webp', 'image/webp', true),
  '.heic': IMAGE('heif', 'image/heic', false),
  '.heif': IMAGE('heif', 'image/heif', false),
  '.avif': IMAGE('avif', 'image/avif', false),
  '.bmp': IMAGE('bmp', 'image/bmp', false),
  '.tif': IMAGE('tiff', 'image/tiff', false),
  '.tiff': IMAGE('tiff', 'image/tiff', false),
  '.ico': IMAGE('ico', 'image/x-icon', false),
  '.svg': IMAGE('svg', 'image/svg+xml', false),
  '.mp4': VIDEO('mp4', 'video/mp4'),
  '.m4v': VIDEO('mp4', 'video/mp4'),
  '.mov': VIDEO('mov', 'video/quicktime'),
  '.webm': VIDEO('webm', 'video/webm'),
  '.mkv': VIDEO('mkv', 'video/x-matroska'),
  '.avi': VIDEO('avi', 'video/x-msvideo'),
  '.mpeg': VIDEO('mpeg', 'video/mpeg'),
  '.mpg': VIDEO('mpeg', 'video/mpeg'),
};

function ascii(bytes: Uint8Array, from: number, to: number): string {
  return String.fromCharCode(...bytes.subarray(from, to));
}

function startsWith(bytes: Uint8Array, signature: number[]): boolean {
  return signature.every((b, i) => bytes[i] === b);
}

/** ISO base media (mp4, mov, heif, avif): the `ftyp` box lists the major and compatible brands. */
function isoMediaKind(bytes: Uint8Array, ext: string): MediaKind | undefined {
  if (bytes.length < 12 || ascii(bytes, 4, 8) !== 'ftyp') return undefined;
  const boxEnd = Math.min(bytes.length, (bytes[0] << 24) | (bytes[1] << 16) | (bytes[2] << 8) | bytes[3]);
  const brands = [ascii(bytes, 8, 12)];
  for (let i = 16; i + 4 <= boxEnd; i += 4) brands.push(ascii(bytes, i, i + 4));
  if (brands.some((b) => b === 'avif' || b === 'avis')) return BY_EXTENSION['.avif'];
  if (brands.some((b) => ['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1'].includes(b)))
    return BY_EXTENSION['.heif'];
  if (brands[0] === 'qt  ') return BY_EXTENSION['.mov'];
  return BY_EXTENSION[ext]?.kind === 'video' ? BY_EXTENSION[ext] : BY_EXTENSION['.mp4'];
}

/** Identifies media from the first bytes of a file, then from its extension; undefined for anything else. */
export function detectMedia(head: Uint8Array, path: string): MediaKind | undefined {
  const ext = extname(path).toLowerCase();
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return BY_EXTENSION['.png'];
  if (startsWith(head, [0xff, 0xd8, 0xff])) return BY_EXTENSION['.jpg'];
  if (ascii(head, 0, 6) === 'GIF87a' || ascii(head, 0, 6) === 'GIF89a') return BY_EXTENSION['.gif'];
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WEBP') return BY_EXTENSION['.webp'];
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'AVI ') return BY_EXTENSION['.avi'];
  const iso = isoMediaKind(head, ext);
  if (iso) return iso;
  if (startsWith(head, [0x1a, 0x45, 0xdf, 0xa3])) return ext === '.mkv' ? BY_EXTENSION['.mkv'] : BY_EXTENSION['.webm'];
  if (startsWith(head, [0x00, 0x00, 0x01, 0xba]) || startsWith(head, [0x00, 0x00, 0x01, 0xb3]))
    return BY_EXTENSION['.mpeg'];
  if (ascii(head, 0, 2) === 'BM' && ext === '.bmp') return BY_EXTENSION['.bmp'];
  if (startsWith(head, [0x49, 0x49, 0x2a, 0x00]) || startsWith(head, [0x4d, 0x4d, 0x00, 0x2a]))
    return BY_EXTENSION['.tiff'];
  if (startsWith(head, [0x00, 0x00, 0x01, 0x00]) && ext === '.ico') return BY_EXTENSION['.ico'];
  return BY_EXTENSION[ext];
}

/** Reads up to `length` bytes from the start of a file. */
export async function readHead(path: string, length: number): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
