// interrupt() while a tool of the turn runs: the result says `interrupted`, the tool's signal aborted.
import { query } from 'jarvis-code/sdk';
import { base, out, waitTool } from './common.mjs';

const wait = waitTool();
const q = query({ prompt: 'wait', options: { ...base, tools: [wait.tool] } });
const messages = [];
for await (const m of q) {
  messages.push(m);
  if (m.role === 'assistant' && m.tool_calls?.length) {
    await wait.started;
    await q.interrupt();
  }
}
out({ messages, toolSawAbort: wait.sawAbort });
