// One token accounting (docs/plan-goals-context.md "Accounting", docs/plan-goals-context.md): on one conversation, /compact's
// before and after figures and /usage's header and Total are the same figures, all counting system + tools +
// messages, and the provider's count carries across the compaction.
import { afterEach, describe, expect, it } from 'vitest';
import { contextBreakdown, contextTokens } from '../../../src/engine/context/context';
import type { Runtime } from '../../../src/engine/runtime/runtime';
import { toolSchemaForModel } from '../../../src/tools/defineTool';
import { usageLines } from '../../../src/ui/usageView';
import { makeEngine, runPrompt, type EngineHarness } from '../../helpers/engineHarness';

let h: EngineHarness | undefined;
afterEach(async () => {
  if (h) {
    h.expectReplayIdentical();
    await h.runtime.close({ force: true });
  }
  h = undefined;
});

const WINDOW = { maxContextSize: 262_144 };
const frameOf = (rt: Runtime) => ({
  system: rt.session.state.systemPrompt ?? '',
  tools: rt.offered.list().map(toolSchemaForModel),
});

/** What /usage shows: the header's figure and the Total row's. */
function usage(rt: Runtime): { header: number; total: number; text: string } {
  const text = usageLines(contextBreakdown(rt.session.state, frameOf(rt), WINDOW), rt.session.state.turns).join('\n');
  const figure = (re: RegExp) => Number(re.exec(text)![1].replace(/,/g, ''));
  return { header: figure(/^Context\s+\d+% · ([\d,]+) of/m), total: figure(/^\s+Total\s+([\d,]+)$/m), text };
}

describe('one token accounting', () => {
  for (const reported of [300, 40_000]) {
    it(`/compact before/after and /usage agree (provider counted ${reported} input tokens)`, async () => {
      const long = 'The design keeps every session in an append-only journal. '.repeat(80);
      h = makeEngine({
        model: WINDOW,
        responses: [
          { text: `First answer. ${long}`, usage: { inputTokens: reported, outputTokens: 900 } },
          { text: `Second answer. ${long}`, usage: { inputTokens: reported + 1_000, outputTokens: 900 } },
          { text: 'Summary: two answers about the journal.' },
        ],
      });
      const rt = h.runtime;
      await runPrompt(h, `first prompt ${long}`);
      await runPrompt(h, 'second prompt');

      const before = usage(rt);
      expect(before.total).toBe(before.header);
      expect(before.header).toBe(contextTokens(rt.session.state, frameOf(rt)));

      const result = await rt.compaction.compact();
      expect(result.tokensBefore).toBe(before.header);
      // The same basis on both sides: a compaction that drops most of the conversation makes the figure smaller.
      expect(result.tokensAfter).toBeLessThan(result.tokensBefore);
      expect(result.tokensAfter).toBeGreaterThan(0);

      const after = usage(rt);
      expect(after.header).toBe(result.tokensAfter);
      expect(after.total).toBe(after.header);
      expect(after.text).toContain('1 compaction');
    });
  }
});
