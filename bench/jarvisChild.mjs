// What the end-to-end benchmarks share: the loopback mock model (bundled from the test helper), the
// environment that points the built `jarvis` at it, and a timed run of the binary as a child process.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

export const root = resolve(import.meta.dirname, '..');
export const bin = join(root, 'bin', 'jarvis');
export const outDir = join(root, 'bench', 'results');

/** `startMockModelServer` from test/helpers/mockModelServer.ts, bundled into bench/results. */
export async function loadMockModelServer() {
  mkdirSync(outDir, { recursive: true });
  await build({
    entryPoints: [join(root, 'test/helpers/mockModelServer.ts')],
    outfile: join(outDir, 'mockModelServer.mjs'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    logLevel: 'warning',
  });
  return (await import(join(outDir, 'mockModelServer.mjs'))).startMockModelServer;
}

/** The caller's environment without its JARVIS_* settings, pointed at `ws.home` and the mock model. */
export function jarvisEnv(ws, server, extra = {}) {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('JARVIS_')));
  return {
    ...base,
    JARVIS_CODE_HOME: ws.home,
    JARVIS_MEMORY_EXTRACTION_ENABLED: 'false',
    JARVIS_MODEL_NAME: 'bench',
    JARVIS_MODEL_API_KEY: 'k',
    JARVIS_MODEL_PROVIDER_TYPE: 'openai',
    JARVIS_MODEL_BASE_URL: server.baseUrlFor('openai'),
    ...extra,
  };
}

/** Runs `jarvis args…`; resolves with its wall time (ms) and start time (hrtime), rejects on a non-zero exit. */
export function runJarvisChild(args, opts) {
  return new Promise((resolvePromise, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(process.execPath, [bin, ...args], { ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.stdout.resume();
    child.on('close', (code) => {
      const wall = Number(process.hrtime.bigint() - t0) / 1e6;
      if (code !== 0) reject(new Error(`jarvis ${args.join(' ')} exited ${code}: ${err}`));
      else resolvePromise({ wall, t0 });
    });
  });
}

/**
 * `jarvis serve` or `jarvis web` (`args` after the command) on a free port, in `ws`, against the mock model: the
 * child, its address and token, once it has printed them (and, for `web`, the login link).
 */
export async function startJarvisServer(command, ws, server, args = []) {
  const child = spawn(process.execPath, [bin, command, '--port', '0', ...args], {
    cwd: ws.cwd,
    env: jarvisEnv(ws, server),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const ready = command === 'web' ? /#login=\S+/ : /Token: \S+/;
  let out = '';
  await new Promise((ok, fail) => {
    child.stdout.on('data', (d) => {
      out += d;
      if (ready.test(out)) ok();
    });
    child.once('exit', (code) => fail(new Error(`jarvis ${command} exited ${code}:\n${out}`)));
  });
  return { child, url: /Jarvis server at (\S+)/.exec(out)[1], token: /Token: (\S+)/.exec(out)[1] };
}
