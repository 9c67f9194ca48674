// The browser profile's workspace folder (docs/browser.md, "Workspace"): every opfs_* path is relative
// to it, `..` is refused outright, and the resolved path — symlinks followed — must stay inside.
import { realpath } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { serviceKey } from '../defineTool';

export interface WorkspaceSettings {
  /** `[browser] workspace_dir`, default `$JARVIS_CODE_HOME/workspace`. */
  root: string;
}

export const WORKSPACE_SERVICE = serviceKey<WorkspaceSettings>()('workspace');

export class WorkspacePathError extends Error {}

/** Cleans a model-given path: leading `/` and empty segments dropped; `..`, NUL and `\` refused. */
export function normaliseWorkspacePath(path: string, opts: { allowEmpty?: boolean } = {}): string {
  if (path.includes('\0')) throw new WorkspacePathError('Invalid path: NUL characters are not allowed');
  if (path.includes('\\')) throw new WorkspacePathError('Invalid path: use "/" to separate folders, not "\\"');
  const segments = path.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.includes('..')) throw new WorkspacePathError('Invalid path: ".." is not allowed');
  if (!segments.length && !opts.allowEmpty) throw new WorkspacePathError('path is required');
  return segments.join('/');
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..');
}

/** The nearest existing ancestor's real path (the path itself when it exists). */
async function realExisting(path: string): Promise<{ real: string; rest: string }> {
  let current = path;
  let rest = '';
  for (;;) {
    try {
      return { real: await realpath(current), rest };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      const parent = dirname(current);
      if (parent === current) throw e;
      rest = rest ? join(current.slice(parent.length + 1), rest) : current.slice(parent.length + 1);
      current = parent;
    }
  }
}

/**
 * The absolute path for `clean` (from normaliseWorkspacePath) inside `root`; throws when a symlink
 * would lead outside. The workspace root itself is created by the caller.
 */
export async function resolveInWorkspace(root: string, clean: string): Promise<string> {
  const realRoot = await realpath(root);
  const target = clean ? join(realRoot, ...clean.split('/')) : realRoot;
  const { real } = await realExisting(target);
  if (!inside(realRoot, real))
    throw new WorkspacePathError(`Invalid path: "${clean}" leads outside the workspace (through a symbolic link)`);
  return target;
}

const MIME_TYPES: Record<string, string> = {
  txt: 'text/plain',
  md: 'text/markdown',
  html: 'text/html',
  htm: 'text/html',
  css: 'text/css',
  csv: 'text/csv',
  xml: 'application/xml',
  svg: 'image/svg+xml',
  js: 'text/javascript',
  mjs: 'text/javascript',
  json: 'application/json',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  mp4: 'video/mp4',
  pdf: 'application/pdf',
  zip: 'application/zip',
  wasm: 'application/wasm',
};

export function mimeTypeOf(path: string): string {
  const ext = /\.([^./]+)$/.exec(path)?.[1]?.toLowerCase();
  return (ext && MIME_TYPES[ext]) ?? 'application/octet-stream';
}

const WINDOW = 24;

/** Moves a window start back over UTF-8 continuation bytes so a character is not split. */
function alignStart(bytes: Buffer, start: number): number {
  let s = start;
  while (s > 0 && (bytes[s] & 0xc0) === 0x80) s--;
  return s;
}

/** The reference's content check: 24-byte windows at the start, middle and end; any byte ≤ 0x08 = binary. */
export function isBinaryContent(bytes: Buffer): boolean {
  if (bytes.length === 0) return false;
  const starts = [
    0,
    alignStart(bytes, Math.max(0, Math.floor(bytes.length / 2) - WINDOW / 2)),
    alignStart(bytes, Math.max(0, bytes.length - WINDOW)),
  ];
  return starts.some((s) => bytes.subarray(s, s + WINDOW).some((b) => b <= 0x08));
}
