// Time from spawn to the first model request, Jarvis against Codex (issue 44, "Start-up on a new machine"), both
// against the loopback mock model server, each on a fresh home (a new data folder every run) and a warm one (the
// same folder, after two runs), interleaved so drifting machine load touches every configuration alike:
//   - `node -e 0` (the floor);
//   - `jarvis -p hi`, default configuration (the bundled Jarvis Documents plugin installed at start-up);
//   - `jarvis -p hi` from the same build without its bundled plugins (dist/ copied without dist/plugins);
//   - `jarvis -p hi`, default configuration, on a fresh home from a copy of the build whose start-up code cache is
//     removed before each run (src/cli/startLoader.ts): the first run after an install or upgrade;
//   - `codex exec hi` (@openai/codex from the npm registry, its platform binary inside the npm package), with a
//     CODEX_HOME whose config.toml points a custom model provider (Responses API) at the mock server.
// Codex is installed at bench time into bench/results/codex (never committed); without the registry the Codex
// rows are skipped with the reason. `--codex <path to bin/codex.js>` uses an installed copy instead.
// Usage: node scripts/build.mjs && node bench/firstRequest.bench.mjs [--runs N] [--codex path]
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bin, jarvisEnv, loadMockModelServer, outDir, root } from './jarvisChild.mjs';

const arg = (name) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
const runs = Number(arg('--runs')) || 7;
const CODEX_VERSION = '0.171.0';

const sorted = (xs) => [...xs].sort((a, b) => a - b);
const median = (xs) => sorted(xs)[Math.floor(xs.length / 2)];
const show = (xs) => `${median(xs).toFixed(0)} ms (range ${sorted(xs)[0].toFixed(0)}–${sorted(xs).at(-1).toFixed(0)})`;

/** Codex's launcher script: the one given, the one installed here before, or a fresh install from the registry. */
function findCodex() {
  const given = arg('--codex');
  if (given) return existsSync(given) ? { path: given } : { skip: `--codex ${given} does not exist` };
  const prefix = join(outDir, 'codex');
  const script = join(prefix, 'node_modules/@openai/codex/bin/codex.js');
  if (!existsSync(script)) {
    mkdirSync(prefix, { recursive: true });
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const install = spawnSync(
      npm,
      ['install', '--prefix', prefix, '--no-audit', '--no-fund', '--no-save', `@openai/codex@${CODEX_VERSION}`],
      { encoding: 'utf8', timeout: 300_000 },
    );
    if (install.status !== 0)
      return {
        skip: `npm install @openai/codex@${CODEX_VERSION} failed: ${(install.stderr || install.error?.message || '').trim().split('\n').at(-1)}`,
      };
  }
  return existsSync(script) ? { path: script } : { skip: `the install left no ${script}` };
}

/** This build (without its bundled plugins): bin/ and dist/ copied inside the repository (node_modules resolves). */
function buildCopy(name, { plugins }) {
  const copy = join(outDir, name);
  rmSync(copy, { recursive: true, force: true });
  mkdirSync(copy, { recursive: true });
  cpSync(join(root, 'bin'), join(copy, 'bin'), { recursive: true });
  cpSync(join(root, 'dist'), join(copy, 'dist'), {
    recursive: true,
    filter: (src) => plugins || !src.startsWith(join(root, 'dist/plugins')),
  });
  return join(copy, 'bin', 'jarvis');
}

const startMockModelServer = await loadMockModelServer();
const server = await startMockModelServer({ script: () => ({ text: 'ok' }) });
const scratch = mkdtempSync(join(tmpdir(), 'jarvis-bench-first-'));
let folders = 0;

function workspace() {
  const dir = join(scratch, `w${folders++}`);
  const ws = { dir, home: join(dir, 'home'), cwd: join(dir, 'work') };
  mkdirSync(ws.home, { recursive: true });
  mkdirSync(ws.cwd, { recursive: true });
  return ws;
}

function codexHome() {
  const ws = workspace();
  writeFileSync(
    join(ws.home, 'config.toml'),
    [
      'model = "bench"',
      'model_provider = "mock"',
      '[model_providers.mock]',
      'name = "mock"',
      `base_url = "${server.baseUrlFor('openai_responses')}"`,
      'wire_api = "responses"',
      'env_key = "MOCK_API_KEY"',
      '',
    ].join('\n'),
  );
  return ws;
}

// GNU time, when the machine has it, gives each run's CPU time (user + system, the whole run): on a loaded machine
// wall times follow the share of the cores a process gets, and a program with several threads gets more shares.
const GNU_TIME = ['/usr/bin/time', '/bin/time'].find((t) => spawnSync(t, ['-f', '%U', 'true']).status === 0);

