// Messages in order ending in `result`; manual mode without canUseTool refused at once; an early break frees all.
import { query } from 'jarvis-code/sdk';
import { base, collect, handles, out } from './common.mjs';

const before = handles();
let manualError = null;
try {
  query({ prompt: 'anything', options: { ...base, permissionMode: 'manual' } });
} catch (e) {
  manualError = e.message;
}
const messages = await collect(query({ prompt: 'say hello', options: base }));
let first = null;
for await (const m of query({ prompt: 'say hello again', options: base })) {
  first = m;
  break;
}
await new Promise((r) => setImmediate(r));
out({ manualError, messages, first, before, after: handles() });
