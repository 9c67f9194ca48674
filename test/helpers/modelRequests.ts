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
