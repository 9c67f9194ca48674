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
  // Issue 31: keys, key stores and the credentials of registries, clusters, databases and git.
  '/repo/certs/server.pem',
  '/repo/certs/server.key',
  '/repo/certs/client.p12',
  '/repo/certs/client.pfx',
  '/repo/android/release.jks',
  '/repo/android/release.keystore',
  '/home/u/putty.ppk',
  '/home/u/vault.kdbx',
  '/home/u/.netrc',
  '/home/u/_netrc',
  '/repo/.npmrc',
  '/repo/.yarnrc.yml',
  '/home/u/.pypirc',
  '/home/u/.pgpass',
  '/home/u/.my.cnf',
  '/home/u/.git-credentials',
  '/srv/site/.htpasswd',
  '/home/u/.kube/config',
  '/home/u/.docker/config.json',
  '/home/u/.dockercfg',
  '/home/u/.boto',
  '/home/u/.s3cfg',
  '/home/u/.vault-token',
  '/home/u/.terraformrc',
  '/home/u/.azure/accessTokens.json',
  '/home/u/.config/gcloud/application_default_credentials.json',
  '/home/u/.config/gh/hosts.yml',
  '/home/u/.cargo/credentials.toml',
  '/home/u/.gem/credentials',
  '/home/u/.gnupg/private-keys-v1.d/ABCDEF.key',
  '/home/u/.gnupg/private-keys-v1.d/0123.txt',
  '/repo/.NPMRC',
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
  '/repo/.pem',
  '/repo/keyboard.ts',
  '/repo/docs/keys.md',
  '/home/u/.kube/cache.json',
  '/repo/config',
  '/repo/docker/config.json',
  '/home/u/.docker/daemon.json',
  '/repo/npmrc.md',
  '/repo/src/pem.ts',
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
