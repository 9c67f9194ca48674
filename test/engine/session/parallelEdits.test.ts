// Parallel Edits of several files in one response (issue 39 item 8): the rewind store's first copies
// are written at the same moment, several of the same bytes; none is refused, every one can be
// rewound, and the store is private (docs/sessions.md "Rewind").
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rewind } from '../../../src/engine/session/rewind';
import { editTool, readTool } from '../../../src/tools/file';
import { makeEngine, runPrompt, verifyEnginesAfterEach } from '../../helpers/engineHarness';

verifyEnginesAfterEach();

const FILES = Array.from({ length: 8 }, (_, i) => `e${i + 1}.txt`);

describe('parallel edits', () => {
  it('8 Edits in one response, several files with the same content: all applied, all kept, all rewound', async () => {
    const h = makeEngine({
      mode: 'yolo',
      tools: [readTool, editTool],
      responses: [
        { toolCalls: FILES.map((f, i) => ({ id: `r${i}`, name: 'Read', arguments: { path: f } })) },
        {
          toolCalls: FILES.map((f, i) => ({
            id: `e${i}`,
            name: 'Edit',
            arguments: { path: f, old_string: 'before', new_string: `after ${f}` },
          })),
        },
        { text: 'edited' },
      ],
    });
    // Half the files share one content, so their copies have one name in the store.
    FILES.forEach((f, i) => writeFileSync(join(h.cwd, f), i % 2 ? 'before\n' : `before ${i}\n`));
    expect(await runPrompt(h, 'edit all')).toMatchObject({ reason: 'completed', text: 'edited' });
    const edits = h.eventsOf('tool_result').filter((r) => r.toolName === 'Edit');
    expect(edits.filter((r) => r.isError).map((r) => r.text)).toEqual([]);
    expect(edits).toHaveLength(8);
    for (const f of FILES) expect(readFileSync(join(h.cwd, f), 'utf8')).toContain(`after ${f}`);
    const store = join(h.runtime.session.dir, 'file-history');
    expect(readdirSync(store).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    expect(statSync(store).mode & 0o777).toBe(0o700);
    for (const name of readdirSync(store)) expect(statSync(join(store, name)).mode & 0o777).toBe(0o600);

    const result = await rewind(h.runtime, { scope: 'files' });
    expect(result.restored).toHaveLength(8);
    FILES.forEach((f, i) => expect(readFileSync(join(h.cwd, f), 'utf8')).toBe(i % 2 ? 'before\n' : `before ${i}\n`));
  });
});
