// Two queries at once in one process, each with its own `env` (docs/sdk.md "Concurrency and isolation"): what their
// Bash commands, hooks and MCP stdio servers see is reported by the test from the files and messages; the program
// records whether process.env changed.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { query } from 'jarvis-code/sdk';
import { base, collect, handles, out } from './common.mjs';

const before = handles();
const envBefore = JSON.stringify(process.env);
const run = (word) => {
  const cwd = join(process.env.WORK, word);
  mkdirSync(cwd, { recursive: true });
  const env = { ...process.env, PROBE_X: `probe-${word}`, LOGNAME: `user-${word}` };
  return collect(
    query({
      prompt: `show the environment of ${word}`,
      options: { ...base, cwd, env, permissionMode: 'yolo', settingSources: ['user'] },
    }),
  );
};
const [ma, mb] = await Promise.all([run('alpha'), run('beta')]);
await new Promise((r) => setImmediate(r));
out({
  ma,
  mb,
  probeInProcess: process.env.PROBE_X ?? null,
  processEnvUnchanged: JSON.stringify(process.env) === envBefore,
  before,
  after: handles(),
});
