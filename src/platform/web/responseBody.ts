// What a fetched body is (HTML, JSON, text or binary) and how to decode it, from the Content-Type
// header and, when the header says nothing useful, from the bytes themselves.

export type BodyKind = 'html' | 'json' | 'text' | 'binary';

/** `text/html; charset=utf-8` → `text/html`; missing → undefined. */
export function mimeEssence(contentType: string | null): string | undefined {
  const essence = contentType?.split(';')[0].trim().toLowerCase();
  return essence || undefined;
}

export function charsetOf(contentType: string | null): string | undefined {
  return /charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '')?.[1];
}

const BINARY_PREFIXES = ['image/', 'audio/', 'video/', 'font/', 'model/'];
const BINARY_TYPES = new Set([
  'application/octet-stream',
  'application/pdf',
  'application/zip',
  'application/gzip',
  'application/x-gzip',
  'application/x-tar',
  'application/x-7z-compressed',
  'application/x-rar-compressed',
  'application/vnd.rar',
  'application/wasm',
  'application/x-bzip2',
  'application/java-archive',
  'application/x-msdownload',
  'application/vnd.ms-excel',
  'application/msword',
  'application/vnd.ms-powerpoint',
]);

/** NUL bytes in the first 8 KiB mean binary, whatever the header says. */
export function looksBinary(body: Buffer): boolean {
  return body.subarray(0, 8192).includes(0);
}

export function classifyBody(mime: string | undefined, body: Buffer): BodyKind {
  if (
    mime &&
    (BINARY_TYPES.has(mime) ||
      BINARY_PREFIXES.some((p) => mime.startsWith(p)) ||
      mime.startsWith('application/vnd.openxmlformats'))
  ) {
    return mime === 'image/svg+xml' ? 'text' : 'binary';
  }
  if (looksBinary(body)) return 'binary';
  if (mime === undefined || mime.includes('html')) return 'html';
  if (mime.includes('json')) return 'json';
  return 'text';
}

/** Decodes with the declared charset (or a `<meta charset>` in HTML); unknown charsets fall back to UTF-8. */
export function decodeBody(body: Buffer, contentType: string | null, kind: BodyKind): string {
  let charset = charsetOf(contentType);
  if (!charset && kind === 'html')
    charset = /<meta[^>]+charset\s*=\s*["']?([\w-]+)/i.exec(body.subarray(0, 4096).toString('latin1'))?.[1];
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}
