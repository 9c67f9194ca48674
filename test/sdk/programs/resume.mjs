// resume continues the same session; forkSession continues in a copy.
import { query } from 'jarvis-code/sdk';
import { base, collect, out } from './common.mjs';

const first = await collect(query({ prompt: 'remember the number 42', options: base }));
const id = first.at(-1).session_id;
const second = await collect(query({ prompt: 'which number?', options: { ...base, resume: id } }));
const forked = await collect(query({ prompt: 'and now?', options: { ...base, resume: id, forkSession: true } }));
out({ first, second, forked });
