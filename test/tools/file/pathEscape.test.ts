// The path-escape corpus at the tool level: `..`, absolute paths and symlinks (dangling ones too) all
// resolve to the canonical path they touch, in subjects and accesses. Whether that path may be
// touched is decided by the approval policy (test/engine/workspaceGuard.test.ts).
import { existsSync, mkdirSync, realpathSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Tool } from '../../../src/tools/defineTool';
import {
  editTool,
  globTool,
  grepTool,
  isSensitivePath,
  readMediaFileTool,
  readTool,
  writeTool,
} from '../../../src/tools/file';
import { makeToolHarness } from '../../helpers/toolHarness';
import { prepareCall } from './prepareCall';

function world() {
  const outside = realpathSync(mkdtempSync(join(tmpdir(), 'jarvis-outside-')));
  writeFileSync(join(outside, 'secret.txt'), 'outside content\n');
  const h = makeToolHarness();
  mkdirSync(join(h.cwd, 'sub'));
  mkdirSync(join(h.cwd, 'keys'));
  writeFileSync(join(h.cwd, 'a.txt'), 'inside\n');
  writeFileSync(join(h.cwd, 'keys', 'id_rsa'), 'PRIVATE\n');
  symlinkSync(join(outside, 'secret.txt'), join(h.cwd, 'link-out.txt'));
  symlinkSync(outside, join(h.cwd, 'dir-out'));
  symlinkSync(join(h.cwd, 'a.txt'), join(h.cwd, 'link-in.txt'));
  symlinkSync(join(h.cwd, 'keys', 'id_rsa'), join(h.cwd, 'notes.txt'));
  symlinkSync(join(outside, 'created-by-link.txt'), join(h.cwd, 'dangling.txt'));
  symlinkSync(join(outside, 'not-yet'), join(h.cwd, 'dangling-dir'));
  return { h, outside };
}

type Case = [string, Tool, Record<string, unknown>, (o: string) => string];

// Every way of naming a file outside cwd resolves to the real file there, so the approval policy
// (engine/policy/approvals.ts) gets one subject and one access to judge, whatever form the model chose.
const ESCAPING: Case[] = [
  ['Read ../x', readTool, { path: '../x.txt' }, () => 'Read(<parent>/x.txt)'],
  ['Read sub/../../x', readTool, { path: 'sub/../../x.txt' }, () => 'Read(<parent>/x.txt)'],
  ['Read through a file symlink', readTool, { path: 'link-out.txt' }, (o) => `Read(${o}/secret.txt)`],
  ['Read through a folder symlink', readTool, { path: 'dir-out/secret.txt' }, (o) => `Read(${o}/secret.txt)`],
  ['Write ../x', writeTool, { path: '../new.txt', content: 'x' }, () => 'Write(<parent>/new.txt)'],
  ['Write into a folder symlink', writeTool, { path: 'dir-out/new.txt', content: 'x' }, (o) => `Write(${o}/new.txt)`],
  [
    'Write through a dangling symlink',
    writeTool,
    { path: 'dangling.txt', content: 'x' },
    (o) => `Write(${o}/created-by-link.txt)`,
  ],
  [
    'Write under a dangling folder symlink',
    writeTool,
    { path: 'dangling-dir/deep/x.txt', content: 'x' },
    (o) => `Write(${o}/not-yet/deep/x.txt)`,
  ],
  [
    'Edit through a symlink',
    editTool,
    { path: 'link-out.txt', old_string: 'a', new_string: 'b' },
    (o) => `Edit(${o}/secret.txt)`,
  ],
  ['Grep ..', grepTool, { pattern: 'x', path: '..' }, () => 'Grep(<parent>)'],
  ['Grep folder symlink', grepTool, { pattern: 'x', path: 'dir-out' }, (o) => `Grep(${o})`],
  ['Glob path ..', globTool, { pattern: '*', path: '..' }, () => 'Glob(<parent>)'],
  ['Glob pattern ../**', globTool, { pattern: '../**/*.txt' }, () => 'Glob(<parent>)'],
  ['ReadMediaFile ../x', readMediaFileTool, { path: '../x.png' }, () => 'ReadMediaFile(<parent>/x.png)'],
];

