// Which files never leave the machine through search tools, and which reads the approval policy
// always asks about (even in yolo): environment files, private keys and certificates' key stores,
// credentials of package registries, cloud and cluster tools, databases and version control. The
// list, as users read it, is docs/approvals.md "Sensitive files"; keep the two the same.
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

/** Files secret by their whole name: tokens and passwords of registries, hosts, databases and git. */
const SECRET_NAMES = new Set([
  '.netrc',
  '_netrc',
  '.npmrc',
  '.yarnrc.yml',
  '.pypirc',
  '.pgpass',
  '.my.cnf',
  '.git-credentials',
  '.htpasswd',
  '.dockercfg',
  '.boto',
  '.s3cfg',
  '.vault-token',
  '.terraformrc',
  'terraform.rc',
]);

/** Private keys and key stores by extension (a `.pem` may be a public certificate: hidden all the same). */
const SECRET_EXTENSIONS = ['.pem', '.key', '.p12', '.pfx', '.jks', '.keystore', '.kdbx', '.ppk'];

/** `folder/name` pairs secret together: cluster, container, cloud and CLI credentials. */
const SECRET_IN_FOLDER: ReadonlyArray<[string, string]> = [
  ['.aws', 'credentials'],
  ['.gcp', 'credentials'],
  ['.kube', 'config'],
  ['.docker', 'config.json'],
  ['.azure', 'accesstokens.json'],
  ['.azure', 'msal_token_cache.json'],
  ['gcloud', 'application_default_credentials.json'],
  ['gh', 'hosts.yml'],
  ['.cargo', 'credentials.toml'],
  ['.gem', 'credentials'],
];

/** Folders whose every file is secret (GnuPG's private keys). */
const SECRET_FOLDERS = new Set(['private-keys-v1.d']);

/** True for a file name (no folders) that is secret by itself. */
export function isSensitiveFileName(name: string): boolean {
  const lower = name.toLowerCase();
  if (lower === '.env') return true;
  if (lower.startsWith('.env.')) return !ENV_TEMPLATE_SUFFIXES.some((s) => lower.endsWith(s));
  if (PRIVATE_KEY.test(lower)) return !PUBLIC_KEY.test(lower);
  if (SECRET_NAMES.has(lower)) return true;
  if (SECRET_EXTENSIONS.some((ext) => lower.endsWith(ext) && lower.length > ext.length)) return true;
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
  const file = name.toLowerCase();
  if (SECRET_FOLDERS.has(folder)) return true;
  return SECRET_IN_FOLDER.some(([f, n]) => f === folder && n === file);
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
