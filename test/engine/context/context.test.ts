import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  contextBreakdown,
  contextTokens,
  contextWindow,
  estimateToolSchemaTokens,
  needsCompaction,
  type RequestFrame,
} from '../../../src/engine/context/context';
import { undo } from '../../../src/engine/session/undo';
import { estimateMessageTokens, estimateTokens } from '../../../src/llm/tokens';
import { toolSchemaForModel } from '../../../src/tools/defineTool';
import { makeEngine, type EngineHarness, verifyEnginesAfterEach, runPrompt } from '../../helpers/engineHarness';

let h: EngineHarness | undefined;
verifyEnginesAfterEach();

const prompt = runPrompt;
function frameOf(engine: EngineHarness): RequestFrame {
  return {
    system: engine.runtime.session.state.systemPrompt!,
    tools: engine.runtime.tools.list().map(toolSchemaForModel),
  };
}

describe('token estimates', () => {
  it('counts about four characters per token plus one per non-ASCII character', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('abcd')).toBe(1);
    expect(estimateTokens('abcde')).toBe(2);
    expect(estimateTokens('héllo')).toBe(2 + 1);
    expect(estimateTokens('日本語')).toBe(1 + 3);
  });

  it('the window is max_input_size when set, else the context size', () => {
    expect(contextWindow({ maxContextSize: 200_000 })).toBe(200_000);
    expect(contextWindow({ maxContextSize: 200_000, maxInputSize: 150_000 })).toBe(150_000);
  });

  it('compaction is needed at the ratio, or when less than the reserve remains', () => {
    expect(needsCompaction(849, 1_000, { triggerRatio: 0.85 })).toBe(false);
    expect(needsCompaction(850, 1_000, { triggerRatio: 0.85 })).toBe(true);
    expect(needsCompaction(700, 1_000, { triggerRatio: 0.85, reservedContextSize: 301 })).toBe(true);
    expect(needsCompaction(700, 1_000, { triggerRatio: 0.85, reservedContextSize: 300 })).toBe(false);
    expect(needsCompaction(700, 1_000, { triggerRatio: 0.85, reservedContextSize: 0 })).toBe(false);
  });
});

describe('context accounting', () => {
  it('anchors on the reported input and adds an estimate of what came after it', async () => {
    h = makeEngine({
      responses: [{ text: 'first answer', usage: { inputTokens: 5_000, outputTokens: 7 } }, { text: 'x' }],
    });
    const frame = frameOf(h);
    const state = h.runtime.session.state;
    // Before any request: the estimate of system prompt, tool schemas and messages.
    expect(contextTokens(state, frame)).toBe(estimateTokens(frame.system) + estimateToolSchemaTokens(frame.tools));
    await prompt(h, 'hello');
    const since = estimateMessageTokens(state.messages.slice(1));
    expect(state.contextAnchor).toEqual({ inputTokens: 5_000, messageCount: 1 });
    expect(contextTokens(state, frame)).toBe(5_000 + since);
    expect(contextTokens(state, frame, 'measured')).toBe(5_000);
    expect(contextTokens(state, frame, 'estimated')).toBe(
      estimateTokens(frame.system) + estimateToolSchemaTokens(frame.tools) + estimateMessageTokens(state.messages),
    );
    // The usage event shows the context after the answer: reported input plus output.
    expect(h.eventsOf('usage')[0]).toMatchObject({ contextTokens: 5_007, contextLimit: 100_000 });
  });

  it('falls back to the estimate when the provider reports no input tokens', async () => {
    h = makeEngine({ responses: [{ text: 'ok', usage: { inputTokens: 0, outputTokens: 3 } }] });
    await prompt(h, 'hello');
    const [usage] = h.eventsOf('usage');
    const expected =
      estimateTokens(h.client.requests[0].system) +
      estimateToolSchemaTokens(h.client.requests[0].tools) +
      estimateMessageTokens(h.client.requests[0].messages);
    expect(usage.contextTokens).toBe(expected + 3);
    expect(h.runtime.session.state.contextAnchor).toBeUndefined();
  });

  it('undo restores the anchor that was valid before the withdrawn prompt', async () => {
    h = makeEngine({
      responses: [
        { text: 'a', usage: { inputTokens: 1_000, outputTokens: 1 } },
        { text: 'b', usage: { inputTokens: 2_000, outputTokens: 1 } },
      ],
    });
    await prompt(h, 'one');
    const anchorAfterOne = h.runtime.session.state.contextAnchor;
    await prompt(h, 'two');
    undo(h.runtime, 1);
    expect(h.runtime.session.state.contextAnchor).toEqual(anchorAfterOne);
    expect(contextTokens(h.runtime.session.state, frameOf(h))).toBe(
      1_000 + estimateMessageTokens(h.runtime.session.state.messages.slice(1)),
    );
  });

  it('the /usage breakdown splits the context by source', async () => {
    const agents = 'Always run the tests before you say you are done.\n'.repeat(20);
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'jarvis-ctx-')));
    const dirs = { home: join(root, 'home'), cwd: join(root, 'work') };
    mkdirSync(dirs.home);
    mkdirSync(dirs.cwd);
    writeFileSync(join(dirs.cwd, 'AGENTS.md'), agents);
    h = makeEngine({
      dirs,
      mode: 'yolo',
      model: { maxContextSize: 50_000, maxInputSize: 40_000 },
      responses: [
        { toolCalls: [{ id: 'c', name: 'Peek', arguments: { key: 'k', ms: 0 } }] },
        { text: 'done', usage: { inputTokens: 3_000, outputTokens: 5 } },
      ],
    });
    await prompt(h, 'look at k');
    const b = contextBreakdown(
      h.runtime.session.state,
      frameOf(h),
      { maxContextSize: 50_000, maxInputSize: 40_000 },
      { thresholds: { triggerRatio: 0.8, reservedContextSize: 10_000 } },
    );
    expect(b.window).toBe(40_000);
    expect(b.compactAt).toBe(30_000);
    expect(b.total).toBe(contextTokens(h.runtime.session.state, frameOf(h)));
    expect(b.free).toBe(40_000 - b.total);
    expect(b.sources.toolSchemas).toBe(estimateToolSchemaTokens(frameOf(h).tools));
    expect(b.sources.toolResults).toBeGreaterThan(0);
    expect(b.sources.agentsMd).toBeGreaterThanOrEqual(estimateTokens(agents.trim()));
    expect(b.sources.systemPrompt).toBeGreaterThan(0);
    expect(b.sources.history).toBeGreaterThan(0);
    expect(b.estimated).toBe(Object.values(b.sources).reduce((x, y) => x + y, 0));
    expect(b.session.inputTokens).toBe(3_100);
    expect(b.messages).toBe(4);
  });
});
