import { execFile } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { buildSync } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { MEMORY_LIMITS, MemoryError, MemoryStore, memoryFilePath, type MemoryActor } from '../../src/store/memoryStore';

const MAIN: MemoryActor = { mainAgent: true, origin: 'tool' };
const SUB: MemoryActor = { mainAgent: false, origin: 'tool' };

function makeStore(opts: { trusted?: boolean } = {}) {
  const root = mkdtempSync(join(tmpdir(), 'jarvis-memory-'));
  const home = join(root, 'home');
  const cwd = join(root, 'project');
  mkdirSync(cwd, { recursive: true });
  let trusted = opts.trusted ?? true;
  const store = new MemoryStore({ home, cwd, trusted: () => trusted });
  return { root, home, cwd, store, setTrusted: (value: boolean) => (trusted = value) };
}

async function refusal(promise: Promise<unknown>): Promise<MemoryError> {
  try {
    await promise;
  } catch (e) {
    if (e instanceof MemoryError) return e;
    throw e;
  }
  throw new Error('expected a MemoryError');
}

const draft = (name: string, body = `body of ${name}`) => ({
  scope: 'workspace' as const,
  name,
  description: `about ${name}`,
  body,
});

describe('memory store', () => {
  it('keeps one JSONL file per scope where SPEC §0 decision 7 puts it', async () => {
    const { home, cwd, store } = makeStore();
    await store.remember({ ...draft('u'), scope: 'user' }, MAIN);
    await store.remember(draft('w'), MAIN);
    await store.remember({ ...draft('p'), scope: 'project' }, MAIN);
    expect(memoryFilePath(home, cwd, 'user')).toBe(join(home, 'memory', 'user.jsonl'));
    expect(memoryFilePath(home, cwd, 'workspace')).toMatch(
      new RegExp(`^${home}/memory/workspaces/wd_project_[0-9a-f]{12}\\.jsonl$`),
    );
    expect(memoryFilePath(home, cwd, 'project')).toBe(join(cwd, '.jarvis-code', 'memory.jsonl'));
    for (const scope of ['user', 'workspace', 'project'] as const) {
      const path = memoryFilePath(home, cwd, scope);
      const lines = readFileSync(path, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { op: string; name: string });
      expect(lines).toEqual([expect.objectContaining({ op: 'put', name: scope[0] })]);
      expect(statSync(path).mode & 0o777).toBe(0o600);
    }
    expect(
      store
        .list()
        .records.map((r) => `${r.scope}:${r.name}`)
        .sort(),
    ).toEqual(['project:p', 'user:u', 'workspace:w']);
  });

  it('replaces by name (case-insensitive), keeps the first date, and forgets', async () => {
    const { store } = makeStore();
    const first = await store.remember(draft('Test command', 'npm test'), MAIN, new Date('2026-01-01T00:00:00Z'));
    expect(first.change).toBe('created');
    expect((await store.remember(draft('Test command', 'npm test'), MAIN)).change).toBe('unchanged');
    const second = await store.remember(
      draft('test COMMAND', 'npx vitest run'),
      MAIN,
      new Date('2026-02-01T00:00:00Z'),
    );
    expect(second.change).toBe('replaced');
    const [record] = store.list('workspace').records;
    expect(record).toMatchObject({
      name: 'test COMMAND',
      body: 'npx vitest run',
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-02-01T00:00:00.000Z',
    });
    await store.forget('workspace', 'test command', MAIN);
    expect(store.list('workspace').records).toEqual([]);
    const missing = await refusal(store.forget('workspace', 'nope', MAIN));
    expect(missing.code).toBe('not_found');
    expect(missing.message).toContain('The workspace scope is empty');
  });

  describe('hard limits, each with its own error', () => {
    it('body at most 4096 UTF-8 bytes (multi-byte characters count as bytes)', async () => {
      const { store } = makeStore();
      await store.remember(draft('fits', 'a'.repeat(MEMORY_LIMITS.bodyBytes)), MAIN);
      const e = await refusal(store.remember(draft('too big', 'é'.repeat(2049)), MAIN));
      expect(e.code).toBe('limit');
      expect(e.message).toBe(
        'The body is 4098 bytes (UTF-8); the limit is 4096. Keep one fact per memory and shorten it.',
      );
    });

    it('name at most 200 characters', async () => {
      const { store } = makeStore();
      await store.remember(draft('n'.repeat(200)), MAIN);
      const e = await refusal(store.remember(draft('n'.repeat(201)), MAIN));
      expect(e.message).toBe('The name has 201 characters; the limit is 200. Use a short label.');
    });

    it('description at most 2000 characters', async () => {
      const { store } = makeStore();
      await store.remember({ ...draft('d'), description: 'd'.repeat(2000) }, MAIN);
      const e = await refusal(store.remember({ ...draft('d2'), description: 'd'.repeat(2001) }, MAIN));
      expect(e.message).toBe(
        'The description has 2001 characters; the limit is 2000. Shorten it; details go in the body.',
      );
    });

    it('at most 200 records per scope; replacing one still works at the limit', async () => {
      const { store, home, cwd } = makeStore();
      const path = memoryFilePath(home, cwd, 'workspace');
      mkdirSync(join(home, 'memory', 'workspaces'), { recursive: true });
      const at = new Date().toISOString();
      writeFileSync(
        path,
        Array.from({ length: 200 }, (_, i) =>
          JSON.stringify({ v: 1, op: 'put', name: `m${i}`, description: '', body: 'x', at, origin: 'tool' }),
        ).join('\n') + '\n',
      );
      const e = await refusal(store.remember(draft('one more'), MAIN));
      expect(e.code).toBe('limit');
      expect(e.message).toContain('The workspace scope already holds 200 memories, its limit is 200.');
      expect((await store.remember(draft('m7', 'new body'), MAIN)).change).toBe('replaced');
      await store.forget('workspace', 'm8', MAIN);
      expect((await store.remember(draft('one more'), MAIN)).change).toBe('created');
      expect(store.list('workspace').records).toHaveLength(200);
    });

    it('a name is one non-empty line', async () => {
      const { store } = makeStore();
      expect((await refusal(store.remember(draft('  '), MAIN))).message).toContain('needs a name');
      expect((await refusal(store.remember(draft('a\nb'), MAIN))).message).toContain('one line');
    });
  });

  describe('scope rules', () => {
    it('only the main agent changes user scope', async () => {
      const { store } = makeStore();
      const e = await refusal(store.remember({ ...draft('pref'), scope: 'user' }, SUB));
      expect(e.code).toBe('main_only');
      expect(e.message).toBe(
        'Only the main agent can change user-scope memory. Use scope "workspace" or "project", or tell the main agent what to remember.',
      );
      await store.remember({ ...draft('pref'), scope: 'user' }, MAIN);
      expect((await refusal(store.forget('user', 'pref', SUB))).code).toBe('main_only');
      // Extraction never writes user scope, even for the main agent.
      expect(
        (await refusal(store.remember({ ...draft('x'), scope: 'user' }, { mainAgent: true, origin: 'extraction' })))
          .code,
      ).toBe('main_only');
      await store.remember(draft('sub may write workspace'), SUB);
    });

    it('project writes need a trusted workspace; its memories are invisible while untrusted', async () => {
      const { store, setTrusted } = makeStore({ trusted: true });
      await store.remember({ ...draft('deploy'), scope: 'project' }, MAIN);
      setTrusted(false);
      expect(store.visibleScopes()).toEqual(['user', 'workspace']);
      expect(store.list().records).toEqual([]);
      expect(() => store.list('project')).toThrow(/needs a trusted workspace/);
      const e = await refusal(store.remember({ ...draft('x'), scope: 'project' }, MAIN));
      expect(e.code).toBe('untrusted');
      expect((await refusal(store.forget('project', 'deploy', MAIN))).code).toBe('untrusted');
      setTrusted(true);
      expect(store.list().records.map((r) => r.name)).toEqual(['deploy']);
    });
  });

  describe('credentials', () => {
    it('refuses credential-shaped content and writes nothing anywhere', async () => {
      const { store, home, cwd } = makeStore();
      const secret = 'ghp_FAKE0aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3';
      const e = await refusal(store.remember(draft('gh', `push with ${secret}`), MAIN));
      expect(e.code).toBe('secret');
      expect(e.message).toBe(
        'The body looks like it holds a GitHub token (at character 11). Memory never stores credentials; nothing was saved. Remember where the credential is kept (an environment variable, a vault path) instead of its value.',
      );
      expect(e.message).not.toContain(secret);
      expect(existsSync(memoryFilePath(home, cwd, 'workspace'))).toBe(false);
      expect(
        (await refusal(store.remember({ ...draft('d'), description: 'password=FAKEpw123' }, MAIN))).message,
      ).toMatch(/^The description looks like/);
      expect((await refusal(store.remember(draft('sk-proj-FAKE0aB3dE5fG7hJ9kL1mN3p'), MAIN))).message).toMatch(
        /^The name looks like/,
      );
    });

    it('a hand-edited file cannot smuggle a credential or an oversized record into recall', async () => {
      const { store, home, cwd } = makeStore();
      await store.remember(draft('ok'), MAIN);
      const path = memoryFilePath(home, cwd, 'workspace');
      appendFileSync(
        path,
        JSON.stringify({
          v: 1,
          op: 'put',
          name: 'leak',
          description: '',
          body: 'AKIAFAKEEXAMPLE12345',
          at: new Date().toISOString(),
          origin: 'tool',
        }) + '\n',
      );
      appendFileSync(
        path,
        JSON.stringify({
          v: 1,
          op: 'put',
          name: 'huge',
          description: '',
          body: 'x'.repeat(5000),
          at: new Date().toISOString(),
          origin: 'tool',
        }) + '\n',
      );
      const { records, warnings } = store.list('workspace');
      expect(records.map((r) => r.name)).toEqual(['ok']);
      expect(warnings).toHaveLength(2);
    });
  });

  describe('bad files and bad disks', () => {
    it('a torn last line (crash mid-write) is skipped and the next record starts on its own line', async () => {
      const { store, home, cwd } = makeStore();
      await store.remember(draft('a'), MAIN);
      const path = memoryFilePath(home, cwd, 'workspace');
      appendFileSync(path, '{"v":1,"op":"put","name":"torn","desc');
      expect(store.list('workspace').warnings[0]).toContain('cut off');
      await store.remember(draft('b'), MAIN);
      expect(
        store
          .list('workspace')
          .records.map((r) => r.name)
          .sort(),
      ).toEqual(['a', 'b']);
    });

    it('never writes through a symbolic link', async () => {
      const { store, cwd, root } = makeStore();
      mkdirSync(join(cwd, '.jarvis-code'));
      const target = join(root, 'elsewhere.txt');
      writeFileSync(target, 'keep me\n');
      symlinkSync(target, join(cwd, '.jarvis-code', 'memory.jsonl'));
      const e = await refusal(store.remember({ ...draft('p'), scope: 'project' }, MAIN));
      expect(e.message).toContain('is a symbolic link');
      expect(readFileSync(target, 'utf8')).toBe('keep me\n');
    });

    it('a memory file that is a symbolic link is never read: its records are not recalled, a warning says why', async () => {
      const { store, home, cwd, root } = makeStore();
      const outside = join(root, 'outside.jsonl');
      const line = {
        v: 1,
        op: 'put',
        name: 'planted',
        description: 'from outside',
        body: 'OUTSIDE RECORD',
        at: '2026-01-01T00:00:00.000Z',
        origin: 'tool',
      };
      writeFileSync(outside, `${JSON.stringify(line)}\n`);
      const workspaceFile = memoryFilePath(home, cwd, 'workspace');
      mkdirSync(join(workspaceFile, '..'), { recursive: true });
      symlinkSync(outside, workspaceFile);
      const listed = store.list();
      expect(listed.records).toEqual([]);
      expect(listed.warnings).toEqual([
        `${workspaceFile} is a symbolic link; memory is read only from a regular file, so its records were not recalled. Replace it with a regular file.`,
      ]);
      // The same for a linked folder on the way: the project's .jarvis-code pointing elsewhere.
      const elsewhere = join(root, 'elsewhere');
      mkdirSync(elsewhere);
      writeFileSync(join(elsewhere, 'memory.jsonl'), `${JSON.stringify(line)}\n`);
      symlinkSync(elsewhere, join(cwd, '.jarvis-code'));
      const project = store.list('project');
      expect(project.records).toEqual([]);
      expect(project.warnings[0]).toBe(
        `${join(cwd, '.jarvis-code')} is a symbolic link; memory files are read only from their own folder, so ${join(cwd, '.jarvis-code', 'memory.jsonl')} was not read. Replace the link with a real folder.`,
      );
    });

    it('a folder that cannot be written gives an error naming the file (transient, so extraction retries)', async () => {
      const { store, home } = makeStore();
      mkdirSync(home, { recursive: true });
      writeFileSync(join(home, 'memory'), 'a file where the folder should be');
      const e = await refusal(store.remember(draft('x'), MAIN));
      expect(e.code).toBe('io');
      expect(e.terminal).toBe(false);
      expect(e.message).toMatch(/^Could not write .*memory\/workspaces\/.*\.jsonl \(.*\); nothing was changed\.$/);
    });

    it('rewrites a file mostly made of replaced records, keeping every live one', async () => {
      const { store, home, cwd } = makeStore();
      for (let i = 0; i < 80; i++) await store.remember(draft('churn', `version ${i}`), MAIN);
      await store.remember(draft('stable'), MAIN);
      const lines = readFileSync(memoryFilePath(home, cwd, 'workspace'), 'utf8')
        .trim()
        .split('\n');
      expect(lines.length).toBeLessThan(30);
      expect(
        store
          .list('workspace')
          .records.map((r) => `${r.name}=${r.body}`)
          .sort(),
      ).toEqual(['churn=version 79', 'stable=body of stable']);
    });
  });

  it('two processes writing the same scope at once lose no record and together stay within the limit', async () => {
    const { root, home, cwd } = makeStore();
    const script = join(root, 'writer.mjs');
    buildSync({
      stdin: {
        contents: `import { MemoryStore } from ${JSON.stringify(resolve('src/store/memoryStore.ts'))};
          const [home, cwd, prefix, count] = process.argv.slice(2);
          const store = new MemoryStore({ home, cwd, trusted: () => true });
          let saved = 0;
          for (let i = 0; i < Number(count); i++) {
            try {
              await store.remember({ scope: 'workspace', name: prefix + i, description: '', body: 'from ' + prefix }, { mainAgent: true, origin: 'tool' });
              saved++;
            } catch (e) {
              if (e.code !== 'limit') throw e;
            }
          }
          process.stdout.write(String(saved));`,
        resolveDir: process.cwd(),
        loader: 'ts',
      },
      bundle: true,
      platform: 'node',
      format: 'esm',
      outfile: script,
      logLevel: 'silent',
    });
    const run = promisify(execFile);
    // 2 × 150 new names against a limit of 200: every saved record is there, and the limit holds.
    const results = await Promise.all([
      run(process.execPath, [script, home, cwd, 'a', '150']),
      run(process.execPath, [script, home, cwd, 'b', '150']),
    ]);
    const saved = results.map((r) => Number(r.stdout));
    const store = new MemoryStore({ home, cwd, trusted: () => true });
    const names = store.list('workspace').records.map((r) => r.name);
    expect(saved[0] + saved[1]).toBe(MEMORY_LIMITS.recordsPerScope);
    expect(names).toHaveLength(MEMORY_LIMITS.recordsPerScope);
    expect(new Set(names).size).toBe(MEMORY_LIMITS.recordsPerScope);
    expect(existsSync(`${memoryFilePath(home, cwd, 'workspace')}.lock`)).toBe(false);
  }, 60_000);
});
