// Paths that hold under races (docs/approvals.md "Paths that hold under races"): a call is judged on
// the canonical path, then the path is swapped for a link out of the workspace before the tool opens
// it. The tool must open the approved file or nothing. First the swap made by hand at the worst moment,
// then a separate process flipping the entries thousands of times while Reads and Writes run.
import { spawn } from 'node:child_process';
import {
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decideApproval } from '../../../src/engine/policy/approvals';
import type { FileStateGuard } from '../../../src/engine/session/fileGuard';
import { workspaceOf } from '../../../src/engine/policy/workspace';
import { executeToolCall, prepareToolCall, type ToolRunEnv } from '../../../src/engine/loop/toolRunner';
import type { ServiceKey, Tool, ToolServices } from '../../../src/tools/defineTool';
import { editTool } from '../../../src/tools/file/editTool';
import { readTool } from '../../../src/tools/file/readTool';
import { isSensitivePath } from '../../../src/tools/file/sensitivePaths';
import { writeTool } from '../../../src/tools/file/writeTool';

const OUTSIDE = 'OUTSIDE-SECRET';

interface World {
  root: string;
  cwd: string;
  outside: string;
  env: ToolRunEnv;
}

/** root/work (cwd) and root/outside; a guard that lets every write through (the read-before-write guard is not under test). */
function world(): World {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'jarvis-race-')));
  const cwd = join(root, 'work');
  const outside = join(root, 'outside');
  mkdirSync(cwd);
  mkdirSync(outside);
  writeFileSync(join(outside, 'f.txt'), `${OUTSIDE}\n`);
  const services: ToolServices = {
    scratchDir: join(root, 'session', 'scratch'),
    nonInteractive: true,
    mainAgent: true,
    get<T>(key: ServiceKey<T>): T {
      throw new Error(`no service ${key.name}`);
    },
    find: () => undefined,
  };
  const guard = {
    check: async () => undefined,
    capture: async () => [],
    entries: () => [],
  } as unknown as FileStateGuard;
  return { root, cwd, outside, env: { cwd, services, guard, onProgress: () => undefined } };
}

let n = 0;
function prepare(w: World, tool: Tool, args: Record<string, unknown>) {
  return prepareToolCall(
    { id: `c${++n}`, name: tool.name, arguments: JSON.stringify(args) },
    new Map([[tool.name, tool]]),
    w.env,
  );
}

/** The auto-mode judgement of a prepared call, as the engine makes it. */
function judged(w: World, prepared: ReturnType<typeof prepare>): 'allow' | 'deny' | 'ask' {
  return decideApproval({
    toolName: prepared.call.name,
    subject: prepared.subject,
    accesses: prepared.accesses,
    defaultApproval: prepared.tool?.defaultApproval ?? 'ask',
    mode: 'auto',
    rules: [],
    sessionApprovals: [],
    cwd: w.cwd,
    workspace: workspaceOf({ cwd: w.cwd }),
    isSensitivePath,
  }).decision;
}

async function run(w: World, prepared: ReturnType<typeof prepare>): Promise<string> {
  const { result } = await executeToolCall(prepared, w.env, new AbortController().signal);
  return typeof result.content === 'string' ? result.content : JSON.stringify(result.content);
}

describe('a path swapped between judgement and use', () => {
  it('Read: a folder on the way swapped for a link out is refused, nothing read', async () => {
    const w = world();
    mkdirSync(join(w.cwd, 'sw'));
    writeFileSync(join(w.cwd, 'sw', 'f.txt'), 'INSIDE\n');
    const call = prepare(w, readTool, { path: 'sw/f.txt' });
    expect(judged(w, call)).toBe('allow');
    renameSync(join(w.cwd, 'sw'), join(w.cwd, 'sw.real'));
    symlinkSync(w.outside, join(w.cwd, 'sw'));
    const text = await run(w, call);
    expect(text).toContain(
      `${join(w.cwd, 'sw', 'f.txt')} was replaced while it was being opened (it now leads to ${join(w.outside, 'f.txt')})`,
    );
    expect(text).not.toContain(OUTSIDE);
  });

  it('Read and Edit: the file itself swapped for a link out is refused, the outside file unchanged', async () => {
    const w = world();
    writeFileSync(join(w.cwd, 'leaf.txt'), 'INSIDE\n');
    const read = prepare(w, readTool, { path: 'leaf.txt' });
    const edit = prepare(w, editTool, { path: 'leaf.txt', old_string: 'SECRET', new_string: 'CHANGED' });
    renameSync(join(w.cwd, 'leaf.txt'), join(w.cwd, 'leaf.real'));
    symlinkSync(join(w.outside, 'f.txt'), join(w.cwd, 'leaf.txt'));
    expect(await run(w, read)).toContain('was replaced while it was being opened (it now leads to a symbolic link)');
    expect(await run(w, edit)).toContain('was replaced while it was being opened');
    expect(readFileSync(join(w.outside, 'f.txt'), 'utf8')).toBe(`${OUTSIDE}\n`);
  });

  it('Write: a new file in a folder swapped for a link out is not created outside; missing folders neither', async () => {
    const w = world();
    mkdirSync(join(w.cwd, 'sw'));
    const create = prepare(w, writeTool, { path: 'sw/new.txt', content: 'x' });
    const deep = prepare(w, writeTool, { path: 'sw/a/b/new.txt', content: 'x' });
    const over = prepare(w, writeTool, { path: 'sw/f.txt', content: 'overwritten' });
    renameSync(join(w.cwd, 'sw'), join(w.cwd, 'sw.real'));
    symlinkSync(w.outside, join(w.cwd, 'sw'));
    for (const call of [create, deep, over])
      expect(await run(w, call)).toContain('was replaced while it was being opened');
    expect(readdirSync(w.outside)).toEqual(['f.txt']);
    expect(readFileSync(join(w.outside, 'f.txt'), 'utf8')).toBe(`${OUTSIDE}\n`);
  });

  it('a hard link made after the judgement is refused by the tool', async () => {
    const w = world();
    writeFileSync(join(w.cwd, 'plain.txt'), 'INSIDE\n');
    const read = prepare(w, readTool, { path: 'plain.txt' });
    expect(judged(w, read)).toBe('allow');
    renameSync(join(w.cwd, 'plain.txt'), join(w.cwd, 'plain.old'));
    linkSync(join(w.outside, 'f.txt'), join(w.cwd, 'plain.txt'));
    const text = await run(w, read);
    expect(text).toContain(
      `${join(w.cwd, 'plain.txt')} has 2 hard links: its other names may be outside the workspace`,
    );
    expect(text).not.toContain(OUTSIDE);
  });
});

