#!/usr/bin/env node
// A client of `jarvis serve` that approves from the terminal (docs/server.md "From the SDK"): the session runs on the
// server (this machine or, over SSH forwarding, another one); this program sends one prompt, prints what the agent
// says and does, and asks you on the terminal whenever the agent wants to do something that needs a yes. A browser
// watching the same session could answer too: whoever answers first wins.
// Usage: JARVIS_SERVER_URL=http://127.0.0.1:58627 JARVIS_SERVER_TOKEN=<token> node serve-client.mjs "Tidy the README"
import { createInterface } from 'node:readline';
import { query } from 'jarvis-code/sdk';

const url = process.env.JARVIS_SERVER_URL;
const token = process.env.JARVIS_SERVER_TOKEN;
if (!url || !token) {
  console.error('Set JARVIS_SERVER_URL and JARVIS_SERVER_TOKEN to what `jarvis serve` printed.');
  process.exit(2);
}

// Answers come line by line from stdin (a terminal, or a pipe in a script).
const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
async function ask(question) {
  process.stderr.write(question);
  const { value, done } = await lines.next();
  return !done && /^y(es)?$/i.test(value.trim());
}

const q = query({
  prompt: process.argv[2] ?? 'Say hello.',
  options: {
    server: { url, token },
    cwd: process.env.JARVIS_SERVER_CWD,
    permissionMode: 'manual',
    canUseTool: async (toolName, input, { reason }) =>
      (await ask(`Allow ${toolName} ${JSON.stringify(input)} (${reason})? [y/N] `))
        ? { behavior: 'allow' }
        : { behavior: 'deny', message: 'The user said no at the terminal.' },
  },
});

let code = 1;
for await (const m of q) {
  if (m.type === 'init') console.error(`session ${m.session_id} (${m.model}) in ${m.cwd}`);
  else if (m.role === 'assistant' && m.content) console.log(m.content);
  else if (m.role === 'tool') console.error(`${m.name} → ${m.content.split('\n')[0]}`);
  else if (m.type === 'error') console.error(`error: ${m.message}`);
  else if (m.type === 'result') code = m.exit_code;
}
process.exit(code);
