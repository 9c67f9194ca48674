// Reads a PNG or JPEG the model names for a document: its bytes, kind and pixel size (from the file
// header; DOCX and PPTX place pictures by size, and neither library measures them for us).
import { readFileSync } from 'node:fs';
import { resolveDocumentPath } from '../documentFiles';

export interface ImageFile {
  bytes: Buffer;
  kind: 'png' | 'jpeg';
  width: number;
  height: number;
}

export function readImageFile(path: string): ImageFile {
  const bytes = readFileSync(resolveDocumentPath(path));
  if (bytes.length > 24 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
    return { bytes, kind: 'png', width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  }
  if (bytes[0] === 0xff && bytes[1] === 0xd8) {
    // Walk the JPEG segments to the start-of-frame marker, which holds the size.
    let at = 2;
    while (at + 9 < bytes.length && bytes[at] === 0xff) {
      const marker = bytes[at + 1];
      const length = bytes.readUInt16BE(at + 2);
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return { bytes, kind: 'jpeg', height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7) };
      }
      at += 2 + length;
    }
  }
  throw new Error(`${path} is not a PNG or JPEG image (only those two can be placed in documents).`);
}
