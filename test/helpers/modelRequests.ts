// What the scripted model received, read back by the end-to-end tests (test/helpers/mockModelServer.ts).
import type { MockModelServer } from './mockModelServer';

type Message = { role: string; content: unknown };
type Request = MockModelServer['requests'][number];

/** A message's content as text (a list of parts as its JSON). */
export function messageText(m: { content: unknown }): string {
  return typeof m.content === 'string' ? m.content : JSON.stringify(m.content);
}

/** The last user message of a request (OpenAI-shaped body), as text. */
export function lastUserText(request: Request): string {
  const users = (request.body.messages as Message[]).filter((m) => m.role === 'user');
  return messageText(users.at(-1)!);
}

/** The result the model received for tool call `id` (the first request that carries it), as text. */
export function toolResultText(requests: readonly Request[], id: string): string {
  for (const req of requests) {
    const messages = req.body.messages as Array<Message & { tool_call_id?: string }>;
    const m = messages.find((x) => x.role === 'tool' && x.tool_call_id === id);
    if (m) return messageText(m);
  }
  throw new Error(`no tool result for ${id}`);
}
