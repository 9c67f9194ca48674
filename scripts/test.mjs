// The whole test command: build, type-check, lint, then the vitest suite. Ends with the plain closing
// line CI reads: "N passed, N failed" (the type-check, lint and format check count as one check each).
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';

const quick = process.argv.includes('--quick'); // skip type-check, lint and format check while iterating
const vitestArgs = process.argv.slice(2).filter((a) => a !== '--quick');

function step(name, cmd, args) {
  process.stdout.write(`\n▶ ${name}\n`);
  const r = spawnSync(cmd, args, { stdio: 'inherit' });
  if (r.status !== 0) process.stdout.write(`✗ ${name} failed\n`);
  return r.status === 0;
}

let passed = 0;
let failed = 0;
if (!step('build', process.execPath, ['scripts/build.mjs'])) failed++;
if (!quick) {
  if (step('type-check', 'npx', ['tsc', '-p', 'tsconfig.json'])) passed++;
  else failed++;
  // The web UI (web/) has its own settings: the DOM's types, not Node's.
  if (step('type-check web', 'npx', ['tsc', '-p', 'web/tsconfig.json'])) passed++;
  else failed++;
  if (step('lint', 'npx', ['eslint', 'src', 'test', 'bench', 'scripts', 'web'])) passed++;
  else failed++;
  // One formatter with a print width (.prettierrc.json); `npm run format` fixes what this reports.
  const formatted = ['src', 'test', 'bench', 'scripts', 'web', 'vitest.config.ts', 'eslint.config.js'];
  if (step('format check', 'npx', ['prettier', '--check', '--log-level', 'warn', ...formatted])) passed++;
  else failed++;
}

const resultsFile = '.vitest-results.json';
rmSync(resultsFile, { force: true });
const run = spawnSync(
  'npx',
  ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${resultsFile}`, ...vitestArgs],
  { stdio: 'inherit' },
);

let skipped = 0;
try {
  const results = JSON.parse(readFileSync(resultsFile, 'utf8'));
  passed += results.numPassedTests;
  failed += results.numFailedTests;
  skipped = results.numPendingTests + (results.numTodoTests ?? 0);
  // A test file that fails to load counts as a failure even though it ran no test.
  for (const file of results.testResults ?? []) {
    if (file.status === 'failed' && (file.assertionResults ?? []).length === 0) failed += 1;
  }
} catch (error) {
  console.error(`could not read the test results (${error.message})`);
  failed += 1;
}
if (run.status !== 0 && failed === 0) failed = 1;
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed === 0 ? 0 : 1);
