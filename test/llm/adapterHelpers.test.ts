// Pure pieces of the adapters: model-limit inference, finish reasons, reasoning fields.

import { describe, expect, it } from 'vitest';
import {
  inferAdaptiveThinking,
  inferAnthropicMaxOutput,
  mapAnthropicStopReason,
  UNKNOWN_MODEL_MAX_OUTPUT,
} from '../../src/llm/anthropic';
import { mapChatFinishReason, reasoningFromDelta } from '../../src/llm/openaiChat';

describe('anthropic model inference', () => {
  it.each([
    ['claude-sonnet-4-5-20250929', 64_000],
    ['claude-sonnet-4-20250514', 64_000],
    ['claude-opus-4-1-20250805', 32_000],
    ['claude-opus-4-20250514', 32_000],
    ['claude-opus-4-5', 64_000],
    ['claude-haiku-4-5', 64_000],
    ['claude-3-7-sonnet-latest', 64_000],
    ['claude-3-5-haiku-20241022', 8_192],
    ['claude-3-opus-20240229', 4_096],
    ['some-proxy-model', UNKNOWN_MODEL_MAX_OUTPUT],
  ])('max output of %s is %i', (model, expected) => {
    expect(inferAnthropicMaxOutput(model)).toBe(expected);
  });

  it.each([
    ['claude-opus-4-6', true],
    ['claude-sonnet-4-6', true],
    ['claude-opus-5', true],
    ['claude-sonnet-4-5-20250929', false],
    ['claude-sonnet-4-20250514', false],
    ['claude-3-7-sonnet-latest', false],
    ['gpt-5', false],
  ])('adaptive thinking for %s: %s', (model, expected) => {
    expect(inferAdaptiveThinking(model)).toBe(expected);
  });

  it.each([
    ['end_turn', 'stop'],
    ['stop_sequence', 'stop'],
    ['tool_use', 'tool_calls'],
    ['max_tokens', 'length'],
    ['model_context_window_exceeded', 'length'],
    ['refusal', 'content_filter'],
    ['pause_turn', 'other'],
    [null, 'other'],
  ] as const)('stop reason %s → %s', (reason, expected) => {
    expect(mapAnthropicStopReason(reason)).toBe(expected);
  });
});

describe('chat completions helpers', () => {
  it.each([
    ['stop', false, 'stop'],
    ['stop', true, 'tool_calls'],
    ['tool_calls', true, 'tool_calls'],
    ['length', false, 'length'],
    ['content_filter', false, 'content_filter'],
    ['weird', false, 'other'],
  ] as const)('finish %s (tools: %s) → %s', (reason, sawTools, expected) => {
    expect(mapChatFinishReason(reason, sawTools)).toBe(expected);
  });

  it('finds reasoning under the known keys, first one only', () => {
    expect(reasoningFromDelta({ reasoning_content: 'a' })).toBe('a');
    expect(reasoningFromDelta({ reasoning: 'b' })).toBe('b');
    expect(reasoningFromDelta({ reasoning: 'b', reasoning_details: [{ type: 'reasoning.text', text: 'b' }] })).toBe(
      'b',
    );
    expect(
      reasoningFromDelta({
        reasoning_details: [
          { type: 'reasoning.text', text: 'c' },
          { type: 'reasoning.summary', summary: 'd' },
        ],
      }),
    ).toBe('cd');
    expect(reasoningFromDelta({ content: 'x' })).toBe('');
    expect(reasoningFromDelta({ reasoning_content: 'a', thoughts: 't' }, 'thoughts')).toBe('t');
  });
});