/** A separate process that swaps `sw` (a folder) and `leaf.txt` (a file) between a real entry and a link out until told to stop. */
function startFlipper(w: World): { stop(): Promise<number> } {
  mkdirSync(join(w.cwd, 'sw'));
  writeFileSync(join(w.cwd, 'sw', 'f.txt'), 'INSIDE\n');
  writeFileSync(join(w.cwd, 'leaf.txt'), 'INSIDE\n');
  symlinkSync(w.outside, join(w.cwd, 'sw.link'));
  symlinkSync(join(w.outside, 'f.txt'), join(w.cwd, 'leaf.link'));
  const stopFile = join(w.root, 'stop');
  const script = `
    const { renameSync, existsSync, rmSync } = require('node:fs');
    const at = (n) => ${JSON.stringify(w.cwd)} + '/' + n;
    // A Write that found the name missing (between two renames) made a folder there: clear it away.
    const place = (from, name) => {
      // Bounded: a Write may make the folder again between the clearing and the rename.
      for (let attempt = 0; ; attempt++) {
        try {
          renameSync(at(from), at(name));
          return;
        } catch (e) {
          if (attempt >= 1000 || !['EISDIR', 'ENOTEMPTY', 'EEXIST', 'ENOTDIR'].includes(e.code)) throw e;
          // A Write may add a file inside while it is cleared (ENOTEMPTY): the next attempt clears again.
          try {
            rmSync(at(name), { recursive: true, force: true, maxRetries: 5 });
          } catch (r) {
            if (r.code !== 'ENOTEMPTY') throw r;
          }
        }
      }
    };
    let flips = 0;
    // Bounded: it stops when told to, or after this many flips.
    for (let i = 0; i < 5000000 && !existsSync(${JSON.stringify(stopFile)}); i++) {
      const real = i % 2 === 0;
      place('sw', real ? 'sw.real' : 'sw.link');
      place(real ? 'sw.link' : 'sw.real', 'sw');
      place('leaf.txt', real ? 'leaf.real' : 'leaf.link');
      place(real ? 'leaf.link' : 'leaf.real', 'leaf.txt');
      flips++;
    }
    process.stdout.write(String(flips));`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number>((resolve) => child.on('exit', () => resolve(Number(out))));
  return {
    async stop() {
      writeFileSync(stopFile, '');
      return exited;
    },
  };
}

describe('a path flipped by another process during Reads and Writes', () => {
  it('over 1 000 flips: no Read returns the outside file, no Write lands outside', { timeout: 240_000 }, async () => {
    const w = world();
    const flipper = startFlipper(w);
    const tally = { reads: 0, readsInside: 0, writes: 0, refusedByPolicy: 0, refusedAtOpen: 0 };
    let escapes = 0;
    // Enough calls to span the flips; bounded either way.
    for (let i = 0; i < 1500; i++) {
      const calls = [
        prepare(w, readTool, { path: 'sw/f.txt' }),
        prepare(w, readTool, { path: 'leaf.txt' }),
        prepare(w, writeTool, { path: `sw/new-${i}.txt`, content: 'x' }),
        prepare(w, writeTool, { path: 'leaf.txt', content: `INSIDE ${i}\n` }),
      ];
      for (const call of calls) {
        if (judged(w, call) !== 'allow') {
          tally.refusedByPolicy++;
          continue;
        }
        const text = await run(w, call);
        if (text.includes('was replaced while it was being opened')) tally.refusedAtOpen++;
        if (call.call.name === 'Read') {
          tally.reads++;
          if (text.includes(OUTSIDE)) escapes++;
          if (text.includes('INSIDE')) tally.readsInside++;
        } else tally.writes++;
      }
    }
    const flips = await flipper.stop();
    const outsideFiles = readdirSync(w.outside);
    escapes += outsideFiles.filter((f) => f !== 'f.txt').length;
    if (readFileSync(join(w.outside, 'f.txt'), 'utf8') !== `${OUTSIDE}\n`) escapes++;
    console.log(`path race: ${flips} flips, ${JSON.stringify(tally)}, ${escapes} escapes`);
    expect(flips).toBeGreaterThanOrEqual(1000);
    expect(escapes).toBe(0);
    expect(outsideFiles).toEqual(['f.txt']);
    expect(existsSync(join(w.outside, 'new-0.txt'))).toBe(false);
  });
});
