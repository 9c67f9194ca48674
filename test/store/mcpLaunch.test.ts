// Which files a project MCP server is started with (docs/mcp.md, "Workspace trust"): the program when it is a file
// inside the workspace (a path, or a bare name PATH finds there), every argument naming a file inside it, the value
// of `--option=path`; not files outside the workspace, folders, bare options, package names or missing files.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { digestFiles, launchPaths, readRegularFile, sha256 } from '../../src/store/mcpLaunch';

function folders() {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'jarvis-launch-')));
  const ws = join(root, 'ws');
  const outside = join(root, 'outside');
  for (const d of [join(ws, 'tools'), join(ws, 'node_modules', '.bin'), outside]) mkdirSync(d, { recursive: true });
  for (const f of [join(ws, 'tools', 'srv.mjs'), join(ws, 'cfg.toml'), join(outside, 'lib.mjs')]) writeFileSync(f, 'x');
  writeFileSync(join(ws, 'node_modules', '.bin', 'ws-tool'), '#!/bin/sh\n');
  chmodSync(join(ws, 'node_modules', '.bin', 'ws-tool'), 0o755);
  return { root, ws, outside };
}

describe('launch files', () => {
  it('the workspace files of the launch line, in order, each once', () => {
    const { ws, outside } = folders();
    const spec = {
      command: 'node',
      args: [
        '--no-warnings',
        'tools/srv.mjs',
        '--config=./cfg.toml',
        join(outside, 'lib.mjs'),
        'tools',
        '@scope/pkg',
        'gone.js',
        './tools/srv.mjs',
      ],
      cwd: ws,
      path: process.env.PATH,
    };
    expect(launchPaths(spec, [ws])).toEqual([join(ws, 'tools', 'srv.mjs'), join(ws, 'cfg.toml')]);
  });

  it('a program by path, or by a bare name PATH finds inside the workspace; not one PATH finds outside', () => {
    const { ws } = folders();
    expect(launchPaths({ command: './tools/srv.mjs', args: [], cwd: ws, path: '' }, [ws])).toEqual([
      join(ws, 'tools', 'srv.mjs'),
    ]);
    const path = `${join(ws, 'node_modules', '.bin')}:${process.env.PATH}`;
    expect(launchPaths({ command: 'ws-tool', args: [], cwd: ws, path }, [ws])).toEqual([
      join(ws, 'node_modules', '.bin', 'ws-tool'),
    ]);
    expect(launchPaths({ command: 'node', args: [], cwd: ws, path }, [ws])).toEqual([]);
  });

  it('a symlink inside the workspace to a file outside it counts (what the link reaches runs)', () => {
    const { ws, outside } = folders();
    symlinkSync(join(outside, 'lib.mjs'), join(ws, 'tools', 'link.mjs'));
    expect(launchPaths({ command: 'node', args: ['tools/link.mjs'], cwd: ws, path: '' }, [ws])).toEqual([
      join(ws, 'tools', 'link.mjs'),
    ]);
  });

  it('read once from a regular file; a FIFO is refused without waiting', () => {
    const { ws } = folders();
    expect(digestFiles([join(ws, 'cfg.toml')])).toEqual([
      { path: join(ws, 'cfg.toml'), digest: sha256(Buffer.from('x')) },
    ]);
    const fifo = join(ws, 'pipe');
    execFileSync('mkfifo', [fifo]);
    expect(readRegularFile(fifo)).toBeUndefined();
    expect(digestFiles([fifo])).toBeUndefined();
  });
});
