// Bash parser benchmark (permission rules read every Bash line with it; docs/approvals.md).
//   (a) loading the parser in a fresh process (web-tree-sitter + the Bash grammar, first parse
//       included), against starting `node -e 0`; and the CPU the process spends in the 2 s after
//   (b) reading a 2 KB compound command into its simple commands, against spawning `/bin/true` — the
//       least that running any Bash call costs
// Usage: node bench/bashParser.bench.mjs [--runs N]
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

const root = resolve(import.meta.dirname, '..');
const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 9;
const outDir = join(root, 'bench', 'results');
const entry = join(outDir, 'bashParserEntry.mjs');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x) => `${x.toFixed(2)} ms`;

const PART = `cd /repo && git status --porcelain | grep -v '^??' | awk '{print $2}' | xargs -I{} sh -c "echo {}; wc -l {}" && npm test -- --reporter=dot 2>&1 | tail -n 20; `;
const END = 'echo "done: $(date +%s)" > /tmp/bench-out.txt';
const BODY = PART.repeat(Math.floor((2048 - END.length) / PART.length));
const LINE = `${BODY}${'true; '.repeat(Math.floor((2048 - END.length - BODY.length) / 6))}${END}`;

if (process.argv[2] === '--child') {
  const t0 = performance.now();
  const { loadBashParser, analyseShellCommandWith } = await import(entry);
  const parser = await loadBashParser();
  analyseShellCommandWith('git status && touch x', parser);
  const loadMs = performance.now() - t0;
  const cpu = process.cpuUsage();
  await new Promise((r) => setTimeout(r, 2000));
  const after = process.cpuUsage(cpu);
  process.stdout.write(JSON.stringify({ loadMs, cpuAfterMs: (after.user + after.system) / 1000 }));
  process.exit(0);
}

mkdirSync(outDir, { recursive: true });
await build({
  entryPoints: [join(root, 'bench', 'bashParserEntry.ts')],
  outfile: entry,
  bundle: true,
  platform: 'node',
  format: 'esm',
  loader: { '.md': 'text' },
  logLevel: 'warning',
});

function timed(fn) {
  const t = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - t) / 1e6;
}

// (a) in fresh processes
const nodeStart = median(Array.from({ length: RUNS }, () => timed(() => spawnSync(process.execPath, ['-e', '0']))));
const children = Array.from({ length: RUNS }, () =>
  JSON.parse(spawnSync(process.execPath, [import.meta.filename, '--child'], { encoding: 'utf8' }).stdout),
);
const load = median(children.map((c) => c.loadMs));
const cpuAfter = median(children.map((c) => c.cpuAfterMs));

// (b) in this process, the parser warm
const { loadBashParser, analyseShellCommandWith } = await import(entry);
const parser = await loadBashParser();
const analysis = analyseShellCommandWith(LINE, parser);
for (let i = 0; i < 20; i++) analyseShellCommandWith(LINE, parser);
const parse = median(Array.from({ length: RUNS * 10 }, () => timed(() => analyseShellCommandWith(LINE, parser))));
const spawnTrue = median(Array.from({ length: RUNS * 3 }, () => timed(() => spawnSync('/bin/true'))));

console.log(`Bash parser (median of ${RUNS} fresh processes; ${RUNS * 10} parses)`);
console.log(
  `  load + first parse       ${ms(load)}   node -e 0: ${ms(nodeStart)}   ratio ${(load / nodeStart).toFixed(2)}`,
);
console.log(`  CPU in the 2 s after     ${ms(cpuAfter)}`);
console.log(
  `  parse ${LINE.length} B command     ${ms(parse)}   spawn /bin/true: ${ms(spawnTrue)}   ratio ${(parse / spawnTrue).toFixed(2)}`,
);
console.log(
  `  (${analysis.commands.length} simple commands, ${analysis.writes.length} file write, substitution: ${analysis.substitution})`,
);
