// What a hidden file reads as inside the sandbox, and the home's credential files whose hard links in the workspace
// are hidden as well (docs/trust-boundary.md "Secrets"): the home's dotted folders are hidden whole, but a second name
// of one of these files made inside the workspace would read it.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** What `cat .env` prints inside the sandbox: the boundary, and how to ask for more (lines fit 80 columns). */
export const HIDDEN_FILE_TEXT =
  '# Hidden by the Jarvis command sandbox: secret files (.env, private\n' +
  '# keys, credentials) and home dotfiles are not readable from commands\n' +
  '# (docs/sandbox.md). Ask the user for the value you need, or for\n' +
  '# [sandbox] readable_home_paths; do not try to read it another way.\n';

/** Credential files of the home folder, by where their tools keep them. */
const HOME_CREDENTIALS = [
  '.netrc',
  '.git-credentials',
  '.config/git/credentials',
  '.npmrc',
  '.pypirc',
  '.pgpass',
  '.vault-token',
  '.aws/credentials',
  '.aws/config',
  '.docker/config.json',
  '.kube/config',
  '.config/gh/hosts.yml',
  '.config/gcloud/application_default_credentials.json',
  '.cargo/credentials.toml',
];

/** The home's credential files, each file of `~/.ssh` and of JARVIS_CODE_HOME's top level (its config and tokens). */
export function homeCredentialFiles(home: string, jarvisHome: string): string[] {
  return [
    ...HOME_CREDENTIALS.map((p) => join(home, p)),
    ...filesIn(join(home, '.ssh')),
    ...filesIn(join(home, '.gnupg', 'private-keys-v1.d')),
    ...filesIn(jarvisHome),
  ];
}

function filesIn(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => join(dir, e.name));
  } catch {
    return []; // absent: nothing to link to
  }
}
