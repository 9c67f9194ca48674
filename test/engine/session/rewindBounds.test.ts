// Where a rewind may put files back, judged on paths read back from the journal (docs/sessions.md, "Rewind"): inside
// the workspace, never into a version-control folder or a folder git would take for its own, and only from a kept
// copy that still is what its record says. Rows: {name, setup, path, refused}.
import {
  appendFileSync,
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rewind } from '../../../src/engine/session/rewind';
import { restoreSpot } from '../../../src/engine/session/rewindBounds';
import {
  makeEngine,
  runPrompt,
  skipReplayCheck,
  verifyEnginesAfterEach,
  type EngineHarness,
} from '../../helpers/engineHarness';
import { tempDir } from '../../helpers/files';

verifyEnginesAfterEach();

interface Row {
  name: string;
  setup?(ws: string): void;
  path(ws: string): unknown;
  refused?: RegExp;
}

const gitDir = (dir: string) => {
  mkdirSync(join(dir, 'objects'), { recursive: true });
  mkdirSync(join(dir, 'refs'), { recursive: true });
  writeFileSync(join(dir, 'HEAD'), 'ref: refs/heads/main\n');
};

const rows: Row[] = [
  { name: 'a file of the workspace', path: (ws) => join(ws, 'src', 'a.ts') },
  {
    name: "a file of the session's scratch folder (another workspace root)",
    path: (ws) => join(ws, '..', 'scratch', 'plans', 'p.md').replace('/work/..', ''),
  },
  { name: 'a file outside the workspace', path: () => '/etc/profile.d/evil.sh', refused: /outside the workspace/ },
  {
    name: 'the home folder',
    path: (ws) => join(ws, '..', 'home', '.bash_profile').replace('/work/..', ''),
    refused: /outside the workspace/,
  },
  {
    name: "the workspace's git hooks",
    path: (ws) => join(ws, '.git', 'hooks', 'pre-commit'),
    refused: /version-control folder/,
  },
  {
    name: "a nested repository's config",
    path: (ws) => join(ws, 'vendor', 'lib', '.git', 'config'),
    refused: /version-control folder/,
  },
  {
    name: 'a .git spelled in capitals',
    path: (ws) => join(ws, '.GIT', 'hooks', 'pre-commit'),
    refused: /version-control folder/,
  },
  { name: 'a worktree .git file', path: (ws) => join(ws, 'wt', '.git'), refused: /version-control folder/ },
  { name: "a Mercurial repository's hgrc", path: (ws) => join(ws, '.hg', 'hgrc'), refused: /version-control folder/ },
  {
    name: 'a bare repository inside the workspace (a git directory by its contents)',
    setup: (ws) => gitDir(join(ws, 'mirror.git')),
    path: (ws) => join(ws, 'mirror.git', 'hooks', 'post-checkout'),
    refused: /mirror\.git is a git directory/,
  },
  {
    name: 'the git directory a .git file points to',
    setup: (ws) => {
      mkdirSync(join(ws, 'wt'), { recursive: true });
      writeFileSync(join(ws, 'wt', '.git'), 'gitdir: ../store\n');
      gitDir(join(ws, 'store'));
    },
    path: (ws) => join(ws, 'store', 'config'),
    refused: /store is a git directory/,
  },
  { name: 'a path with ..', path: (ws) => `${ws}/src/../../outside.txt`, refused: /not a plain absolute path/ },
  { name: 'a relative path', path: () => 'src/a.ts', refused: /not a plain absolute path/ },
  { name: 'not a string', path: () => ({ toString: () => '/x' }), refused: /not a plain absolute path/ },
  { name: 'the workspace folder itself', path: (ws) => ws, refused: /outside the workspace/ },
];

describe('where a rewind may restore a file', () => {
  it.each(rows.map((r): [string, Row] => [r.name, r]))('%s', (_name, row) => {
    const root = tempDir();
    const ws = join(root, 'work');
    mkdirSync(ws);
    row.setup?.(ws);
    const spot = restoreSpot(row.path(ws), [ws, join(root, 'scratch')]);
    if (row.refused) expect('refused' in spot && spot.refused).toMatch(row.refused);
    else expect(spot).not.toHaveProperty('refused');
  });
});

