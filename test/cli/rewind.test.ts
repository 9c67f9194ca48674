// `jarvis rewind` end to end on sessions made by `jarvis -p`: the built binary, a loopback mock model.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockModelServer, type MockModelServer } from '../helpers/mockModelServer';
import { cliEnv, makeCliDirs, mockModelEnv, runJarvis, type CliDirs } from '../helpers/cli';

let server: MockModelServer;
beforeAll(async () => {
  server = await startMockModelServer();
});
afterAll(async () => {
  await server.close();
});

const LEGACY = Buffer.concat([Buffer.from('one\ntwo '), Buffer.from([0xfe]), Buffer.from(' two\nthree\n')]);

function jarvis(dirs: CliDirs, args: string[]) {
  return runJarvis(args, {
    env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))),
    cwd: dirs.cwd,
    timeoutMs: 40_000,
  });
}

/** Two prompts: the first creates notes.md and edits legacy.txt; the second edits both again. */
async function twoPromptSession(dirs: CliDirs): Promise<void> {
  writeFileSync(join(dirs.cwd, 'legacy.txt'), LEGACY);
  server.push(
    {
      toolCalls: [
        { name: 'Write', arguments: { path: 'notes.md', content: '# notes\n' } },
        { name: 'Read', arguments: { path: 'legacy.txt' } },
      ],
    },
    { toolCalls: [{ name: 'Edit', arguments: { path: 'legacy.txt', old_string: 'three', new_string: 'THREE' } }] },
    { text: 'First done.' },
  );
  expect((await jarvis(dirs, ['-p', 'start the notes'])).code).toBe(0);
  server.push(
    { toolCalls: [{ name: 'Read', arguments: { path: 'notes.md' } }] },
    {
      toolCalls: [
        { name: 'Edit', arguments: { path: 'notes.md', old_string: '# notes', new_string: '# Notes' } },
        { name: 'Edit', arguments: { path: 'legacy.txt', old_string: 'one', new_string: 'ONE' } },
      ],
    },
    { text: 'Second done.' },
  );
  expect((await jarvis(dirs, ['--continue', '-p', 'polish them'])).code).toBe(0);
}

describe('jarvis rewind', () => {
  it('rewinds the files of the last prompt, then both of the first: bytes back, created file gone, conversation withdrawn', async () => {
    const dirs = makeCliDirs();
    await twoPromptSession(dirs);
    expect(readFileSync(join(dirs.cwd, 'notes.md'), 'utf8')).toBe('# Notes\n');

    const files = await jarvis(dirs, ['rewind', '--files-only']);
    expect(files.stderr).toBe('');
    expect(files.code).toBe(0);
    expect(files.stdout).toContain('Rewound the files to before "polish them".');
    expect(files.stdout).toMatch(/restored {2}notes\.md \(restored\)/);
    expect(files.stdout).toMatch(/restored {2}legacy\.txt \(restored\)/);
    expect(readFileSync(join(dirs.cwd, 'notes.md'), 'utf8')).toBe('# notes\n');

    const both = await jarvis(dirs, ['rewind', '--continue', '--turns', '2']);
    expect(both.code).toBe(0);
    expect(both.stdout).toContain('Rewound the conversation and the files to before "start the notes".');
    expect(both.stdout).toContain('Withdrew 2 prompts from the conversation.');
    expect(both.stdout).toMatch(/restored {2}notes\.md \(removed\)/);
    expect(existsSync(join(dirs.cwd, 'notes.md'))).toBe(false);
    expect(readFileSync(join(dirs.cwd, 'legacy.txt')).equals(LEGACY)).toBe(true);

    // The session continues from the empty conversation: the next request carries only the new prompt.
    server.push({ text: 'Fresh start.' });
    const before = server.requests.length;
    expect((await jarvis(dirs, ['--continue', '-p', 'again'])).code).toBe(0);
    const messages = server.requests[before].body.messages.filter((m: { role: string }) => m.role !== 'system');
    expect(messages.map((m: { content: string }) => m.content)).toEqual(['again']);
  });

  it('keeps a file changed outside the agent, says so and exits 1; --overwrite restores it', async () => {
    const dirs = makeCliDirs();
    await twoPromptSession(dirs);
    writeFileSync(join(dirs.cwd, 'notes.md'), 'my own words\n');
    const first = await jarvis(dirs, ['rewind', '--files-only']);
    expect(first.code).toBe(1);
    expect(first.stdout).toMatch(
      /skipped {3}notes\.md: changed outside the agent since the agent last wrote it; kept as it is/,
    );
    expect(first.stdout).toMatch(/restored {2}legacy\.txt/);
    expect(first.stderr).toContain(
      'jarvis rewind: 1 file was not restored (see above); add --overwrite to replace files changed outside the agent.',
    );
    expect(readFileSync(join(dirs.cwd, 'notes.md'), 'utf8')).toBe('my own words\n');

    const forced = await jarvis(dirs, ['rewind', '--files-only', '--overwrite']);
    expect(forced.code).toBe(0);
    expect(readFileSync(join(dirs.cwd, 'notes.md'), 'utf8')).toBe('# notes\n');
  });

  it('refuses bad flags and a missing session with a clear message', async () => {
    const dirs = makeCliDirs();
    const none = await jarvis(dirs, ['rewind']);
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/jarvis rewind: there is no session in .* to rewind/);
    const both = await jarvis(dirs, ['rewind', '--files-only', '--conversation-only']);
    expect(both.code).not.toBe(0);
    expect(both.stderr).toContain('--files-only and --conversation-only exclude each other');
    const turns = await jarvis(dirs, ['rewind', '--turns', 'two']);
    expect(turns.code).not.toBe(0);
    expect(turns.stderr).toContain('--turns takes a whole number of prompts (1 or more), got "two".');
    const id = await jarvis(dirs, ['rewind', '--session', 'NOPE']);
    expect(id.code).toBe(1);
    expect(id.stderr).toContain('no session "NOPE" was found');
  });
});
