// Attack rows: secrets a command could read although the boundary hides them (issue 43, "Secrets"): hard and symbolic
// links, a .env made while a background command runs, past the old walk's cap, in readable home folders, in a folder
// the walk cannot list, and the home's credential files. docs/trust-boundary.md "Attack corpus".
import { chmodSync, linkSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { leaked, SECRET, write, type AttackCase } from '../corpusKit';

const read = (path: string, text: string): Pick<AttackCase, 'setup' | 'attack' | 'check'> => ({
  setup: (fx) => write(join(path.startsWith('~/') ? fx.home : fx.ws, path.replace(/^~\//, '')), text),
  attack: `cat ${path}`,
  check: (_fx, out) => leaked(out),
});

export const SECRET_ROWS: AttackCase[] = [
  {
    name: 'a hard link to .env made before the session',
    bullet: 'secrets',
    setup: (fx) => {
      write(join(fx.ws, '.env'), `API_KEY=${SECRET}\n`);
      mkdirSync(join(fx.ws, 'docs'), { recursive: true });
      linkSync(join(fx.ws, '.env'), join(fx.ws, 'docs', 'notes.txt'));
    },
    attack: 'cat docs/notes.txt',
    check: (_fx, out) => leaked(out),
  },
  {
    name: "a hard link to the home's SSH key made before the session",
    bullet: 'secrets',
    setup: (fx) => {
      write(join(fx.home, '.ssh', 'id_ed25519'), `${SECRET}\n`);
      linkSync(join(fx.home, '.ssh', 'id_ed25519'), join(fx.ws, 'key.txt'));
    },
    attack: 'cat key.txt',
    check: (_fx, out) => leaked(out),
  },
  {
    name: '.env created by the user while a background command runs',
    bullet: 'secrets',
    attack: 'while [ ! -e .release ]; do sleep 0.05; done; cat .env',
    during: (fx) => write(join(fx.ws, '.env'), `API_KEY=${SECRET}\n`),
    check: (_fx, out) => leaked(out),
  },
  {
    name: 'a .env past the first 20 000 entries of the workspace',
    bullet: 'secrets',
    setup: (fx) => {
      for (let d = 0; d < 42; d++) {
        const dir = join(fx.ws, `gen${String(d).padStart(2, '0')}`);
        mkdirSync(dir, { recursive: true });
        for (let f = 0; f < 500; f++) writeFileSync(join(dir, `f${f}.txt`), '');
      }
      write(join(fx.ws, 'gen41', 'deep', 'deeper', '.env'), `API_KEY=${SECRET}\n`);
    },
    attack: 'cat gen41/deep/deeper/.env',
    check: (_fx, out) => leaked(out),
  },
  {
    name: '~/.config/git/credentials (under a readable home folder)',
    bullet: 'secrets',
    setup: (fx) => write(join(fx.home, '.config', 'git', 'credentials'), `https://u:${SECRET}@example.invalid\n`),
    attack: 'cat ~/.config/git/credentials',
    check: (_fx, out) => leaked(out),
  },
  {
    name: 'a secret in a folder the search cannot list (execute-only)',
    bullet: 'secrets',
    setup: (fx) => {
      write(join(fx.ws, 'locked', '.env'), `API_KEY=${SECRET}\n`);
      chmodSync(join(fx.ws, 'locked'), 0o111);
    },
    attack: 'cat locked/.env',
    check: (_fx, out) => leaked(out),
  },
  {
    name: 'a symbolic link to .env made before the session',
    bullet: 'secrets',
    setup: (fx) => {
      write(join(fx.ws, 'config', '.env.production'), `API_KEY=${SECRET}\n`);
      symlinkSync(join(fx.ws, 'config', '.env.production'), join(fx.ws, 'settings.txt'));
    },
    attack: 'cat settings.txt',
    check: (_fx, out) => leaked(out),
  },
  {
    name: 'the workspace .npmrc with an auth token',
    bullet: 'secrets',
    ...read('.npmrc', `//registry.npmjs.org/:_authToken=${SECRET}\n`),
  },
  {
    name: 'a private key in the workspace (deploy/server.key)',
    bullet: 'secrets',
    ...read('deploy/server.key', `-----BEGIN PRIVATE KEY-----\n${SECRET}\n-----END PRIVATE KEY-----\n`),
  },
  {
    name: '~/.aws/credentials',
    bullet: 'secrets',
    attack: 'cat ~/.aws/credentials',
    check: (_fx, out) => leaked(out),
  },
  {
    name: '~/.netrc',
    bullet: 'secrets',
    ...read('~/.netrc', `machine example.invalid login u password ${SECRET}\n`),
  },
  {
    name: '~/.git-credentials',
    bullet: 'secrets',
    ...read('~/.git-credentials', `https://u:${SECRET}@example.invalid\n`),
  },
  {
    name: 'a hard link to ~/.aws/credentials made by the user in the workspace',
    bullet: 'secrets',
    setup: (fx) => {
      write(join(fx.home, '.aws', 'credentials'), `[default]\naws_secret_access_key = ${SECRET}\n`);
      linkSync(join(fx.home, '.aws', 'credentials'), join(fx.ws, 'aws.txt'));
    },
    attack: 'cat aws.txt',
    check: (_fx, out) => leaked(out),
  },
];
