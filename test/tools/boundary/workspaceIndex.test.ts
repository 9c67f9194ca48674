// The workspace index of the trust boundary (docs/trust-boundary.md "Secrets"): what the first walk finds, and that a
// refresh — one stat per folder, changed folders read again — keeps it current: each row changes the workspace the
// way a user or a command would and says what the index must know after the refresh.
import {
  linkSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WorkspaceIndex } from '../../../src/tools/boundary/workspaceIndex';

function workspace(): string {
  const ws = realpathSync(mkdtempSync(join(tmpdir(), 'index-')));
  mkdirSync(join(ws, 'src', 'a'), { recursive: true });
  writeFileSync(join(ws, 'src', 'a', 'x.ts'), 'x');
  writeFileSync(join(ws, '.env'), 'K=v');
  mkdirSync(join(ws, 'node_modules', 'p'), { recursive: true });
  writeFileSync(join(ws, 'node_modules', 'p', '.env'), 'K=v');
  mkdirSync(join(ws, '.git', 'hooks'), { recursive: true });
  return ws;
}

interface Row {
  name: string;
  change(ws: string): void;
  secrets?: string[];
  notSecrets?: string[];
  git?: string[];
  notGit?: string[];
}

const ROWS: Row[] = [
  {
    name: 'a new .env in an existing folder',
    change: (ws) => writeFileSync(join(ws, 'src', 'a', '.env.local'), 'v'),
    secrets: ['src/a/.env.local'],
  },
  {
    name: 'a new folder holding a key',
    change: (ws) => {
      mkdirSync(join(ws, 'certs', 'prod'), { recursive: true });
      writeFileSync(join(ws, 'certs', 'prod', 'server.key'), 'k');
    },
    secrets: ['certs/prod/server.key'],
  },
  { name: 'a secret removed', change: (ws) => rmSync(join(ws, '.env')), notSecrets: ['.env'] },
  {
    name: 'a secret renamed to a harmless name keeps nothing hidden by that name',
    change: (ws) => renameSync(join(ws, '.env'), join(ws, 'env.txt')),
    notSecrets: ['.env', 'env.txt'],
  },
  {
    name: 'a folder holding a secret renamed',
    change: (ws) => {
      writeFileSync(join(ws, 'src', 'a', 'id_rsa'), 'k');
      renameSync(join(ws, 'src'), join(ws, 'lib'));
    },
    secrets: ['lib/a/id_rsa'],
    notSecrets: ['src/a/id_rsa'],
  },
  {
    name: 'a hard link to a known secret made by the user',
    change: (ws) => linkSync(join(ws, '.env'), join(ws, 'src', 'a', 'notes.md')),
    secrets: ['src/a/notes.md'],
  },
  {
    name: 'a new secret made as a second name of an old file',
    change: (ws) => linkSync(join(ws, 'src', 'a', 'x.ts'), join(ws, '.env.production')),
    secrets: ['.env.production', 'src/a/x.ts'],
  },
  {
    name: 'a symbolic link to a secret',
    change: (ws) => symlinkSync(join(ws, '.env'), join(ws, 'src', 'settings')),
    secrets: ['src/settings'],
  },
  {
    name: 'a new nested repository',
    change: (ws) => mkdirSync(join(ws, 'src', 'a', '.git'), { recursive: true }),
    git: ['src/a/.git'],
  },
  {
    name: 'a .git file',
    change: (ws) => writeFileSync(join(ws, 'src', '.git'), 'gitdir: ../.git/worktrees/x\n'),
    git: ['src/.git'],
  },
  {
    name: 'a folder shaped like a repository',
    change: (ws) => {
      mkdirSync(join(ws, 'bare', 'objects'), { recursive: true });
      mkdirSync(join(ws, 'bare', 'refs'));
      writeFileSync(join(ws, 'bare', 'HEAD'), 'ref: refs/heads/main\n');
    },
    git: ['bare'],
  },
  {
    name: 'nothing under node_modules is walked',
    change: (ws) => writeFileSync(join(ws, 'node_modules', 'p', 'id_rsa'), 'k'),
    notSecrets: ['node_modules/p/id_rsa', 'node_modules/p/.env'],
  },
];

/** Folders made a while ago, so only the change itself makes them change (no re-read for being recent). */
function age(ws: string, paths: string[]): void {
  const old = new Date(Date.now() - 3_600_000);
  for (const p of paths) utimesSync(join(ws, p), old, old);
}

describe('the workspace index', () => {
  it('finds secrets, git entries and skips node_modules on the first walk', async () => {
    const ws = workspace();
    const index = new WorkspaceIndex([ws]);
    await index.ready();
    expect(index.secrets()).toEqual([join(ws, '.env')]);
    expect(index.gitEntries()).toEqual([join(ws, '.git')]);
  });

  it.each(ROWS.map((r) => [r.name, r] as const))('after a refresh: %s', async (_name, row) => {
    const ws = workspace();
    age(ws, ['', 'src', 'src/a']);
    const index = new WorkspaceIndex([ws]);
    await index.ready();
    row.change(ws);
    index.refresh();
    for (const s of row.secrets ?? []) expect(index.secrets()).toContain(join(ws, s));
    for (const s of row.notSecrets ?? []) expect(index.secrets()).not.toContain(join(ws, s));
    for (const g of row.git ?? []) expect(index.gitEntries()).toContain(join(ws, g));
    for (const g of row.notGit ?? []) expect(index.gitEntries()).not.toContain(join(ws, g));
  });

  it('forgets a removed nested repository', async () => {
    const ws = workspace();
    mkdirSync(join(ws, 'src', 'a', '.git'));
    const index = new WorkspaceIndex([ws]);
    await index.ready();
    expect(index.gitEntries()).toContain(join(ws, 'src', 'a', '.git'));
    rmSync(join(ws, 'src', 'a', '.git'), { recursive: true });
    index.refresh();
    expect(index.gitEntries()).not.toContain(join(ws, 'src', 'a', '.git'));
  });

  it('hides the folders past its entry budget, and those it cannot list, instead of leaving them unsearched', async () => {
    const ws = workspace();
    for (let d = 0; d < 5; d++) {
      mkdirSync(join(ws, `gen${d}`));
      for (let f = 0; f < 20; f++) writeFileSync(join(ws, `gen${d}`, `f${f}`), '');
    }
    const index = new WorkspaceIndex([ws], { maxEntries: 30 });
    await index.ready();
    const hidden = [...index.hiddenByRule().keys()];
    expect(hidden.length).toBeGreaterThan(0);
    expect(hidden.every((h) => h.startsWith(ws))).toBe(true);
    // Every folder is either read or hidden.
    expect(hidden).toEqual(expect.arrayContaining([join(ws, 'gen4')]));
  });

  it('finds a hard link to a home credential file made before the session', async () => {
    const ws = workspace();
    const home = realpathSync(mkdtempSync(join(tmpdir(), 'index-home-')));
    writeFileSync(join(home, 'id_ed25519'), 'KEY');
    linkSync(join(home, 'id_ed25519'), join(ws, 'src', 'a', 'k.txt'));
    const index = new WorkspaceIndex([ws], { outsideSecrets: [join(home, 'id_ed25519')] });
    await index.ready();
    expect(index.secrets()).toContain(join(ws, 'src', 'a', 'k.txt'));
  });
});
