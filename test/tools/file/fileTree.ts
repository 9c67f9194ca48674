// Builds small file trees for the file-tool tests: a map of relative path → content.
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export function writeTree(root: string, files: Record<string, string | Buffer>): void {
  for (const [name, content] of Object.entries(files)) {
    const path = join(root, name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
  }
}

/** Gives each file a distinct mtime: the first listed is the oldest. */
export function ageInOrder(root: string, names: readonly string[]): void {
  const base = Date.now() / 1000 - 10_000;
  names.forEach((name, i) => utimesSync(join(root, name), base + i * 10, base + i * 10));
}

/** Files that Grep and Glob must never return (SPEC test-worthy rule 19 and the §6.1 list). */
export const SECRET_FILES = [
  '.env',
  '.env.local',
  'config/.env.production',
  'id_rsa',
  'keys/id_ed25519.bak',
  'keys/id_ecdsa-work',
  'keys/id_rsa_github',
  '.aws/credentials',
  '.gcp/credentials',
  'credentials.json',
];

/** Look-alikes that must be returned (rule 20). */
export const HARMLESS_FILES = ['.env.example', '.env.sample', '.env.template', 'id_rsa.pub', 'keys/id_ed25519.pub'];

/** Files inside version-control folders (rule 21). */
export const VCS_FILES = [
  '.git/config',
  '.svn/entries',
  '.hg/hgrc',
  '.bzr/branch',
  '.jj/repo',
  '.sl/store',
  'sub/.git/HEAD',
];
