// query() with options.server (docs/server.md "From the SDK"): a session on a running `jarvis serve`; canUseTool
// denies a Write and rewrites a Bash command over the API; resume continues the session; interrupt() stops a turn.
import { query } from 'jarvis-code/sdk';
import { collect, handles, out } from './common.mjs';

const server = { url: process.env.SERVE_URL, token: process.env.SERVE_TOKEN };
const before = handles();
const asked = [];
const first = await collect(
  query({
    prompt: 'write a file, then run a command',
    options: {
      server,
      permissionMode: 'manual',
      canUseTool: async (toolName, input) => {
        asked.push({ toolName, input });
        if (toolName === 'Write') return { behavior: 'deny', message: 'Writing files is not allowed in this check.' };
        return { behavior: 'allow', updatedInput: { ...input, command: 'echo rewritten-by-sdk' } };
      },
    },
  }),
);
const id = first[0].session_id;
const second = await collect(query({ prompt: 'what did you do?', options: { server, resume: id } }));

const stopped = [];
const q = query({ prompt: 'never answer', options: { server, resume: id } });
for await (const m of q) {
  stopped.push(m);
  if (m.type === 'init') await q.interrupt();
}
const refused = await collect(query({ prompt: 'hi', options: { server: { ...server, token: 'wrong' } } }));
out({ asked, first, second, stopped, refused, before, after: handles() });