/** Spawns `args`; resolves with ms from spawn to the first model request it made, and the run's CPU ms. */
function firstRequest(args, ws, env) {
  return new Promise((resolvePromise, reject) => {
    const before = server.requests.length;
    const cpuFile = join(ws.dir, 'cpu.txt');
    const [file, argv] = GNU_TIME
      ? [GNU_TIME, ['-f', '%U %S', '-o', cpuFile, process.execPath, ...args]]
      : [process.execPath, args];
    const spawnedAt = Date.now();
    const child = spawn(file, argv, { cwd: ws.cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) => {
      if (code !== 0 || server.requests.length <= before)
        return reject(new Error(`${args.join(' ')} exited ${code} with no request: ${err.slice(-800)}`));
      const cpu = GNU_TIME ? readFileSync(cpuFile, 'utf8').trim().split(/\s+/).map(Number) : [NaN, NaN];
      resolvePromise({ first: server.requests[before].at - spawnedAt, cpu: (cpu[0] + cpu[1]) * 1000 });
    });
  });
}

const jarvis = (program) => (ws) => firstRequest([program, '-p', 'hi'], ws, jarvisEnv(ws, server));
const codexRun = (script) => (ws) =>
  firstRequest([script, 'exec', '--skip-git-repo-check', 'hi'], ws, {
    ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('CODEX_'))),
    CODEX_HOME: ws.home,
    HOME: ws.dir,
    MOCK_API_KEY: 'k',
  });

const codex = findCodex();
const configurations = [
  ['jarvis, default (bundled plugin)', jarvis(bin), workspace],
  ['jarvis, without the bundled plugin', jarvis(buildCopy('no-plugins', { plugins: false })), workspace],
  ...(codex.path ? [['codex exec', codexRun(codex.path), codexHome]] : []),
];
// The first run after an install: no start-up code cache beside the start chunk yet (it is written at exit).
const uncached = jarvis(buildCopy('uncached', { plugins: true }));
const uncachedChunks = join(outDir, 'uncached', 'dist', 'chunks');
const dropCodeCache = () => {
  for (const f of readdirSync(uncachedChunks)) if (f.endsWith('.v8cache')) rmSync(join(uncachedChunks, f));
};
const warm = configurations.map(([, run, make]) => ({ ws: make(), run }));
// Two runs make a home warm (the bundled plugin installed, caches and state written); not counted.
for (const w of warm) for (let i = 0; i < 2; i++) await w.run(w.ws);

const samples = { node: [], uncached: [], fresh: configurations.map(() => []), warm: configurations.map(() => []) };
const cpu = { uncached: [], fresh: configurations.map(() => []), warm: configurations.map(() => []) };
for (let i = 0; i < runs; i++) {
  const t = Date.now();
  spawnSync(process.execPath, ['-e', '0']);
  samples.node.push(Date.now() - t);
  for (const [c, [, run, make]] of configurations.entries()) {
    const fresh = await run(make());
    const hot = await warm[c].run(warm[c].ws);
    samples.fresh[c].push(fresh.first);
    samples.warm[c].push(hot.first);
    cpu.fresh[c].push(fresh.cpu);
    cpu.warm[c].push(hot.cpu);
  }
  dropCodeCache();
  const first = await uncached(workspace());
  samples.uncached.push(first.first);
  cpu.uncached.push(first.cpu);
}
await server.close();
rmSync(scratch, { recursive: true, force: true });

console.log(`Spawn to the first model request (median of ${runs}, interleaved; loopback mock model)`);
console.log(`  node -e 0: ${show(samples.node)}`);
const cpuNote = (xs) => (GNU_TIME ? `; CPU of the whole run ${median(xs).toFixed(0)} ms` : '');
for (const [c, [name]] of configurations.entries()) {
  console.log(`  ${name}`);
  console.log(`    fresh home: ${show(samples.fresh[c])}${cpuNote(cpu.fresh[c])}`);
  console.log(`    warm home:  ${show(samples.warm[c])}${cpuNote(cpu.warm[c])}`);
}
console.log('  jarvis, default, first run after an install (no start-up code cache yet)');
console.log(`    fresh home: ${show(samples.uncached)}${cpuNote(cpu.uncached)}`);
if (codex.path) {
  const k = configurations.length - 1;
  console.log(`Against codex exec ${CODEX_VERSION} (below 1.00 = Jarvis is faster)`);
  for (const [c, [name]] of configurations.slice(0, k).entries()) {
    const fresh = (median(samples.fresh[c]) / median(samples.fresh[k])).toFixed(2);
    const hot = (median(samples.warm[c]) / median(samples.warm[k])).toFixed(2);
    console.log(`  ${name}: fresh ${fresh}× codex's fresh, warm ${hot}× codex's warm`);
  }
  const first = (median(samples.uncached) / median(samples.fresh[k])).toFixed(2);
  console.log(`  jarvis, first run after an install: ${first}× codex's fresh`);
} else {
  console.log(`codex: skipped (${codex.skip})`);
}
