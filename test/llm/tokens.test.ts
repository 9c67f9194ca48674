import { describe, expect, it } from 'vitest';
import {
  estimateMessageTokens,
  estimateRequestTokens,
  estimateTokens,
  IMAGE_TOKEN_ESTIMATE,
} from '../../src/llm/tokens';
import type { Message } from '../../src/llm/types';

describe('estimateTokens', () => {
  it.each([
    ['', 0],
    ['a', 1],
    ['abcd', 1],
    ['abcde', 2],
    ['x'.repeat(400), 100],
    ['héllo', 3], // ceil(5/4) + 1 non-ASCII
    ['日本語', 4], // ceil(3/4) + 3
  ])('%j → %i', (text, expected) => {
    expect(estimateTokens(text)).toBe(expected);
  });
});

describe('estimateMessageTokens', () => {
  it('counts text, images, thinking, tool calls and results', () => {
    const messages: Message[] = [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'x'.repeat(40) },
          { type: 'image', mediaType: 'image/png', data: 'AAAA' },
        ],
      },
      {
        role: 'assistant',
        text: 'y'.repeat(8),
        thinking: [{ text: 'z'.repeat(4) }],
        toolCalls: [{ id: 'c1', name: 'Read', arguments: '{"p":1}' }],
      },
      { role: 'tool', toolCallId: 'c1', toolName: 'Read', content: [{ type: 'text', text: 'w'.repeat(12) }] },
    ];
    const total = estimateMessageTokens(messages);
    const expected = 3 * 4 + 10 + IMAGE_TOKEN_ESTIMATE + 2 + 1 + (1 + 2 + 1) + 3 + 1;
    expect(total).toBe(expected);
  });

  it('is zero for no messages and grows with content', () => {
    expect(estimateMessageTokens([])).toBe(0);
    const short = estimateMessageTokens([{ role: 'user', content: [{ type: 'text', text: 'hi' }] }]);
    const long = estimateMessageTokens([{ role: 'user', content: [{ type: 'text', text: 'hi '.repeat(100) }] }]);
    expect(long).toBeGreaterThan(short);
  });
});

describe('estimateRequestTokens', () => {
  it('adds the system prompt and tool schemas', () => {
    const messages: Message[] = [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }];
    const bare = estimateRequestTokens({ system: '', messages, tools: [], params: {} });
    expect(bare).toBe(estimateMessageTokens(messages));
    const full = estimateRequestTokens({
      system: 's'.repeat(400),
      messages,
      tools: [
        {
          name: 'Read',
          description: 'Reads a file',
          parameters: { type: 'object', properties: { path: { type: 'string' } } },
        },
      ],
      params: {},
    });
    expect(full).toBeGreaterThan(bare + 100);
  });
});
