// Token estimates used before the provider reports real usage (and to size what was added since).
// A tokenizer would be exact but costs about half a second to import, so we approximate: four
// characters per token, plus one per non-ASCII character, which tokenizers split more finely.

import type { ContentPart, Message, ModelRequest } from './types';

/** Rough cost of one image; providers charge roughly 1–2k tokens for a typical screenshot. */
export const IMAGE_TOKEN_ESTIMATE = 1_500;
/** Per-message framing (role markers, separators). */
const MESSAGE_OVERHEAD = 4;

export function estimateTokens(text: string): number {
  if (!text) return 0;
  let nonAscii = 0;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) > 0x7f) nonAscii++;
  }
  return Math.ceil(text.length / 4) + nonAscii;
}

function estimateParts(parts: readonly ContentPart[]): number {
  let total = 0;
  for (const part of parts) total += part.type === 'text' ? estimateTokens(part.text) : IMAGE_TOKEN_ESTIMATE;
  return total;
}

export function estimateMessageTokens(messages: readonly Message[]): number {
  let total = 0;
  for (const message of messages) {
    total += MESSAGE_OVERHEAD;
    switch (message.role) {
      case 'user':
        total += estimateParts(message.content);
        break;
      case 'tool':
        total += estimateParts(message.content) + estimateTokens(message.toolCallId);
        break;
      case 'assistant':
        total += estimateTokens(message.text);
        for (const block of message.thinking ?? [])
          total += estimateTokens(block.text) + estimateTokens(block.redacted ?? '');
        for (const call of message.toolCalls ?? [])
          total += estimateTokens(call.name) + estimateTokens(call.arguments) + estimateTokens(call.id);
        break;
    }
  }
  return total;
}

export function estimateRequestTokens(request: ModelRequest): number {
  let total = estimateTokens(request.system) + estimateMessageTokens(request.messages);
  for (const tool of request.tools) {
    total +=
      estimateTokens(tool.name) + estimateTokens(tool.description) + estimateTokens(JSON.stringify(tool.parameters));
  }
  return total;
}
