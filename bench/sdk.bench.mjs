// The SDK's time to the first model request against `jarvis -p` in the same run (issue 46; docs/sdk.md): each sample
// is a fresh Node process, against the loopback mock model, on a fresh data folder, interleaved so machine load
// touches both alike:
//   - `jarvis -p hi` (the built CLI, bin/jarvis);
//   - `node sdkChild.mjs`: a program that imports dist/sdk.js and runs query({ prompt: 'hi' }) with the model from
//     the same JARVIS_MODEL_* environment.
// Time is from spawn to the mock server receiving the first request. Target: SDK / CLI ≤ 1.0.
// Usage: node scripts/build.mjs && node bench/sdk.bench.mjs [--runs N]
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { bin, jarvisEnv, loadMockModelServer, root } from './jarvisChild.mjs';

const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 9;
const sorted = (xs) => [...xs].sort((a, b) => a - b);
const median = (xs) => sorted(xs)[Math.floor(xs.length / 2)];
const show = (xs) => `${median(xs).toFixed(0)} ms (range ${sorted(xs)[0].toFixed(0)}–${sorted(xs).at(-1).toFixed(0)})`;

const startMockModelServer = await loadMockModelServer();
const server = await startMockModelServer({ script: () => ({ text: 'ok' }) });
const scratch = mkdtempSync(join(tmpdir(), 'jarvis-bench-sdk-'));
const child = join(scratch, 'sdkChild.mjs');
writeFileSync(
  child,
  `import { query } from ${JSON.stringify(pathToFileURL(join(root, 'dist', 'sdk.js')).href)};\n` +
    `for await (const m of query({ prompt: 'hi' })) if (m.type === 'result' && m.outcome !== 'success') process.exit(1);\n`,
);
let folders = 0;

function firstRequest(args) {
  const dir = join(scratch, `w${folders++}`);
  const ws = { home: join(dir, 'home'), cwd: join(dir, 'work') };
  mkdirSync(ws.home, { recursive: true });
  mkdirSync(ws.cwd, { recursive: true });
  return new Promise((resolveRun, reject) => {
    const before = server.requests.length;
    const spawnedAt = Date.now();
    const p = spawn(process.execPath, args, {
      cwd: ws.cwd,
      env: jarvisEnv(ws, server),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    p.stderr.on('data', (d) => (err += d));
    p.on('close', (code) => {
      if (code !== 0 || server.requests.length <= before)
        return reject(new Error(`${args.join(' ')} exited ${code} with no request: ${err.slice(-800)}`));
      resolveRun(server.requests[before].at - spawnedAt);
    });
  });
}

const cli = [];
const sdk = [];
await firstRequest([bin, '-p', 'hi']); // warm the file cache
await firstRequest([child]);
for (let i = 0; i < runs; i++) {
  cli.push(await firstRequest([bin, '-p', 'hi']));
  sdk.push(await firstRequest([child]));
}
await server.close();
rmSync(scratch, { recursive: true, force: true });
console.log(`jarvis -p hi, to the first model request: ${show(cli)}`);
console.log(`SDK query({ prompt: 'hi' }), to the first model request: ${show(sdk)}`);
console.log(`ratio SDK / jarvis -p: ${(median(sdk) / median(cli)).toFixed(2)}× (target ≤ 1.0×)`);