describe('path escapes', () => {
  it.each(ESCAPING)(
    '%s resolves to the real path outside cwd, as its absolute form does',
    (_name, tool, args, expected) => {
      const { h, outside } = world();
      const prepared = prepareCall(h, tool, args);
      expect(prepared.error).toBeUndefined();
      const subject = expected(outside).replace('<parent>', dirname(h.cwd));
      expect(prepared.subject).toBe(subject);
      const path = subject.slice(subject.indexOf('(') + 1, -1);
      expect(prepared.accesses.map((a) => (a.kind === 'exec' ? a.cwd : a.path))).toEqual([path]);
      const absoluteArgs = { ...args, path, ...(tool.name === 'Glob' ? { pattern: '*' } : {}) };
      expect(prepareCall(h, tool, absoluteArgs).subject).toBe(subject);
    },
  );

  it('a dangling link is judged by its target: writing through it creates the target', async () => {
    const { h, outside } = world();
    expect((await h.run(writeTool, { path: 'dangling.txt', content: 'x' })).isError).toBeFalsy();
    expect(existsSync(join(outside, 'created-by-link.txt'))).toBe(true);
  });

  it('a link loop is reported as the path written, not followed for ever', () => {
    const { h } = world();
    symlinkSync(join(h.cwd, 'loop-b'), join(h.cwd, 'loop-a'));
    symlinkSync(join(h.cwd, 'loop-a'), join(h.cwd, 'loop-b'));
    expect(prepareCall(h, readTool, { path: 'loop-a' }).subject).toMatch(/^Read\(.*\/loop-[ab]\)$/);
  });

  it('allows absolute paths outside cwd and reports them canonically', async () => {
    const { h, outside } = world();
    const abs = join(outside, 'secret.txt');
    expect(prepareCall(h, readTool, { path: abs }).subject).toBe(`Read(${abs})`);
    expect((await h.run(readTool, { path: abs })).text).toBe('1\toutside content');
    // An absolute path through the symlink is allowed too, and resolves to the real file.
    expect(prepareCall(h, readTool, { path: join(h.cwd, 'link-out.txt') }).subject).toBe(`Read(${abs})`);
    expect(prepareCall(h, writeTool, { path: join(outside, 'new.txt'), content: 'x' }).subject).toBe(
      `Write(${join(outside, 'new.txt')})`,
    );
    expect(prepareCall(h, grepTool, { pattern: 'x', path: outside }).subject).toBe(`Grep(${outside})`);
  });

  it('resolves in-tree .. and in-tree symlinks to the real file', async () => {
    const { h } = world();
    expect(prepareCall(h, readTool, { path: 'sub/../a.txt' }).subject).toBe(`Read(${join(h.cwd, 'a.txt')})`);
    expect(prepareCall(h, readTool, { path: './a.txt' }).subject).toBe(`Read(${join(h.cwd, 'a.txt')})`);
    const viaLink = prepareCall(h, readTool, { path: 'link-in.txt' });
    expect(viaLink.subject).toBe(`Read(${join(h.cwd, 'a.txt')})`);
    expect(viaLink.accesses).toEqual([{ kind: 'read', path: join(h.cwd, 'a.txt'), tracked: true }]);
  });

  it('a Read through a link and an Edit of the target share one guard entry', async () => {
    const { h } = world();
    await h.run(readTool, { path: 'link-in.txt' });
    const r = await h.run(editTool, { path: 'a.txt', old_string: 'inside', new_string: 'changed' });
    expect(r.isError).toBeFalsy();
  });

  it('shows a harmless-looking link to a private key as the key (so approval can ask)', () => {
    const { h } = world();
    const subject = prepareCall(h, readTool, { path: 'notes.txt' }).subject;
    expect(subject).toBe(`Read(${join(h.cwd, 'keys', 'id_rsa')})`);
    expect(isSensitivePath(subject.slice('Read('.length, -1))).toBe(true);
  });

  it('canonicalises new files under symlinked folders inside cwd', () => {
    const { h } = world();
    symlinkSync(join(h.cwd, 'sub'), join(h.cwd, 'sub-link'));
    expect(prepareCall(h, writeTool, { path: 'sub-link/deep/new.txt', content: 'x' }).subject).toBe(
      `Write(${join(h.cwd, 'sub', 'deep', 'new.txt')})`,
    );
  });

  it('expands ~ as an absolute path', () => {
    const { h } = world();
    const subject = prepareCall(h, readTool, { path: '~/.jarvis-test-nonexistent/file.txt' }).subject;
    expect(subject).toBe(`Read(${join(realpathSync(homedir()), '.jarvis-test-nonexistent', 'file.txt')})`);
  });

  it.each([
    ['an empty path', ''],
    ['a NUL byte', 'a\u0000b.txt'],
  ])('rejects %s', async (_name, path) => {
    const { h } = world();
    const r = await h.run(readTool, { path });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/path/);
  });
});
