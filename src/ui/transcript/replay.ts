// A resumed session's history as transcript blocks, rebuilt from its messages. Text the engine
// injects for the model (plan and goal reminders, notifications, recalled memories) is not shown as the user's; the
// compaction note becomes a compaction block.
import { isCompactionNote } from '../../engine/context/compactionUserWords';
import { RECALL_BLOCK } from '../../engine/context/memoryRecall';
import { chipOfPart } from '../../engine/context/attachmentTags';
import type { CompactionInfo } from '../../engine/session/records';
import type { Message } from '../../llm/types';
import type { Block, ViewState } from './block';
import { CompactionBlock } from './compactionBlock';
import { AssistantBlock, ThinkingBlock, UserBlock } from './messageBlocks';
import { describeCall, ToolCard } from './toolCard';

const INJECTED = /^<(system-notification|system-reminder|goal-mode)>/;

function userText(m: Extract<Message, { role: 'user' }>): {
  text: string;
  chips: string[];
  notification: boolean;
  compaction: boolean;
} {
  // `@path` attachments come back as their chips, not their content (promptAttachments.ts).
  const chips: string[] = [];
  const shown: string[] = [];
  let afterAttachment = false;
  for (const p of m.content) {
    const chip = chipOfPart(p);
    if (chip) chips.push(chip);
    else if (!(afterAttachment && p.type === 'image')) shown.push(p.type === 'text' ? p.text : `[${p.type}]`);
    afterAttachment = chip !== undefined || (afterAttachment && p.type === 'image');
  }
  const text = shown.join('\n');
  return {
    text: text
      .replace(/<shell-command>[\s\S]*?<\/shell-command>\n?/g, '')
      .replace(RECALL_BLOCK, '')
      .trim(),
    chips,
    notification: INJECTED.test(text),
    compaction: isCompactionNote(m),
  };
}

export function blocksFromMessages(
  messages: readonly Message[],
  view: ViewState,
  compactions: readonly CompactionInfo[] = [],
): Block[] {
  const blocks: Block[] = [];
  const cards = new Map<string, ToolCard>();
  for (const m of messages) {
    if (m.role === 'user') {
      const { text, chips, notification, compaction } = userText(m);
      if (compaction) blocks.push(new CompactionBlock(view, compactions.at(-1) ?? { trigger: 'auto', summary: text }));
      else if (text && !notification) blocks.push(new UserBlock(view, text, 'prompt', chips));
    } else if (m.role === 'assistant') {
      const thinking = (m.thinking ?? [])
        .map((t) => t.text)
        .join('\n')
        .trim();
      if (thinking) {
        const t = new ThinkingBlock(view, thinking);
        t.finish();
        blocks.push(t);
      }
      if (m.text.trim()) {
        const a = new AssistantBlock(view, m.text);
        a.done = true;
        blocks.push(a);
      }
      for (const call of m.toolCalls ?? []) {
        const card = new ToolCard(view, call.id, call.name, describeCall(call.name, call.arguments, view.cwd));
        cards.set(call.id, card);
        blocks.push(card);
      }
    } else {
      const card = cards.get(m.toolCallId);
      const text = m.content.map((p) => (p.type === 'text' ? p.text : `[${p.type}]`)).join('\n');
      card?.finish({ text, isError: !!m.isError }, /^The user rejected/.test(text) ? 'rejected' : undefined);
    }
  }
  for (const card of cards.values()) if (!card.done) card.finish({ text: 'No result was recorded.', isError: true });
  return blocks;
}
