// The transcript a Claude Code hook reads through `transcript_path` (docs/hooks.md, "The transcript"): the main
// agent's conversation as JSON lines in Claude Code's shape, beside the session's journal. Each line is one message:
// `{"type": "user" | "assistant", "sessionId", "cwd", "timestamp", "message": {"role", "content"}}`; a prompt's
// content is its text, an answer's content the blocks `{"type": "text"}` and `{"type": "tool_use", id, name, input}`
// (tools under Claude Code's names and fields, as the hooks see them), and a tool result is a user line holding
// `{"type": "tool_result", tool_use_id, content, is_error}` — what hooks such as ralph-loop's read with grep and jq.
// It is brought up to date before each Claude Code hook runs, appended while the conversation only grows and
// written again (atomically) after a compaction or undo replaced messages. The journal stays the record.
import { renameSync } from 'node:fs';
import type { Message } from '../../llm/types';
import { appendPrivateFileSync, fsReason, writePrivateFileSync } from '../../store/privateFiles';
import { claudeToolInput, claudeToolName } from './claudeHookPayload';

export const CLAUDE_TRANSCRIPT_FILE = 'claude-transcript.jsonl';

function contentOf(message: Message, cwd: string): unknown {
  if (message.role === 'user') {
    const texts = message.content.flatMap((p) => (p.type === 'text' ? [p.text] : ['[image]']));
    return texts.join('\n');
  }
  if (message.role === 'tool') {
    const text = message.content.map((p) => (p.type === 'text' ? p.text : '[image]')).join('\n');
    return [{ type: 'tool_result', tool_use_id: message.toolCallId, content: text, is_error: !!message.isError }];
  }
  const blocks: unknown[] = [];
  if (message.text) blocks.push({ type: 'text', text: message.text });
  for (const call of message.toolCalls ?? []) {
    let args: unknown;
    try {
      args = JSON.parse(call.arguments || '{}');
    } catch {
      args = { raw: call.arguments };
    }
    blocks.push({
      type: 'tool_use',
      id: call.id,
      name: claudeToolName(call.name),
      input: claudeToolInput(call.name, args, cwd),
    });
  }
  return blocks;
}

export class ClaudeTranscript {
  private written = 0;
  private last: Message | undefined;

  constructor(
    readonly path: string,
    private readonly session: { id: string; cwd: string; messages(): readonly Message[] },
  ) {}

  private line(message: Message): string {
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    return `${JSON.stringify({
      type: role,
      sessionId: this.session.id,
      cwd: this.session.cwd,
      timestamp: new Date().toISOString(),
      message: { role, content: contentOf(message, this.session.cwd) },
    })}\n`;
  }

  /** Brings the file up to date; a failure is returned as a message (the hook still runs, with an older file). */
  sync(): string | undefined {
    const messages = this.session.messages();
    try {
      const grew = messages.length >= this.written && (this.written === 0 || messages[this.written - 1] === this.last);
      if (grew && this.written > 0) {
        const added = messages
          .slice(this.written)
          .map((m) => this.line(m))
          .join('');
        if (added) appendPrivateFileSync(this.path, added);
      } else {
        const tmp = `${this.path}.${process.pid}.tmp`;
        writePrivateFileSync(tmp, messages.map((m) => this.line(m)).join(''));
        renameSync(tmp, this.path);
      }
      this.written = messages.length;
      this.last = messages[messages.length - 1];
      return undefined;
    } catch (e) {
      return `the transcript for Claude Code hooks (${this.path}) could not be written: ${fsReason(e)}`;
    }
  }
}
