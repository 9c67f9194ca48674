// The print-mode refusal of a prompt that cannot fit (src/cli/printInput.ts, docs/print-mode.md "Input"):
// it names what is too big, with the figures, and what to do.
import { describe, expect, it } from 'vitest';
import { windowRefusal } from '../../src/cli/printInput';

describe('windowRefusal', () => {
  it('blames the system prompt and tools when they alone fill the usable share of the window', () => {
    const text = windowRefusal({ window: 8000, name: 'gpt-x', frameTokens: 6500, promptTokens: 1 });
    expect(text).toBe(
      'jarvis: the system prompt and tool definitions alone are about 6500 tokens, and model "gpt-x" has a ' +
        '8000-token window, of which a request may fill about 6000 tokens (the rest is kept for the answer), so ' +
        'no prompt fits. Use a model with a larger window, or fewer tools: turn off plugins or MCP servers ' +
        '(see jarvis plugin list and jarvis mcp list).',
    );
  });

  it('blames the prompt when it is larger than what the system prompt and tools leave', () => {
    const text = windowRefusal({ window: 8000, name: 'gpt-x', frameTokens: 2000, promptTokens: 25_000 });
    expect(text).toContain('the prompt is about 25000 tokens, but model "gpt-x" has a 8000-token window');
    expect(text).toContain('the system prompt and tools take about 2000 tokens of it');
    expect(text).toContain('which leaves about 4000 tokens for the prompt');
    expect(text).toContain('Shorten it, save the text to a file');
    expect(text).toContain('or use a model with a larger window');
  });

  it('says "1 token", not "1 tokens"', () => {
    expect(windowRefusal({ window: 1, name: 'tiny', frameTokens: 1, promptTokens: 1 })).toContain(
      'the system prompt and tool definitions alone are about 1 token,',
    );
  });
});
