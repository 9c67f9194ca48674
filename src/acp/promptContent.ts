// An ACP prompt (text, images, embedded resources, resource links) as the engine's user message.
// Embedded text resources are inlined as <resource uri="…">…</resource> (the editor already read them);
// binary resources and audio cannot be given to the model and are dropped with a warning.
import type { ContentBlock } from '@agentclientprotocol/sdk';
import type { ContentPart } from '../llm/types';

export interface PromptInput {
  /** The prompt as plain text (hooks, the journal's turn record, slash commands). */
  text: string;
  content: ContentPart[];
  /** What was dropped, one line each. */
  warnings: string[];
}

function attr(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

export function promptInput(blocks: readonly ContentBlock[]): PromptInput {
  const content: ContentPart[] = [];
  const warnings: string[] = [];
  for (const block of blocks) {
    switch (block.type) {
      case 'text':
        content.push({ type: 'text', text: block.text });
        break;
      case 'image':
        content.push({ type: 'image', mediaType: block.mimeType, data: block.data });
        break;
      case 'resource':
        if ('text' in block.resource) {
          content.push({
            type: 'text',
            text: `<resource uri="${attr(block.resource.uri)}">\n${block.resource.text}\n</resource>`,
          });
        } else {
          warnings.push(
            `The binary resource ${block.resource.uri} was left out of the prompt: only text resources can be given to the model.`,
          );
        }
        break;
      case 'resource_link':
        content.push({
          type: 'text',
          text: `<resource_link uri="${attr(block.uri)}" name="${attr(block.name)}"${block.mimeType ? ` mimeType="${attr(block.mimeType)}"` : ''} />`,
        });
        break;
      case 'audio':
        warnings.push('An audio clip was left out of the prompt: Jarvis does not take audio input.');
        break;
    }
  }
  const text = content.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');
  return { text, content, warnings };
}