const sha = (bytes: string | Buffer) => createHash('sha256').update(bytes).digest('hex');
const line = (body: Record<string, unknown>) => `${JSON.stringify({ v: 1, ts: 1, ...body })}\n`;

/** A planted user turn saying the agent deleted `path`, whose earlier bytes are `text` (a blob named `hash`). */
function plantDeletion(
  h: EngineHarness,
  path: string,
  text: string,
  opts: { hash?: string; size?: number; mode?: number } = {},
) {
  const hash = opts.hash ?? sha(text);
  const blobs = join(h.runtime.session.dir, 'file-history');
  mkdirSync(blobs, { recursive: true });
  writeFileSync(join(blobs, hash), text);
  const before = {
    kind: 'file',
    size: opts.size ?? Buffer.byteLength(text),
    hash,
    mode: opts.mode ?? 0o644,
    kept: true,
  };
  appendFileSync(
    h.runtime.session.journalPath,
    line({ type: 'turn_start', turnId: 'tplant', origin: 'user', prompt: 'planted' }) +
      line({ type: 'file_changes', changes: [{ path, before, after: { kind: 'absent' } }] }) +
      line({ type: 'turn_end', turnId: 'tplant', reason: 'completed' }),
  );
}

async function rewindPlanted(h: EngineHarness) {
  const { Session } = await import('../../../src/engine/session/session');
  const session = Session.open(h.runtime.session.location);
  return rewind({ session, workspace: h.runtime.workspace }, { scope: 'files' });
}

describe('a planted file history', () => {
  it('a kept copy that no longer hashes to its name, or holds another size than recorded, is not restored', async () => {
    const h = makeEngine({ responses: [{ text: 'ok' }] });
    skipReplayCheck(h);
    await runPrompt(h, 'hello');
    const path = join(h.cwd, 'a.txt');
    plantDeletion(h, path, 'tampered bytes', { hash: sha('the real bytes') });
    const damaged = await rewindPlanted(h);
    expect(damaged.skipped[0].reason).toMatch(/is damaged/);
    expect(existsSync(path)).toBe(false);
  });

  it('a wrong size is refused; set-id bits are never restored', async () => {
    const h = makeEngine({ responses: [{ text: 'ok' }] });
    skipReplayCheck(h);
    await runPrompt(h, 'hello');
    plantDeletion(h, join(h.cwd, 'b.sh'), '#!/bin/sh\n', { size: 3 });
    expect((await rewindPlanted(h)).skipped[0].reason).toMatch(/holds 10 bytes, not the 3 its record says/);
    const h2 = makeEngine({ responses: [{ text: 'ok' }] });
    skipReplayCheck(h2);
    await runPrompt(h2, 'hello');
    plantDeletion(h2, join(h2.cwd, 'tool.sh'), '#!/bin/sh\n', { mode: 0o4755 });
    const restored = await rewindPlanted(h2);
    expect(restored.restored).toEqual([{ path: join(h2.cwd, 'tool.sh'), action: 'recreated' }]);
    expect(statSync(join(h2.cwd, 'tool.sh')).mode & 0o7777).toBe(0o755);
  });

  it('a folder of the workspace swapped for a link is not written through', async () => {
    const h = makeEngine({ responses: [{ text: 'ok' }] });
    skipReplayCheck(h);
    await runPrompt(h, 'hello');
    const elsewhere = tempDir();
    writeFileSync(join(elsewhere, 'keep.txt'), 'mine\n');
    chmodSync(elsewhere, 0o755);
    symlinkSync(elsewhere, join(h.cwd, 'src'));
    plantDeletion(h, join(h.cwd, 'src', 'keep.txt'), 'planted over\n');
    const result = await rewindPlanted(h);
    expect(result.skipped[0].reason).toMatch(/src is a symbolic link, which a rewind never follows/);
    expect(readFileSync(join(elsewhere, 'keep.txt'), 'utf8')).toBe('mine\n');
  });
});
