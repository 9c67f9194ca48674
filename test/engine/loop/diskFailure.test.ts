// A journal that cannot be written ends the turn with an error naming the file; the conversation stays
// in memory and nothing escapes as an unhandled rejection. Tests run as root, where chmod does not stop
// a write, so the failures are made the way root also meets them: the session folder removed, a folder
// where the journal file was (EISDIR), and /dev/full (ENOSPC).
import { mkdirSync, rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { JournalWriteError, JournalWriter } from '../../../src/store/journal';
import { defineTool } from '../../../src/tools/defineTool';
import { makeEngine, runPrompt, skipReplayCheck, testTools, verifyEnginesAfterEach } from '../../helpers/engineHarness';

verifyEnginesAfterEach();

const unhandled: unknown[] = [];
process.on('unhandledRejection', (e) => unhandled.push(e));

describe('a journal that cannot be written', () => {
  it('says the disk is full for ENOSPC, naming the file', () => {
    const full = Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
    expect(new JournalWriteError('/s/wire.jsonl', full).message).toBe(
      'Could not write the session journal /s/wire.jsonl (the disk is full).',
    );
  });

  // Deliberately changed: a device where the journal should be (/dev/full here) is refused before any write, never
  // written through (docs/sessions.md, "Links are never followed").
  it('refuses a device standing where the journal should be, naming it', () => {
    const writer = new JournalWriter('/dev/full', '/dev');
    expect(() => writer.append({ a: 1 })).toThrow(JournalWriteError);
    expect(() => writer.append({ a: 1 })).toThrow(/\/dev\/full is a special file/);
  });

  it('the session folder deleted between turns: the next turn fails naming the path, memory keeps the conversation', async () => {
    const h = makeEngine({
      responses: [{ text: 'first answer' }, { text: 'second answer' }, { text: 'third answer' }],
    });
    skipReplayCheck(h);
    await runPrompt(h, 'one');
    const journal = h.runtime.session.journalPath;
    rmSync(h.runtime.session.dir, { recursive: true, force: true });
    const outcome = await runPrompt(h, 'two');
    expect(outcome.reason).toBe('failed');
    expect(outcome.error).toContain(`Could not write the session journal ${journal} (its folder no longer exists).`);
    expect(outcome.error).toContain('kept in memory');
    expect(h.eventsOf('turn_end').at(-1)).toMatchObject({ reason: 'failed' });
    // The turn that failed still has its prompt in memory; the session goes on, in memory only.
    const third = await runPrompt(h, 'three');
    expect(third).toMatchObject({ reason: 'completed', text: 'second answer' });
    const texts = h.runtime.session.state.messages.map((m) =>
      m.role === 'user' ? (m.content[0] as { text: string }).text : m.role === 'assistant' ? m.text : '',
    );
    expect(texts).toEqual(['one', 'first answer', 'two', 'three', 'second answer']);
    expect(h.runtime.session.persistError).toBeInstanceOf(JournalWriteError);
    expect(unhandled).toEqual([]);
  });

  it('the journal replaced by a folder mid-turn (EISDIR): the turn ends before the next request, with the path', async () => {
    let journal = '';
    const breakJournal = defineTool({
      name: 'BreakJournal',
      description: 'Puts a folder where the journal was.',
      schema: z.object({}),
      readOnly: true,
      defaultApproval: 'auto',
      subject: () => 'BreakJournal',
      accesses: () => [],
      async execute() {
        rmSync(journal);
        mkdirSync(journal);
        return { content: 'done' };
      },
    });
    const h = makeEngine({
      tools: [...testTools(), breakJournal],
      responses: [{ toolCalls: [{ name: 'BreakJournal', arguments: {} }] }, { text: 'never asked' }],
    });
    skipReplayCheck(h);
    journal = h.runtime.session.journalPath;
    const outcome = await runPrompt(h, 'break it');
    expect(outcome.reason).toBe('failed');
    expect(outcome.error).toContain(`${journal} (a folder is in its place)`);
    expect(h.client.requests).toHaveLength(1);
    // The tool result that could not be written is still in memory.
    expect(h.runtime.session.state.messages.at(-1)).toMatchObject({ role: 'tool', toolName: 'BreakJournal' });
    expect(
      h
        .eventsOf('notice')
        .map((n) => n.text)
        .join('\n'),
    ).toContain(journal);
    expect(unhandled).toEqual([]);
  });
});
