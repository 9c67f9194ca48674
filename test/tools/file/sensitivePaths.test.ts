import { describe, expect, it } from 'vitest';
import { isInVcsDir, isSensitivePath, VCS_DIRS } from '../../../src/tools/file';

// SPEC §6.1 Grep: sensitive files are .env and .env.* (not .example/.sample/.template),
// id_rsa|id_ed25519|id_ecdsa with -*/_*/backup-suffix variants (not .pub), credentials*,
// .aws/credentials, .gcp/credentials.
const SENSITIVE = [
  '/repo/.env',
  '/repo/.env.local',
  '/repo/.env.production',
  '/repo/app/.env.development.local',
  '/home/u/.ssh/id_rsa',
  '/home/u/.ssh/id_ed25519',
  '/home/u/.ssh/id_ecdsa',
  '/home/u/.ssh/id_rsa-work',
  '/home/u/.ssh/id_ed25519_github',
  '/home/u/.ssh/id_ecdsa-old',
  '/home/u/.ssh/id_rsa.bak',
  '/home/u/.ssh/id_ed25519.bak',
  '/home/u/.ssh/id_rsa.old',
  '/home/u/.ssh/id_rsa~',
  '/home/u/.ssh/id_rsa_github.orig',
  '/home/u/.ssh/id_rsa.pem',
  '/home/u/.ssh/ID_RSA',
  '/repo/credentials',
  '/repo/credentials.json',
  '/repo/config/credentials.yml',
  '/home/u/.aws/credentials',
  '/home/u/.gcp/credentials',
  'relative/.env',
  'C:\\Users\\u\\.aws\\credentials',
];

const NOT_SENSITIVE = [
  '/repo/.env.example',
  '/repo/.env.sample',
  '/repo/.env.template',
  '/repo/.env.local.example',
  '/home/u/.ssh/id_rsa.pub',
  '/home/u/.ssh/id_ed25519.pub',
  '/home/u/.ssh/id_rsa_github.pub',
  '/home/u/.ssh/known_hosts',
  '/repo/environment.ts',
  '/repo/.envrc.md',
  '/repo/my_credentials_helper.ts',
  '/repo/src/env.ts',
];

describe('isSensitivePath', () => {
  it.each(SENSITIVE)('%s is sensitive', (path) => {
    expect(isSensitivePath(path)).toBe(true);
  });
  it.each(NOT_SENSITIVE)('%s is not sensitive', (path) => {
    expect(isSensitivePath(path)).toBe(false);
  });
});

describe('isInVcsDir', () => {
  it('knows the six VCS folders', () => {
    expect([...VCS_DIRS].sort()).toEqual(['.bzr', '.git', '.hg', '.jj', '.sl', '.svn']);
  });
  it.each(VCS_DIRS.map((d) => [`repo/${d}/config`]))('%s is inside a VCS folder', (path) => {
    expect(isInVcsDir(path)).toBe(true);
  });
  it.each(['repo/.github/workflows/ci.yml', 'repo/src/git/index.ts', 'repo/.gitignore'])('%s is not', (path) => {
    expect(isInVcsDir(path)).toBe(false);
  });
});
