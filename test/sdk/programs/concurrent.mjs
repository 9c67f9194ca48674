// Two queries at once in one process, in two folders: separate sessions, each its own answer; nothing left open.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { query } from 'jarvis-code/sdk';
import { base, collect, handles, out } from './common.mjs';

const before = handles();
const a = join(process.env.WORK, 'a');
const b = join(process.env.WORK, 'b');
mkdirSync(a, { recursive: true });
mkdirSync(b, { recursive: true });
const [ma, mb] = await Promise.all([
  collect(query({ prompt: 'echo alpha', options: { ...base, cwd: a } })),
  collect(query({ prompt: 'echo beta', options: { ...base, cwd: b, permissionMode: 'yolo' } })),
]);
await new Promise((r) => setImmediate(r));
out({ ma, mb, before, after: handles() });
