// Command sandbox benchmark (docs/sandbox.md): what bubblewrap adds to one Bash command.
//   (a) per command: preparing the sandbox for a workspace (the boundary kept current, settled after), dropping the
//       environment's secrets and running `bash -c true` inside bwrap the way Bash does (spawnShell: the seccomp
//       filter through a pipe), against a plain `bash -c true` and against the sandbox as it was before the
//       hardening (capabilities kept as root, no seccomp filter, /run and the socket variables left alone), all
//       spawned the same way in the same run — median and p95;
//   (b) one-time set-up: the availability probe (`bwrap … true`), paid once per process;
//   (c) network = "allowlist" against network = "off", both spawned asynchronously (the proxy answers from this
//       process): what the bridge inside (Node started before the command) adds per command, median and p95, and the
//       proxy's start on the first allowlist command.
// Target: at most 30 ms added per command (median). Usage: node bench/sandbox.bench.mjs [--runs N]
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importEntry, median, ms, p95, runsFromArgs } from './benchStats.mjs';

const RUNS = runsFromArgs(41);
const { CommandBoundary, DEFAULT_SANDBOX_SETTINGS, probeBwrap, socketFolderArgs, spawnShell } =
  await importEntry('sandboxEntry');

const timed = (fn) => {
  const t = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - t) / 1e6;
};

const setup = timed(() => probeBwrap());
const probe = probeBwrap();
if (!probe.ok) {
  console.log(`sandbox benchmark skipped: ${probe.reason}`);
  process.exit(0);
}

// A workspace the size of a small project: 400 files in 20 folders, one .env to hide, a node_modules skipped.
const dir = mkdtempSync(join(tmpdir(), 'jarvis-sandbox-bench-'));
const ws = join(dir, 'ws');
const home = join(dir, 'home');
const jarvis = join(dir, 'jarvis');
const session = join(jarvis, 'sessions', 's');
for (let d = 0; d < 20; d++) {
  mkdirSync(join(ws, `src${d}`), { recursive: true });
  for (let f = 0; f < 20; f++) writeFileSync(join(ws, `src${d}`, `f${f}.ts`), 'x');
}
mkdirSync(join(ws, 'node_modules', 'dep'), { recursive: true });
mkdirSync(home, { recursive: true });
mkdirSync(session, { recursive: true });
writeFileSync(join(ws, '.env'), 'K=v');
const folders = { workspace: [ws], scratch: session, jarvisHome: jarvis, home };
const sandbox = new CommandBoundary(DEFAULT_SANDBOX_SETTINGS, folders);
await sandbox.warmUp();
const timedAwait = async (fn) => {
  const t = process.hrtime.bigint();
  const value = await fn();
  return { ms: Number(process.hrtime.bigint() - t) / 1e6, value };
};

const timedAsync = async (fn) => {
  const t = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - t) / 1e6;
};
const ended = (child) => new Promise((done) => child.on('close', done));
const runSpawn = (spawn) => ended(spawnShell('', { cwd: ws, sandbox: spawn }));

/** The plan's arguments without what the hardening added: the sandbox before it, for comparison. */
const socketFolders = socketFolderArgs().join('\0');
function beforeHardening(spawn) {
  const joined = spawn.args.join('\0').replace(`\0${socketFolders}`, '');
  const args = [];
  const rest = joined.split('\0');
  for (let i = 0; i < rest.length; i++) {
    const [a, b] = [rest[i], rest[i + 1]];
    if (a === '--') {
      args.push(...rest.slice(i));
      break;
    }
    if (a === '--unshare-user') continue;
    if (a === '--seccomp' || a === '--unsetenv' || (a === '--cap-drop' && b === 'ALL')) i++;
    else if (a === '--setenv' && b === 'TAR_OPTIONS') i += 2;
    else args.push(a);
  }
  return { file: spawn.file, args, envPass: spawn.envPass };
}

const plain = [];
const boxed = [];
const before = [];
const planning = [];
for (let i = 0; i < RUNS; i++) {
  // Interleaved, so load on the machine falls on all alike.
  plain.push(await timedAsync(() => ended(spawnShell('true', { cwd: ws }))));
  const prepared = await timedAwait(() => sandbox.prepare({ command: 'true', cwd: ws }));
  const plan = prepared.value;
  planning.push(prepared.ms);
  boxed.push(planning[i] + (await timedAsync(() => runSpawn(plan.spawn))) + timed(() => plan.settle()));
  const old = await sandbox.prepare({ command: 'true', cwd: ws });
  before.push(await timedAsync(() => runSpawn(beforeHardening(old.spawn))));
  old.settle();
}

const runAsync = async (planned) => {
  const plan = await planned;
  await runSpawn(plan.spawn);
  plan.settle();
};
const allowSettings = { ...DEFAULT_SANDBOX_SETTINGS, network: 'allowlist', allowedDomains: ['registry.npmjs.org'] };
const allowSandbox = new CommandBoundary(allowSettings, folders);
await allowSandbox.warmUp();
const proxyStart = (await timedAwait(() => allowSandbox.prepare({ command: 'true', cwd: ws }))).ms;
const off = [];
const allow = [];
const nodeStart = [];
for (let i = 0; i < RUNS; i++) {
  // For scale: the bridge is one Node start inside the sandbox.
  nodeStart.push(timed(() => spawnSync(process.execPath, ['-e', '0'], { cwd: ws })));
  off.push(await timedAsync(() => runAsync(sandbox.prepare({ command: 'true', cwd: ws }))));
  allow.push(await timedAsync(() => runAsync(allowSandbox.prepare({ command: 'true', cwd: ws }))));
}
await allowSandbox.close();
rmSync(dir, { recursive: true, force: true });

const added = median(boxed) - median(plain);
console.log(`plain bash -c true:           median ${ms(median(plain))}, p95 ${ms(p95(plain))}`);
console.log(`sandboxed (prepare, bwrap, settle): median ${ms(median(boxed))}, p95 ${ms(p95(boxed))}`);
console.log(`before the hardening:         median ${ms(median(before))}, p95 ${ms(p95(before))}`);
console.log(
  `hardening added (caps, seccomp, /run): median ${ms(median(boxed) - median(before))}, ` +
    `p95 ${ms(p95(boxed) - p95(before))}`,
);
console.log(`  of which preparing:         median ${ms(median(planning))}, p95 ${ms(p95(planning))}`);
console.log(`added per command:            median ${ms(added)}, p95 ${ms(p95(boxed) - p95(plain))} (target ≤ 30 ms)`);
console.log(`ratio sandboxed / plain:      ${(median(boxed) / median(plain)).toFixed(2)}×`);
console.log(`one-time set-up (probe):      ${ms(setup)}`);
console.log(`network off (plan + bwrap):    median ${ms(median(off))}, p95 ${ms(p95(off))}`);
console.log(`network allowlist (+ bridge): median ${ms(median(allow))}, p95 ${ms(p95(allow))}`);
console.log(
  `allowlist added per command:  median ${ms(median(allow) - median(off))}, p95 ${ms(p95(allow) - p95(off))}`,
);
console.log(`  for scale, node -e 0 plain:  median ${ms(median(nodeStart))}, p95 ${ms(p95(nodeStart))}`);
console.log(`ratio allowlist / off:        ${(median(allow) / median(off)).toFixed(2)}×`);
console.log(`first allowlist plan (proxy start included): ${ms(proxyStart)}`);
