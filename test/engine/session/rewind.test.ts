import { chmodSync, existsSync, readFileSync, readdirSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { listRewindTargets, planFileRewind, rewind, RewindError } from '../../../src/engine/session/rewind';
import { Session } from '../../../src/engine/session/session';
import { undo } from '../../../src/engine/session/undo';
import { forkSession } from '../../../src/engine/session/fork';
import { transcriptEntries } from '../../../src/engine/runtime/exportMarkdown';
import { ScriptedClient, type ScriptedResponse } from '../../../src/llm/scriptedClient';
import { defineTool, type Tool } from '../../../src/tools/defineTool';
import { editTool, readTool, writeTool } from '../../../src/tools/file';
import { bashTool } from '../../../src/tools/shell';
import { makeEngine, runPrompt, verifyEnginesAfterEach, type EngineHarness } from '../../helpers/engineHarness';

verifyEnginesAfterEach();

/** Tools that touch bytes the text tools cannot (binary content, deletion), declaring their accesses like any tool. */
const byteTools: Tool[] = [
  defineTool({
    name: 'ReadBytes',
    description: 'Reads a file as base64.',
    schema: z.object({ path: z.string() }),
    readOnly: true,
    defaultApproval: 'auto',
    accesses: (a, ctx) => [{ kind: 'read', path: ctx.resolve(a.path), tracked: true }],
    async execute(a, ctx) {
      return { content: readFileSync(ctx.resolve(a.path)).toString('base64') };
    },
  }),
  defineTool({
    name: 'PutBytes',
    description: 'Writes base64 bytes to a file.',
    schema: z.object({ path: z.string(), base64: z.string() }),
    readOnly: false,
    defaultApproval: 'ask',
    accesses: (a, ctx) => [{ kind: 'write', path: ctx.resolve(a.path) }],
    async execute(a, ctx) {
      writeFileSync(ctx.resolve(a.path), Buffer.from(a.base64, 'base64'));
      return { content: 'written' };
    },
  }),
  defineTool({
    name: 'Remove',
    description: 'Deletes a file.',
    schema: z.object({ path: z.string() }),
    readOnly: false,
    defaultApproval: 'ask',
    accesses: (a, ctx) => [{ kind: 'write', path: ctx.resolve(a.path) }],
    async execute(a, ctx) {
      unlinkSync(ctx.resolve(a.path));
      return { content: 'removed' };
    },
  }),
];

const tools = [readTool, writeTool, editTool, bashTool, ...byteTools];
let n = 0;
const call = (name: string, args: Record<string, unknown>): ScriptedResponse => ({
  toolCalls: [{ id: `c${++n}`, name, arguments: args }],
});
const done: ScriptedResponse = { text: 'done' };

function engine(responses: ScriptedResponse[], extra: Partial<Parameters<typeof makeEngine>[0]> = {}): EngineHarness {
  return makeEngine({ mode: 'yolo', tools, responses, ...extra });
}

const INVALID_UTF8 = Buffer.concat([
  Buffer.from('line one\nbad byte: '),
  Buffer.from([0xff, 0xfe, 0x80]),
  Buffer.from('\nend\n'),
]);
const BINARY = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0xff, 0x00, 0x7f]);

