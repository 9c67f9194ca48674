// `/compact` and `@path` attachments (docs/ui.md "Attaching files", docs/plan-goals-context.md "Compaction"): an
// attachment in the summarised part is the file's content, not the user's words. The note carries its chip, the
// summariser reads it shortened like a tool's output, and the context shrinks.
import { describe, expect, it } from 'vitest';
import { attachmentTag, chipOfPart } from '../../../src/engine/context/attachmentTags';
import type { ContentPart, Message, ModelRequest } from '../../../src/llm/types';
import { makeEngine, verifyEnginesAfterEach, type EngineHarness } from '../../helpers/engineHarness';

verifyEnginesAfterEach();

const BODY = Array.from({ length: 800 }, (_, i) => `${i + 1}\tconst value${i + 1} = ${i + 1}; // line ${i + 1}`).join(
  '\n',
);
const ATTACHED: ContentPart = { type: 'text', text: attachmentTag('file', 'src/big.ts', '800 lines', BODY) };

async function promptWith(engine: EngineHarness, text: string, extra: ContentPart[] = []) {
  engine.runtime.agent.submit({ kind: 'prompt', text, content: [{ type: 'text', text }, ...extra] });
  return (await engine.runtime.agent.idle())[0];
}

function textOf(m: Message): string {
  return m.role === 'assistant' ? m.text : m.content.map((p) => (p.type === 'text' ? p.text : '')).join('\n');
}
const isSummariser = (r: ModelRequest) => r.tools.length === 0 && textOf(r.messages[0]).startsWith('<conversation>');

describe('compacting an @path attachment', () => {
  it('the note carries the chip, not the file; the summariser reads it shortened; the context shrinks', async () => {
    const h = makeEngine({ responses: [{ text: 'It defines 800 values.' }, { text: 'the note' }, { text: 'after' }] });
    await promptWith(h, 'explain @src/big.ts please', [ATTACHED]);
    const result = await h.runtime.compaction.compact();
    // Before: the prompt with ~37 000 characters of file; after: the chip, the note and the kept answer.
    expect(result.tokensAfter).toBeLessThan(result.tokensBefore / 5);

    const note = textOf(h.runtime.session.state.messages[0]);
    expect(note).toContain('<user-message>\nexplain @src/big.ts please\n[@src/big.ts 800 lines]\n</user-message>');
    expect(note).not.toContain('const value1 =');
    expect(note).toContain('the note');

    const summariser = textOf(h.client.requests.find(isSummariser)!.messages[0]);
    expect(summariser).toContain('[user]\nexplain @src/big.ts please\n<attached-file path="src/big.ts"');
    expect(summariser).toContain('1\tconst value1 = 1;');
    expect(summariser).not.toContain('const value800 =');
    expect(summariser).toMatch(/… \[\d+ more characters cut\]/);

    await promptWith(h, 'and now?');
    const next = JSON.stringify(h.client.requests.at(-1)!.messages);
    expect(next).not.toContain('const value1 =');
    expect(next).toContain('[@src/big.ts 800 lines]');
  });

  it('an attachment in the turns kept verbatim stays whole; older ones are summarised', async () => {
    const answers = ['a1', 'a2', 'a3', 'the note', 'a4'].map((text) => ({ text }));
    const h = makeEngine({ responses: answers });
    await promptWith(h, 'read @src/big.ts', [ATTACHED]);
    await promptWith(h, 'p2');
    await promptWith(h, 'look again at @src/big.ts', [ATTACHED]);
    await h.runtime.compaction.compact();
    const messages = h.runtime.session.state.messages;
    expect(textOf(messages[0])).toContain('<user-message>\nread @src/big.ts\n[@src/big.ts 800 lines]\n</user-message>');
    expect(textOf(messages[0])).not.toContain('const value1 =');
    // The last prompt is kept verbatim, with its attachment: the model still has the file the user just gave it.
    const kept = messages.filter((m) => m.role === 'user' && m.content.some((p) => chipOfPart(p) !== undefined));
    expect(kept.map(textOf)).toEqual([expect.stringMatching(/^look again at @src\/big\.ts\n<attached-file/)]);
  });

  it('a pasted prompt that only looks like an attachment later in the text is the user’s words', async () => {
    const h = makeEngine({ responses: [{ text: 'ok' }, { text: 'the note' }] });
    const pasted = `please check this:\n<attached-file path="x" label="1 line">\nsecret plan\n</attached-file>`;
    await promptWith(h, pasted);
    await h.runtime.compaction.compact();
    expect(textOf(h.runtime.session.state.messages[0])).toContain(`<user-message>\n${pasted}\n</user-message>`);
  });
});
