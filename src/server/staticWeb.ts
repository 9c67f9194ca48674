// The web UI's files (docs/web.md): `GET /` is dist/web/index.html and `GET /assets/<name>` the hashed bundle files
// beside it. They hold no secret, so no credential is asked (the Host check still applies), and every answer carries
// a strict Content-Security-Policy: only this origin's scripts, no inline script, no framing, no forms.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import { ApiError, Codes } from './envelope';

export const WEB_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data: blob:",
  "object-src 'none'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.html': 'text/html; charset=utf-8',
};

/** dist/web beside the bundle (the code may sit in dist/ or dist/chunks/); undefined when the UI is not built. */
function webDir(): string | undefined {
  for (const dir of ['./web/', '../web/']) {
    const path = fileURLToPath(new URL(dir, import.meta.url));
    if (existsSync(`${path}index.html`)) return path;
  }
  return undefined;
}

export class StaticWeb {
  private files?: Map<string, { body: Buffer; type: string }>;

  private load(): Map<string, { body: Buffer; type: string }> {
    if (this.files) return this.files;
    const dir = webDir();
    if (!dir) throw new ApiError(Codes.route, 'the web UI is not built here: run node scripts/build.mjs', 404);
    const files = new Map<string, { body: Buffer; type: string }>();
    files.set('/', { body: readFileSync(`${dir}index.html`), type: TYPES['.html'] });
    for (const name of readdirSync(`${dir}assets`)) {
      const ext = /\.[a-z]+$/.exec(name)?.[0] ?? '';
      if (TYPES[ext] && /^[A-Za-z0-9._-]+$/.test(name))
        files.set(`/assets/${name}`, { body: readFileSync(`${dir}assets/${name}`), type: TYPES[ext] });
    }
    this.files = files;
    return files;
  }

  /** Whether `path` is one of the UI's files (`/` or `/assets/…`), which this class answers. */
  handles(method: string, path: string): boolean {
    return (method === 'GET' || method === 'HEAD') && (path === '/' || path.startsWith('/assets/'));
  }

  serve(res: ServerResponse, path: string, method: string): void {
    const file = this.load().get(path);
    if (!file) throw new ApiError(Codes.route, `no file ${path}`, 404);
    res.writeHead(200, {
      'content-type': file.type,
      'content-length': file.body.length,
      // Asset names carry a content hash; the page itself names the current ones.
      'cache-control': path === '/' ? 'no-store' : 'public, max-age=31536000, immutable',
      'content-security-policy': WEB_CSP,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'x-frame-options': 'DENY',
      'cross-origin-opener-policy': 'same-origin',
    });
    res.end(method === 'HEAD' ? undefined : file.body);
  }
}