describe('rewind: files', () => {
  it('Write then Edit then rewind puts every byte back (text, invalid UTF-8, binary) and removes created files', async () => {
    const h = engine([
      call('Read', { path: 'notes.txt' }),
      call('Edit', { path: 'notes.txt', old_string: 'end', new_string: 'END' }),
      call('Write', { path: 'src/new.ts', content: 'export const x = 1;\n' }),
      call('ReadBytes', { path: 'logo.png' }),
      call('PutBytes', { path: 'logo.png', base64: Buffer.from('not a png any more').toString('base64') }),
      done,
      call('Edit', { path: 'notes.txt', old_string: 'line one', new_string: 'LINE ONE' }),
      call('Write', { path: 'src/new.ts', content: 'export const x = 2;\n' }),
      done,
    ]);
    writeFileSync(join(h.cwd, 'notes.txt'), INVALID_UTF8);
    writeFileSync(join(h.cwd, 'logo.png'), BINARY);
    chmodSync(join(h.cwd, 'logo.png'), 0o640);
    await runPrompt(h, 'change the files');
    await runPrompt(h, 'change them again');
    expect(readFileSync(join(h.cwd, 'notes.txt')).toString('latin1')).toContain('LINE ONE');

    const targets = listRewindTargets(h.runtime.session.state);
    expect(targets.map((t) => [t.label, t.turns, t.files.length])).toEqual([
      ['change them again', 1, 2],
      ['change the files', 2, 3],
    ]);
    const result = await rewind(h.runtime, { turns: 2, scope: 'files' });

    expect(readFileSync(join(h.cwd, 'notes.txt')).equals(INVALID_UTF8)).toBe(true);
    expect(readFileSync(join(h.cwd, 'logo.png')).equals(BINARY)).toBe(true);
    expect(statSync(join(h.cwd, 'logo.png')).mode & 0o777).toBe(0o640);
    expect(existsSync(join(h.cwd, 'src/new.ts'))).toBe(false);
    expect(result.restored.map((r) => [r.path.slice(h.cwd.length + 1), r.action]).sort()).toEqual([
      ['logo.png', 'restored'],
      ['notes.txt', 'restored'],
      ['src/new.ts', 'removed'],
    ]);
    expect(result.skipped).toEqual([]);
    expect(result.withdrawn).toEqual([]);
    // Files only: the conversation is untouched, and nothing is left to restore.
    expect(h.runtime.session.state.checkpoints).toHaveLength(2);
    expect(listRewindTargets(h.runtime.session.state)[1].files).toEqual([]);
    // Copies are content-addressed: one per distinct content, named by its sha256.
    const kept = readdirSync(join(h.runtime.session.dir, 'file-history'));
    expect(kept.every((name) => /^[0-9a-f]{64}$/.test(name))).toBe(true);
  });

  it('recreates a deleted file, and keeps a single copy of content seen twice', async () => {
    const h = engine([
      call('ReadBytes', { path: 'a.txt' }),
      call('Remove', { path: 'a.txt' }),
      call('PutBytes', { path: 'b.txt', base64: Buffer.from('same').toString('base64') }),
      done,
    ]);
    writeFileSync(join(h.cwd, 'a.txt'), 'same');
    await runPrompt(h, 'delete a');
    expect(existsSync(join(h.cwd, 'a.txt'))).toBe(false);
    const result = await rewind(h.runtime, { scope: 'files' });
    expect(readFileSync(join(h.cwd, 'a.txt'), 'utf8')).toBe('same');
    expect(existsSync(join(h.cwd, 'b.txt'))).toBe(false);
    expect(result.restored.map((r) => r.action).sort()).toEqual(['recreated', 'removed']);
    // "same" was kept before the delete and again as the bytes b.txt had when the rewind removed it.
    expect(readdirSync(join(h.runtime.session.dir, 'file-history'))).toHaveLength(1);
  });

  it('a file changed and changed back needs nothing; the rewind forgets its changes', async () => {
    const h = engine([
      call('Write', { path: 'tmp.txt', content: 'scratch' }),
      call('Remove', { path: 'tmp.txt' }),
      done,
    ]);
    await runPrompt(h, 'scratch file');
    expect(listRewindTargets(h.runtime.session.state)[0].files).toEqual([join(h.cwd, 'tmp.txt')]);
    const result = await rewind(h.runtime, { scope: 'files' });
    expect(result).toMatchObject({ restored: [], skipped: [] });
    expect(listRewindTargets(h.runtime.session.state)[0].files).toEqual([]);
  });

  it('lists a file changed outside the agent and keeps it, unless told to overwrite (the outside bytes are kept)', async () => {
    const h = engine([
      call('Write', { path: 'a.txt', content: 'agent' }),
      call('Write', { path: 'b.txt', content: 'agent b' }),
      done,
    ]);
    await runPrompt(h, 'write a and b');
    writeFileSync(join(h.cwd, 'a.txt'), 'the user typed this');
    const plan = await planFileRewind(
      h.runtime.session.state,
      listRewindTargets(h.runtime.session.state)[0].turnId,
      1024,
      h.runtime.workspace.roots,
    );
    expect(plan.restore.find((r) => r.path.endsWith('a.txt'))?.conflict).toMatch(/changed outside the agent/);

    const first = await rewind(h.runtime, { scope: 'files' });
    expect(first.restored.map((r) => r.path)).toEqual([join(h.cwd, 'b.txt')]);
    expect(first.skipped).toEqual([
      {
        path: join(h.cwd, 'a.txt'),
        reason: expect.stringMatching(/changed outside the agent since the agent last wrote it; kept as it is/),
      },
    ]);
    expect(readFileSync(join(h.cwd, 'a.txt'), 'utf8')).toBe('the user typed this');

    const second = await rewind(h.runtime, { scope: 'files', overwrite: [join(h.cwd, 'a.txt')] });
    expect(second.restored).toEqual([{ path: join(h.cwd, 'a.txt'), action: 'removed' }]);
    expect(existsSync(join(h.cwd, 'a.txt'))).toBe(false);
    const record = readFileSync(h.runtime.session.journalPath, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .filter((r) => r.type === 'rewind')
      .at(-1);
    const hash = record.restored[0].replaced.hash as string;
    expect(readFileSync(join(h.runtime.session.dir, 'file-history', hash), 'utf8')).toBe('the user typed this');
  });

  it('reports what Bash commands changed as not restorable and flags the turns that ran commands', async () => {
    const h = engine([
      call('Read', { path: 'read-only.txt' }),
      call('Write', { path: 'w.txt', content: 'by the agent\n' }),
      call('Bash', { command: 'echo more >> read-only.txt && echo more >> w.txt' }),
      done,
    ]);
    writeFileSync(join(h.cwd, 'read-only.txt'), 'original\n');
    await runPrompt(h, 'edit and run');
    const [target] = listRewindTargets(h.runtime.session.state);
    expect(target.commands).toEqual([{ turn: 'edit and run', subject: expect.stringContaining('Bash(echo more') }]);

    const result = await rewind(h.runtime, { scope: 'files' });
    expect(result.restored).toEqual([]);
    expect(result.skipped).toEqual(
      expect.arrayContaining([
        {
          path: join(h.cwd, 'read-only.txt'),
          reason: expect.stringMatching(
            /changed by a command \(Bash\(echo more.*changes made by commands cannot be restored/,
          ),
        },
        {
          path: join(h.cwd, 'w.txt'),
          reason: expect.stringMatching(
            /changed by a command the agent ran \(Bash\(echo more.*after the agent last wrote it; kept as it is/,
          ),
        },
      ]),
    );
    expect(result.commands).toHaveLength(1);
    expect(readFileSync(join(h.cwd, 'read-only.txt'), 'utf8')).toBe('original\nmore\n');
  });

  it('restores files across a compaction; the conversation part keeps the compaction rule', async () => {
    const h = engine([
      call('Write', { path: 'a.txt', content: 'v1' }),
      done,
      { text: 'summary note' },
      call('Read', { path: 'a.txt' }),
      call('Edit', { path: 'a.txt', old_string: 'v1', new_string: 'v2' }),
      done,
    ]);
    await runPrompt(h, 'create a');
    await h.runtime.compaction.compact();
    await runPrompt(h, 'edit a');
    const targets = listRewindTargets(h.runtime.session.state);
    expect(targets.map((t) => [t.label, t.conversation])).toEqual([
      ['edit a', true],
      ['create a', false],
    ]);
    await expect(rewind(h.runtime, { turns: 2, scope: 'both' })).rejects.toThrow(
      /cannot go back past the last compaction; rewind the files only/,
    );
    const result = await rewind(h.runtime, { turns: 2, scope: 'files' });
    expect(result.restored).toEqual([{ path: join(h.cwd, 'a.txt'), action: 'removed' }]);
    expect(existsSync(join(h.cwd, 'a.txt'))).toBe(false);
  });

  it('a copy that cannot be kept (full disk, broken session folder) stops the write and leaves the file as it was', async () => {
    const h = engine([
      call('Read', { path: 'a.txt' }),
      call('Edit', { path: 'a.txt', old_string: 'old', new_string: 'new' }),
      done,
    ]);
    writeFileSync(join(h.cwd, 'a.txt'), 'old');
    writeFileSync(join(h.runtime.session.dir, 'file-history'), 'a file where the folder should be');
    await runPrompt(h, 'edit');
    const result = h.eventsOf('tool_result').find((e) => e.toolName === 'Edit')!;
    expect(h.eventsOf('tool_result').find((e) => e.toolName === 'Read')!.isError).toBeFalsy();
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(
      /Could not keep a copy of .*a\.txt before changing it, so it was not changed: could not write .*file-history \(something other than a folder is in its place\)/,
    );
    expect(readFileSync(join(h.cwd, 'a.txt'), 'utf8')).toBe('old');
  });

  it('a write under a path that cannot exist fails with the tool’s own error, not a copy error', async () => {
    const h = engine([call('Write', { path: 'plain.txt/inner.txt', content: 'x' }), done]);
    writeFileSync(join(h.cwd, 'plain.txt'), 'a file, not a folder');
    await runPrompt(h, 'write inside a file');
    const result = h.eventsOf('tool_result').find((e) => e.toolName === 'Write')!;
    expect(result.isError).toBe(true);
    expect(result.text).not.toMatch(/Could not keep a copy/);
    expect(h.runtime.session.state.fileHistory.turns[0].changes).toEqual([]);
  });

  it('says it cannot restore a file that was over the size cap, and restores the rest', async () => {
    const h = engine(
      [
        call('Read', { path: 'big.txt' }),
        call('Edit', { path: 'big.txt', old_string: 'x', new_string: 'y', replace_all: true }),
        call('Write', { path: 'small.txt', content: 's' }),
        done,
      ],
      { fileHistory: { maxFileBytes: 16 } },
    );
    writeFileSync(join(h.cwd, 'big.txt'), 'x'.repeat(64));
    await runPrompt(h, 'edit big');
    const result = await rewind(h.runtime, { scope: 'files' });
    expect(result.restored).toEqual([{ path: join(h.cwd, 'small.txt'), action: 'removed' }]);
    expect(result.skipped).toEqual([
      {
        path: join(h.cwd, 'big.txt'),
        reason: expect.stringMatching(
          /it was 64 bytes when the agent changed it, over the 16 bytes limit for kept copies \(\[rewind\] max_file_bytes\)/,
        ),
      },
    ]);
  });
});

describe('rewind: conversation and files', () => {
  it('both: withdraws the prompts and restores the files; resume and fork see the result; replay rebuilds it', async () => {
    const h = engine([
      call('Write', { path: 'a.txt', content: 'one' }),
      done,
      call('Read', { path: 'a.txt' }),
      call('Edit', { path: 'a.txt', old_string: 'one', new_string: 'two' }),
      done,
      { text: 'after' },
    ]);
    await runPrompt(h, 'first');
    await runPrompt(h, 'second');
    const result = await rewind(h.runtime, { turns: 1, scope: 'both' });
    expect(result.withdrawn).toEqual(['second']);
    expect(result.restored).toEqual([{ path: join(h.cwd, 'a.txt'), action: 'restored' }]);
    expect(readFileSync(join(h.cwd, 'a.txt'), 'utf8')).toBe('one');
    expect(h.runtime.session.state.lastPrompt).toBe('first');
    expect(listRewindTargets(h.runtime.session.state).map((t) => t.label)).toEqual(['first']);
    // The guard knows the file as restored, so the agent may edit it again without a new read.
    expect(h.runtime.session.guard.entries().find((s) => s.path === join(h.cwd, 'a.txt'))?.size).toBe(3);
    h.expectReplayIdentical();
    // The Markdown export leaves the withdrawn turn out, as it does after an undo.
    const records = readFileSync(h.runtime.session.journalPath, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const shown = JSON.stringify(transcriptEntries(records));
    expect(shown).toContain('first');
    expect(shown).not.toContain('second');

    const fork = forkSession(h.runtime, { home: h.home });
    const copy = Session.open({ sessionId: fork.sessionId, sessionDir: fork.sessionDir, workDir: h.cwd, home: h.home });
    expect(copy.state.fileHistory).toEqual(h.runtime.session.state.fileHistory);
    expect(readdirSync(join(fork.sessionDir, 'file-history')).sort()).toEqual(
      readdirSync(join(h.runtime.session.dir, 'file-history')).sort(),
    );

    await h.runtime.close();
    const resumed = makeEngine({
      mode: 'yolo',
      tools,
      responses: [],
      resume: h.runtime.session.location,
      dirs: { home: h.home, cwd: h.cwd },
    });
    expect(resumed.runtime.session.state.fileHistory).toEqual(h.runtime.session.state.fileHistory);
    // Rewinding the first prompt from the resumed session removes the file it created.
    const again = await rewind(resumed.runtime, { scope: 'files' });
    expect(again.restored).toEqual([{ path: join(h.cwd, 'a.txt'), action: 'removed' }]);
  });

  it('a prompt withdrawn by undo is not offered, live and after resume; a resent one is offered once', async () => {
    const h = engine([done, call('Write', { path: 'a.txt', content: 'one' }), done, done, done]);
    await runPrompt(h, 'first');
    await runPrompt(h, 'second writes');
    await runPrompt(h, 'third');
    undo(h.runtime, 2);
    const labels = () => listRewindTargets(h.runtime.session.state).map((t) => t.label);
    expect(labels()).toEqual(['first']);
    await expect(rewind(h.runtime, { scope: 'files', turns: 2 })).rejects.toThrow(/Only 1 prompt can be rewound/);
    await runPrompt(h, 'second writes');
    expect(labels()).toEqual(['second writes', 'first']);
    await h.runtime.close();
    const resumed = makeEngine({
      mode: 'yolo',
      tools,
      responses: [],
      resume: h.runtime.session.location,
      dirs: { home: h.home, cwd: h.cwd },
    });
    expect(listRewindTargets(resumed.runtime.session.state)).toEqual(listRewindTargets(h.runtime.session.state));
  });

  it('an undone turn’s file changes are still reverted by a rewind to an earlier prompt', async () => {
    const h = engine([done, call('Write', { path: 'a.txt', content: 'one' }), done]);
    await runPrompt(h, 'first');
    await runPrompt(h, 'second writes');
    await rewind(h.runtime, { scope: 'conversation' });
    expect(h.runtime.session.state.lastPrompt).toBe('first');
    expect(existsSync(join(h.cwd, 'a.txt'))).toBe(true);
    const result = await rewind(h.runtime, { scope: 'files' });
    expect(result.restored).toEqual([{ path: join(h.cwd, 'a.txt'), action: 'removed' }]);
  });

  it('a subagent’s writes are recorded in the main journal, under the turn that was running, and rewound with it', async () => {
    const h = engine([done]);
    await runPrompt(h, 'delegate the file');
    const child = h.runtime.agents.spawn({
      systemPrompt: 'child',
      client: new ScriptedClient([call('Write', { path: 'by-child.txt', content: 'child' }), done]),
    });
    expect(await child.run('write it')).toMatchObject({ reason: 'completed' });
    expect(readFileSync(join(h.cwd, 'by-child.txt'), 'utf8')).toBe('child');
    expect(listRewindTargets(h.runtime.session.state)[0].files).toEqual([join(h.cwd, 'by-child.txt')]);
    const result = await rewind(h.runtime, { scope: 'files' });
    expect(result.restored).toEqual([{ path: join(h.cwd, 'by-child.txt'), action: 'removed' }]);
  });

  it('refuses while a turn runs, a bad count, and an empty session; snapshots off records nothing', async () => {
    const h = engine([{ text: 'slow', delayMs: 30 }]);
    await expect(rewind(h.runtime, { scope: 'both' })).rejects.toThrow(/no prompt to rewind to yet/);
    h.runtime.agent.submit({ kind: 'prompt', text: 'go' });
    await expect(rewind(h.runtime, { scope: 'files' })).rejects.toThrow(RewindError);
    await h.runtime.agent.idle();
    await expect(rewind(h.runtime, { scope: 'files', turns: 0 })).rejects.toThrow(/whole number/);
    await expect(rewind(h.runtime, { scope: 'files', turns: 3 })).rejects.toThrow(/Only 1 prompt can be rewound/);

    const off = engine([call('Write', { path: 'a.txt', content: 'x' }), done], { fileHistory: false });
    await runPrompt(off, 'write');
    expect(off.runtime.session.state.fileHistory.turns[0].changes).toEqual([]);
    expect(existsSync(join(off.runtime.session.dir, 'file-history'))).toBe(false);
  });
});
