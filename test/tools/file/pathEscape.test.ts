// The path-escape corpus: "relative to cwd; outside cwd must be absolute" (SPEC §6.1), with
// canonical (symlink-resolved) paths in subjects and accesses.
import { existsSync, mkdirSync, realpathSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Tool } from '../../../src/tools/defineTool';
import { editTool, globTool, grepTool, isSensitivePath, readMediaFileTool, readTool, writeTool } from '../../../src/tools/file';
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
  return { h, outside };
}

type Case = [string, Tool, (o: string) => Record<string, unknown>];

const ESCAPING: Case[] = [
  ['Read ../x', readTool, () => ({ path: '../x.txt' })],
  ['Read sub/../../x', readTool, () => ({ path: 'sub/../../x.txt' })],
  ['Read through a file symlink', readTool, () => ({ path: 'link-out.txt' })],
  ['Read through a folder symlink', readTool, () => ({ path: 'dir-out/secret.txt' })],
  ['Write ../x', writeTool, () => ({ path: '../new.txt', content: 'x' })],
  ['Write into a folder symlink', writeTool, () => ({ path: 'dir-out/new.txt', content: 'x' })],
  ['Edit through a symlink', editTool, () => ({ path: 'link-out.txt', old_string: 'a', new_string: 'b' })],
  ['Grep ..', grepTool, () => ({ pattern: 'x', path: '..' })],
  ['Grep folder symlink', grepTool, () => ({ pattern: 'x', path: 'dir-out' })],
  ['Glob path ..', globTool, () => ({ pattern: '*', path: '..' })],
  ['Glob pattern ../**', globTool, () => ({ pattern: '../**/*.txt' })],
  ['ReadMediaFile ../x', readMediaFileTool, () => ({ path: '../x.png' })],
];

describe('path escapes', () => {
  it.each(ESCAPING)('%s is rejected before approval, naming the absolute path to use', async (_name, tool, args) => {
    const { h, outside } = world();
    const prepared = prepareCall(h, tool, args(outside));
    expect(prepared.error).toContain('must be absolute');
    const r = await h.run(tool, args(outside));
    expect(r.isError).toBe(true);
    expect(r.text).toContain('outside the working directory');
  });

  it('names the canonical target of an escaping symlink', () => {
    const { h, outside } = world();
    expect(prepareCall(h, readTool, { path: 'link-out.txt' }).error).toContain(`"${join(outside, 'secret.txt')}"`);
  });

  it('writes nothing outside cwd through a rejected path', async () => {
    const { h, outside } = world();
    await h.run(writeTool, { path: 'dir-out/new.txt', content: 'x' });
    await h.run(writeTool, { path: '../escaped.txt', content: 'x' });
    expect(existsSync(join(outside, 'new.txt'))).toBe(false);
    expect(existsSync(join(h.cwd, '..', 'escaped.txt'))).toBe(false);
  });

  it('allows absolute paths outside cwd and reports them canonically', async () => {
    const { h, outside } = world();
    const abs = join(outside, 'secret.txt');
    expect(prepareCall(h, readTool, { path: abs }).subject).toBe(`Read(${abs})`);
    expect((await h.run(readTool, { path: abs })).text).toBe('1\toutside content');
    // An absolute path through the symlink is allowed too, and resolves to the real file.
    expect(prepareCall(h, readTool, { path: join(h.cwd, 'link-out.txt') }).subject).toBe(`Read(${abs})`);
    expect(prepareCall(h, writeTool, { path: join(outside, 'new.txt'), content: 'x' }).subject).toBe(`Write(${join(outside, 'new.txt')})`);
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
    expect(prepareCall(h, writeTool, { path: 'sub-link/deep/new.txt', content: 'x' }).subject).toBe(`Write(${join(h.cwd, 'sub', 'deep', 'new.txt')})`);
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
