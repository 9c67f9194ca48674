import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../../src/store/memoryStore';
import { MEMORY_SERVICE, memoryTool } from '../../../src/tools/memory';
import { makeToolHarness } from '../../helpers/toolHarness';

function setup(opts: { trusted?: boolean; mainAgent?: boolean } = {}) {
  const h = makeToolHarness({ mainAgent: opts.mainAgent });
  let trusted = opts.trusted ?? true;
  const home = join(h.sessionDir, 'home');
  const store = new MemoryStore({ home, cwd: h.cwd, trusted: () => trusted });
  h.register(MEMORY_SERVICE, store);
  return { h, store, home, setTrusted: (v: boolean) => (trusted = v), run: (args: unknown) => h.run(memoryTool, args) };
}

describe('Memory tool', () => {
  it('remembers, lists, shows one in full, replaces and forgets', async () => {
    const { run } = setup();
    const saved = await run({
      action: 'remember',
      scope: 'workspace',
      name: 'test command',
      description: 'how to run the tests',
      body: 'npx vitest run test/x.test.ts',
    });
    expect(saved.isError).toBeFalsy();
    expect(saved.text).toBe('Remembered: workspace memory "test command".');
    await run({
      action: 'remember',
      scope: 'user',
      name: 'package manager',
      description: 'the user prefers pnpm',
      body: 'Use pnpm, never npm.',
    });
    const listed = await run({ action: 'list' });
    expect(listed.text).toBe(
      [
        'user (1/200):',
        '  - package manager — the user prefers pnpm',
        'workspace (1/200):',
        '  - test command — how to run the tests',
        'project (0/200):',
        '  (none)',
      ].join('\n'),
    );
    const shown = await run({ action: 'list', name: 'Test Command' });
    expect(shown.text).toMatch(
      /^workspace memory "test command" \(saved \d{4}-\d\d-\d\d, updated \d{4}-\d\d-\d\d, by the Memory tool\)\ndescription: how to run the tests\nnpx vitest run test\/x.test.ts$/,
    );
    expect((await run({ action: 'remember', scope: 'workspace', name: 'test command', body: 'npm test' })).text).toBe(
      'Replaced: workspace memory "test command".',
    );
    expect((await run({ action: 'forget', scope: 'workspace', name: 'test command' })).text).toBe(
      'Forgot the workspace memory "test command".',
    );
    expect((await run({ action: 'list', scope: 'workspace' })).text).toBe('workspace (0/200):\n  (none)');
  });

  it('remember without a scope uses project in a trusted workspace and workspace otherwise', async () => {
    const trusted = setup({ trusted: true });
    expect((await trusted.run({ action: 'remember', name: 'a', body: 'b' })).text).toBe(
      'Remembered: project memory "a".',
    );
    const untrusted = setup({ trusted: false });
    expect((await untrusted.run({ action: 'remember', name: 'a', body: 'b' })).text).toBe(
      'Remembered: workspace memory "a".',
    );
  });

  it('an untrusted workspace hides project memories from list and refuses project writes', async () => {
    const { run, setTrusted } = setup({ trusted: true });
    await run({ action: 'remember', scope: 'project', name: 'deploy', body: 'make deploy' });
    setTrusted(false);
    const listed = await run({ action: 'list' });
    expect(listed.text).not.toContain('deploy');
    expect(listed.text).toContain('(project memories are hidden: this workspace is not trusted)');
    const write = await run({ action: 'remember', scope: 'project', name: 'x', body: 'y' });
    expect(write.isError).toBe(true);
    expect(write.text).toContain('Project memory needs a trusted workspace');
    expect((await run({ action: 'list', scope: 'project' })).isError).toBe(true);
    expect((await run({ action: 'list', name: 'deploy' })).isError).toBe(true);
  });

  it('a subagent cannot change user scope', async () => {
    const { run } = setup({ mainAgent: false });
    const r = await run({ action: 'remember', scope: 'user', name: 'x', body: 'y' });
    expect(r.isError).toBe(true);
    expect(r.text).toBe(
      'Only the main agent can change user-scope memory. Use scope "workspace" or "project", or tell the main agent what to remember.',
    );
    expect((await run({ action: 'remember', scope: 'workspace', name: 'x', body: 'y' })).isError).toBeFalsy();
  });

  it('refuses credentials, oversized fields and missing fields with their own messages', async () => {
    const { run } = setup();
    const secret = await run({
      action: 'remember',
      scope: 'workspace',
      name: 'db',
      body: 'DATABASE_URL=postgres://app:FakePass123@db:5432/app',
    });
    expect(secret.isError).toBe(true);
    expect(secret.text).toContain('looks like it holds a password inside a URL');
    expect(secret.text).not.toContain('FakePass123');
    expect((await run({ action: 'remember', scope: 'workspace', name: 'big', body: 'x'.repeat(4097) })).text).toBe(
      'The body is 4097 bytes (UTF-8); the limit is 4096. Keep one fact per memory and shorten it.',
    );
    expect((await run({ action: 'remember', scope: 'workspace', body: 'x' })).text).toBe(
      'Memory remember needs "name".',
    );
    expect((await run({ action: 'remember', scope: 'workspace', name: 'x' })).text).toBe(
      'Memory remember needs "body": the fact itself.',
    );
    expect((await run({ action: 'forget', scope: 'workspace', name: 'nothing' })).text).toBe(
      'There is no workspace memory named "nothing". The workspace scope is empty.',
    );
  });

  it('malformed arguments get the shared field-by-field error', async () => {
    const { run } = setup();
    const r = await run({ action: 'recall', scope: 'global' });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(
      /^Invalid arguments for Memory:\n- action: .*\n- scope: .*\nFix the arguments and call Memory again\.$/,
    );
  });

  it('asks before changing memory and not before listing; rules see the scope and name; no file accesses (the store locks its own files)', () => {
    const { h } = setup();
    const ctx = { cwd: h.cwd, services: h.services } as Parameters<NonNullable<typeof memoryTool.subject>>[1];
    expect(memoryTool.approvalFor?.({ action: 'list' })).toBe('auto');
    expect(memoryTool.approvalFor?.({ action: 'remember' })).toBe('ask');
    expect(memoryTool.subject?.({ action: 'remember', scope: 'user', name: 'pm' }, ctx)).toBe(
      'Memory(remember user:pm)',
    );
    expect(memoryTool.accesses).toBeUndefined();
  });

  it('its description carries the limits from the code', () => {
    expect(memoryTool.renderedDescription).toContain('name ≤ 200 characters, description ≤ 2000 characters');
    expect(memoryTool.renderedDescription).toContain('body ≤ 4096 UTF-8 bytes, 200 memories per scope');
  });
});
