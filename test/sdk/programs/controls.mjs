// A conversation fed while it runs (an async iterable prompt), with setModel and setPermissionMode between its runs
// and appendSystemPrompt; then a query stopped through its abortController while a tool waits. Handles are counted
// before and after both.
import { query } from 'jarvis-code/sdk';
import { base, handles, out, waitTool } from './common.mjs';

const before = handles();
let firstDone;
const firstResult = new Promise((resolve) => (firstDone = resolve));
async function* conversation() {
  yield { type: 'user', content: 'first question' };
  await firstResult;
  yield { type: 'note', text: 'not a user message' };
  yield { type: 'user', content: 'now write the notes' };
}
const q = query({
  prompt: conversation(),
  options: { ...base, appendSystemPrompt: 'Answer like a lighthouse keeper.' },
});
const messages = [];
const refused = [];
for await (const m of q) {
  messages.push(m);
  if (m.type === 'result' && !firstDone.called) {
    firstDone.called = true;
    await q.setModel('mock-model-2');
    await q.setPermissionMode('plan');
    await q.setPermissionMode('manual').catch((e) => refused.push(e.message));
    firstDone();
  }
}

const abortController = new AbortController();
const wait = waitTool();
const aborted = [];
for await (const m of query({ prompt: 'wait', options: { ...base, tools: [wait.tool], abortController } })) {
  aborted.push(m);
  if (m.role === 'assistant' && m.tool_calls?.length) void wait.started.then(() => abortController.abort());
}
out({ messages, refused, aborted, before, after: handles() });
