// Pieces every HTML rendering shares: escaping, pictures as data URIs (the page loads nothing from
// disk or network), and the document shell.
import { extname } from 'node:path';

const IMAGE_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.bmp': 'image/bmp',
  '.svg': 'image/svg+xml',
  '.webp': 'image/webp',
};

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

export function imageDataUri(name: string, bytes: Uint8Array): string {
  const type = IMAGE_TYPES[extname(name).toLowerCase()] ?? 'application/octet-stream';
  return `data:${type};base64,${Buffer.from(bytes).toString('base64')}`;
}

/** A complete page; a strict content policy keeps anything in the document from reaching out. */
export function htmlShell(body: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'"><style>html,body{margin:0;padding:0;background:#fff;color:#000}*{box-sizing:content-box}</style></head><body>${body}</body></html>`;
}
