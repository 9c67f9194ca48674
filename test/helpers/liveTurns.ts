// Scripted model turns shared by the tests of the server's live state (test/server/serveLive.e2e.test.ts) and the
// web UI's progress panel (test/web/webControls.e2e.test.ts): what the last user prompt was, and which step of its
// turn this request is.
import type { ScriptedTurn } from './mockModelServer';

type Messages = Array<{ role: string; content: unknown }>;

/** The last user message's content as JSON text, and how many tool results followed it. */
export function turnPosition(messages: Messages): { text: string; step: number } {
  const lastUser = messages.map((m) => m.role).lastIndexOf('user');
  return {
    text: JSON.stringify(messages[lastUser]?.content ?? ''),
    step: messages.slice(lastUser).filter((m) => m.role === 'tool').length,
  };
}

/** "delegate the halves": two Agent calls in one response, then an answer. */
export function delegateTurn(step: number): ScriptedTurn {
  return step === 0
    ? {
        toolCalls: [
          { name: 'Agent', arguments: { description: 'first half', prompt: 'Do task A.' } },
          { name: 'Agent', arguments: { description: 'second half', prompt: 'Do task B.' } },
        ],
      }
    : { text: 'both halves done' };
}
