// Which files never leave the machine through search tools, and which reads the approval policy
// always asks about (even in yolo): environment files, private SSH keys and cloud credentials.
// Grep and Glob filter these out unconditionally; `include_ignored` does not bring them back.

/** Version-control folders that Grep and Glob never descend into. */
export const VCS_DIRS: readonly string[] = ['.git', '.svn', '.hg', '.bzr', '.jj', '.sl'];

const VCS_SET = new Set(VCS_DIRS);

/** `.env.example`, `.env.sample`, `.env.template` are documentation, not secrets. */
const ENV_TEMPLATE_SUFFIXES = ['.example', '.sample', '.template'];

/**
 * Private SSH keys: `id_rsa`, `id_ed25519`, `id_ecdsa` (and the legacy `id_dsa`), with `-work` /
 * `_github` name variants and any dotted or `~` suffix (`.bak`, `.old`, `.pem`…) — erring on the side
 * of hiding a key. Public halves (`.pub`, `.pub.bak`) are fine.
 */
const PRIVATE_KEY = /^id_(?:rsa|dsa|ecdsa|ed25519)(?:[-_.~].*)?$/;
const PUBLIC_KEY = /\.pub(?:[.~].*)?$/;

function splitSegments(path: string): string[] {
  return path.split(/[\\/]+/).filter((s) => s.length > 0);
}

/** True for a file name (no folders) that is secret by itself. */
export function isSensitiveFileName(name: string): boolean {
  const lower = name.toLowerCase();
  if (lower === '.env') return true;
  if (lower.startsWith('.env.')) return !ENV_TEMPLATE_SUFFIXES.some((s) => lower.endsWith(s));
  if (PRIVATE_KEY.test(lower)) return !PUBLIC_KEY.test(lower);
  return lower.startsWith('credentials');
}

/**
 * True when reading or searching this path could expose a secret. Works on absolute or relative
 * paths; only the last two segments matter (`.aws/credentials`, `.gcp/credentials`).
 */
export function isSensitivePath(path: string): boolean {
  const segments = splitSegments(path);
  return isSensitiveEntry(segments[segments.length - 2] ?? '', segments[segments.length - 1] ?? '');
}

/** isSensitivePath for the entry `name` of a folder named `parent` (for walks that already have both). */
export function isSensitiveEntry(parent: string, name: string): boolean {
  if (isSensitiveFileName(name)) return true;
  const folder = parent.toLowerCase();
  return (folder === '.aws' || folder === '.gcp') && name.toLowerCase() === 'credentials';
}

/** The note Grep and Glob add when they left sensitive files out of their results. */
export function sensitiveSkippedNote(count: number): string {
  return `[${count} sensitive file${count === 1 ? '' : 's'} skipped: secrets (.env files, private keys, credentials) are left out of search results.]`;
}

/** True when any folder segment of the path is a version-control folder. */
export function isInVcsDir(path: string): boolean {
  return splitSegments(path).some((segment) => VCS_SET.has(segment));
}

export function isVcsDirName(name: string): boolean {
  return VCS_SET.has(name);
}
