// Resume benchmark: a long session (10 000 journal records: turns with tool calls and results, usage,
// todos, a compaction, undos) is written through the live engine, then resumed by replaying its
// journal. Checks the rebuilt state equals the live one, and prints the resume time and its ratio to
// the floor of any JSONL resume: reading the file and JSON.parse-ing every line.
// Usage: node bench/resume.bench.mjs [--records N] [--runs N]
import { mkdtempSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { build } from 'esbuild';

const root = resolve(import.meta.dirname, '..');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const RECORDS = arg('--records', 10_000);
const RUNS = arg('--runs', 15);
const outDir = join(root, 'bench', 'results');
mkdirSync(outDir, { recursive: true });
const entry = join(outDir, 'resumeEntry.mjs');
await build({
  entryPoints: [join(root, 'bench', 'resumeEntry.ts')],
  outfile: entry,
  bundle: true,
  platform: 'node',
  format: 'esm',
  loader: { '.md': 'text' },
  logLevel: 'warning',
});
const { Session, readJournal, isJournalRecord } = await import(entry);

const home = mkdtempSync(join(tmpdir(), 'jarvis-resume-bench-'));
const workDir = join(home, 'work');
mkdirSync(workDir);
const session = Session.create({ home, workDir, modelAlias: 'bench', mode: 'auto' });
session.commit({ type: 'system_prompt', text: 'You are a coding agent.\n'.repeat(400) });

const user = (text) => ({ role: 'user', content: [{ type: 'text', text }] });
const lineCount = () => readFileSync(session.journalPath, 'utf8').split('\n').filter(Boolean).length;
let written = lineCount();
const commit = (body) => {
  session.commit(body);
  written++;
};
const code = (i) => `export function f${i}(x: number): number {\n  return x * ${i} + ${i % 7};\n}\n`.repeat(12);

// One turn is 11 records; leave room to close the last turn cleanly.
for (let t = 0; written + 11 <= RECORDS; t++) {
  const turnId = `t_${t}`;
  commit({ type: 'turn_start', turnId, origin: 'user', prompt: `step ${t}: refactor module ${t % 40}` });
  commit({ type: 'message', message: user(`step ${t}: refactor module ${t % 40}, keep the exports stable`) });
  const call = { id: `call_${t}`, name: 'Read', arguments: JSON.stringify({ path: `src/mod${t % 40}.ts` }) };
  commit({
    type: 'message',
    message: { role: 'assistant', text: `Reading module ${t % 40} first.`, toolCalls: [call] },
  });
  commit({ type: 'usage', usage: { inputTokens: 4_000 + t * 30, outputTokens: 60, cacheReadTokens: 3_500 } });
  commit({
    type: 'message',
    message: { role: 'tool', toolCallId: call.id, toolName: 'Read', content: [{ type: 'text', text: code(t) }] },
  });
  commit({
    type: 'todos',
    todos: [
      { title: `module ${t % 40}`, status: 'in_progress' },
      { title: 'run the tests', status: 'pending' },
    ],
  });
  commit({
    type: 'message',
    message: { role: 'assistant', text: `Module ${t % 40} refactored; exports unchanged. `.repeat(6) },
  });
  commit({ type: 'usage', usage: { inputTokens: 5_000 + t * 30, outputTokens: 200 } });
  commit({ type: 'turn_end', turnId, reason: 'completed' });
  if (t % 97 === 96) {
    commit({ type: 'undo', turnId, count: 1 });
  } else if (t === 450) {
    const summary = 'I refactored modules 0–39; next: run the tests and fix what fails.';
    commit({
      type: 'compaction',
      trigger: 'auto',
      summary,
      tokensBefore: 170_000,
      tokensAfter: 30_000,
      summarised: session.state.messages.length - 4,
      messages: [user(`<compaction-summary>\n${summary}\n</compaction-summary>`)],
      keep: 4,
    });
  } else {
    commit({ type: 'title', title: `Refactor, step ${t}` });
    commit({ type: 'notice', level: 'info', text: `step ${t} done` });
  }
}
while (written < RECORDS) commit({ type: 'notice', level: 'info', text: 'padding' });

const live = structuredClone(session.state);
const file = session.journalPath;
const lines = lineCount();
const bytes = readFileSync(file).length;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
function time(fn) {
  fn(); // warm the file cache and the JIT
  return median(
    Array.from({ length: RUNS }, () => {
      const t0 = process.hrtime.bigint();
      fn();
      return Number(process.hrtime.bigint() - t0) / 1e6;
    }),
  );
}

let resumed;
const resumeMs = time(() => {
  resumed = Session.open(session.location);
});
const parseMs = time(() => {
  const out = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) if (line) out.push(JSON.parse(line));
  return out;
});
const readMs = time(() => readJournal(file, isJournalRecord));

const same = isDeepStrictEqual(resumed.state, live);
console.log(
  `journal: ${lines} records, ${(bytes / 1024 / 1024).toFixed(2)} MiB; live state: ${live.messages.length} messages in context, ${live.compactions.length} compaction(s), ${live.checkpoints.length} undo checkpoints`,
);
console.log(
  `resume (Session.open: read + validate + replay + crash check): ${resumeMs.toFixed(1)} ms (median of ${RUNS})`,
);
console.log(
  `baseline (readFileSync + JSON.parse per line): ${parseMs.toFixed(1)} ms; readJournal: ${readMs.toFixed(1)} ms`,
);
console.log(`ratio resume / baseline: ${(resumeMs / parseMs).toFixed(2)}×`);
console.log(`rebuilt state equals the live state: ${same ? 'yes' : 'NO'}`);
rmSync(home, { recursive: true, force: true });
if (!same || lines !== RECORDS) {
  console.error(same ? `expected ${RECORDS} records, wrote ${lines}` : 'resume rebuilt a different state');
  process.exit(1);
}
