// interrupt() while a tool of the turn runs: the result says `interrupted`, the tool's signal aborted.
import { query, tool } from 'jarvis-code/sdk';
import { base, out } from './common.mjs';

let toolSawAbort = false;
let started;
const toolStarted = new Promise((resolve) => (started = resolve));
const wait = tool({
  name: 'wait_for_stop',
  description: 'Waits until it is stopped.',
  inputSchema: { type: 'object', properties: {} },
  readOnly: true,
  handler: (_input, { signal }) =>
    new Promise((resolve) => {
      started();
      signal.addEventListener('abort', () => {
        toolSawAbort = true;
        resolve('stopped');
      });
    }),
});
const q = query({ prompt: 'wait', options: { ...base, tools: [wait] } });
const messages = [];
for await (const m of q) {
  messages.push(m);
  if (m.role === 'assistant' && m.tool_calls?.length) {
    await toolStarted;
    await q.interrupt();
  }
}
out({ messages, toolSawAbort });
