// Jarvis's own files below a folder it owns are never written or read through a link or a special file, wherever on
// the way the link stands (docs/sessions.md, "Links are never followed"). Each row plants something where a file or a
// folder of ours should be, the way a sandboxed command could in the scratch folder, and tries every operation.
import { spawnSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  appendFileBelow,
  LinkInTheWayError,
  mkdirBelow,
  OPEN,
  openBelow,
  pathBelow,
  readFileBelow,
  removeBelow,
  writeFileBelow,
} from '../../src/store/ownedFiles';
import { appendPrivateFileSync, replacePrivateFileSync, writePrivateFileSync } from '../../src/store/privateFiles';

function world() {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'owned-')));
  const mine = join(root, 'mine');
  const victimDir = join(root, 'victim');
  mkdirSync(mine);
  mkdirSync(victimDir);
  const victim = join(victimDir, '.bashrc');
  writeFileSync(victim, 'original\n');
  return { mine, victimDir, victim };
}

type World = ReturnType<typeof world>;

const plants: Array<{ name: string; plant(w: World): void; rel: string; said: RegExp }> = [
  {
    name: 'a link where the file is',
    plant: (w) => symlinkSync(w.victim, join(w.mine, 'out.txt')),
    rel: 'out.txt',
    said: /out\.txt is a symbolic link/,
  },
  {
    name: 'a link where a folder on the way is',
    plant: (w) => symlinkSync(w.victimDir, join(w.mine, 'tool-outputs')),
    rel: 'tool-outputs/.bashrc',
    said: /tool-outputs is a symbolic link/,
  },
  {
    name: 'a dangling link where the file is (it would be created at its target)',
    plant: (w) => symlinkSync(join(w.victimDir, 'created-by-link'), join(w.mine, 'out.txt')),
    rel: 'out.txt',
    said: /out\.txt is a symbolic link/,
  },
  {
    name: 'a FIFO where the file is (opening it would block)',
    plant: (w) => expect(spawnSync('mkfifo', [join(w.mine, 'out.txt')]).status).toBe(0),
    rel: 'out.txt',
    said: /out\.txt is a special file/,
  },
];

const operations: Array<{ name: string; run(w: World, rel: string): unknown; writes: boolean }> = [
  { name: 'append', run: (w, rel) => appendFileBelow(w.mine, rel, 'x\n', { makeDirs: true }), writes: true },
  { name: 'read', run: (w, rel) => readFileBelow(w.mine, rel), writes: false },
  { name: 'open for output', run: (w, rel) => openBelow(w.mine, rel, OPEN.O_WRONLY | OPEN.O_CREAT), writes: true },
];

describe('files below a folder Jarvis owns', () => {
  for (const plant of plants)
    for (const op of operations)
      it(`${op.name} refuses ${plant.name}, naming it, and touches nothing outside`, () => {
        const w = world();
        plant.plant(w);
        expect(() => op.run(w, plant.rel)).toThrow(LinkInTheWayError);
        expect(() => op.run(w, plant.rel)).toThrow(plant.said);
        expect(readFileSync(w.victim, 'utf8')).toBe('original\n');
        expect(readdirSync(w.victimDir)).toEqual(['.bashrc']);
      });

  it('a whole-file write replaces a link at the file name instead of writing through it', () => {
    const w = world();
    symlinkSync(w.victim, join(w.mine, 'state.json'));
    writeFileBelow(w.mine, 'state.json', '{}\n');
    expect(readFileSync(join(w.mine, 'state.json'), 'utf8')).toBe('{}\n');
    expect(readFileSync(w.victim, 'utf8')).toBe('original\n');
  });

  it('a whole-file write refuses a linked folder on the way; removal never follows one', () => {
    const w = world();
    symlinkSync(w.victimDir, join(w.mine, 'plans'));
    expect(() => writeFileBelow(w.mine, 'plans/.bashrc', 'x', { makeDirs: true })).toThrow(/plans is a symbolic link/);
    expect(() => removeBelow(w.mine, 'plans/.bashrc')).toThrow(/plans is a symbolic link/);
    expect(() => mkdirBelow(w.mine, 'plans/deeper')).toThrow(/plans is a symbolic link/);
    expect(readFileSync(w.victim, 'utf8')).toBe('original\n');
    removeBelow(w.mine, 'plans');
    expect(readFileSync(w.victim, 'utf8')).toBe('original\n');
  });

  it('makes missing folders 0700 and files 0600; sets a requested mode before the file takes its name', () => {
    const w = world();
    appendFileBelow(w.mine, 'a/b/log.txt', 'one\n', { makeDirs: true });
    appendFileBelow(w.mine, 'a/b/log.txt', 'two\n');
    expect(readFileSync(join(w.mine, 'a', 'b', 'log.txt'), 'utf8')).toBe('one\ntwo\n');
    expect(statSync(join(w.mine, 'a')).mode & 0o777).toBe(0o700);
    expect(statSync(join(w.mine, 'a', 'b', 'log.txt')).mode & 0o777).toBe(0o600);
    const written = writeFileBelow(w.mine, 'run.sh', '#!/bin/sh\n', { mode: 0o755 });
    expect(written.mode & 0o777).toBe(0o755);
    expect(() => writeFileBelow(w.mine, 'run.sh', 'again', { exclusive: true })).toThrow(/EEXIST/);
  });

  it('refuses paths that leave the folder, and says which paths are inside one', () => {
    const w = world();
    for (const rel of ['../victim/.bashrc', '/etc/passwd', 'a/../../victim/.bashrc', ''])
      expect(() => writeFileBelow(w.mine, rel, 'x', { makeDirs: true })).toThrow(/not a path below/);
    expect(readFileSync(w.victim, 'utf8')).toBe('original\n');
    expect(pathBelow('/s', '/s/a/b')).toBe('a/b');
    expect(pathBelow('/s', '/s')).toBeUndefined();
    expect(pathBelow('/s', '/s2/a')).toBeUndefined();
    expect(pathBelow('/s', '/s/../etc')).toBeUndefined();
  });
});

describe('private files under the data root', () => {
  it('never write through a link or block on a FIFO standing where the file is', () => {
    const w = world();
    symlinkSync(w.victim, join(w.mine, 'session_index.jsonl'));
    expect(() => appendPrivateFileSync(join(w.mine, 'session_index.jsonl'), 'x\n')).toThrow(/is a symbolic link/);
    expect(() => writePrivateFileSync(join(w.mine, 'session_index.jsonl'), 'x\n')).toThrow(/is a symbolic link/);
    expect(spawnSync('mkfifo', [join(w.mine, 'crash.log')]).status).toBe(0);
    expect(() => appendPrivateFileSync(join(w.mine, 'crash.log'), 'x\n')).toThrow(/special file/);
    // An atomic replace takes the link's place without following it.
    replacePrivateFileSync(join(w.mine, 'session_index.jsonl'), 'new\n');
    expect(readFileSync(join(w.mine, 'session_index.jsonl'), 'utf8')).toBe('new\n');
    expect(readFileSync(w.victim, 'utf8')).toBe('original\n');
  });
});
