// `jarvis review` (docs/ci.md "jarvis review"): the diff between two refs → one headless run of the review agent
// under read-only rules, its answer held to the findings schema by the structured-output machinery → findings tied
// to the diff → text, JSON, SARIF or Markdown → exit code (0, 1 with --fail-on, or the run's own: caps, errors).
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { RunControls } from '../../engine/runtime/runControls';
import { SessionControl } from '../../engine/runtime/sessionControl';
import {
  EXIT_FAILURE,
  EXIT_SUCCESS,
  EXIT_USAGE,
  exitCodeOfVerdict,
  reportOf,
  runHeadless,
} from '../../engine/runtime/headlessRun';
import { RunResultRecorder } from '../../engine/runtime/runResult';
import { loadStartup, StartupError } from '../../engine/runtime/startup/startup';
import { makePrintRenderer } from '../../print/printMode';
import { SessionLockedError } from '../../store/sessionLock';
import { capsFromFlags } from '../runFlags';
import { parseDiff, readDiff, repositoryRoot, resolveRange, ReviewInputError, type DiffFile } from './reviewDiff';
import { failsOn, placeFindings, REVIEW_ANSWER_SCHEMA, type ReviewAnswer, type Severity } from './reviewFindings';
import { buildReviewRequest } from './reviewPlan';
import { REVIEW_AGENT, reviewAgentCatalog, reviewRules } from './reviewPolicy';
import { buildReport, reviewMarkdown, reviewText, type ReviewReport } from './reviewReport';
import { reviewSarif } from './reviewSarif';

declare const __JARVIS_VERSION__: string;

export interface ReviewOptions {
  base?: string;
  head?: string;
  paths?: string[];
  focus?: string;
  outputFormat?: string;
  sarif?: string;
  markdown?: string;
  failOn?: string;
  model?: string;
  maxTurns?: string;
  maxBudgetUsd?: string;
  timeout?: string;
}

type Sink = { write(s: string): void };
const FORMATS = ['text', 'json', 'markdown', 'sarif'] as const;
type ReviewFormat = (typeof FORMATS)[number];

function version(): string {
  return typeof __JARVIS_VERSION__ === 'string' ? __JARVIS_VERSION__ : '0.0.0';
}

/** The flags' usage error, or what they ask for. */
function readFlags(o: ReviewOptions): { format: ReviewFormat; failOn?: Severity } | { error: string } {
  const format = (o.outputFormat ?? 'text') as ReviewFormat;
  if (!FORMATS.includes(format))
    return { error: `--output-format must be text, json, markdown or sarif, got "${o.outputFormat}".` };
  if (o.failOn !== undefined && o.failOn !== 'error' && o.failOn !== 'warning')
    return { error: `--fail-on takes error or warning (the lowest severity that fails the run), got "${o.failOn}".` };
  return { format, ...(o.failOn ? { failOn: o.failOn as Severity } : {}) };
}

export async function runReviewCommand(o: ReviewOptions): Promise<number> {
  const stdout: Sink = { write: (s) => void process.stdout.write(s) };
  const stderr: Sink = { write: (s) => void process.stderr.write(s) };
  const startedAt = Date.now();
  const flags = readFlags(o);
  const caps = capsFromFlags(o);
  for (const bad of [flags, caps])
    if ('error' in bad) {
      stderr.write(`jarvis review: ${bad.error}\n`);
      return EXIT_USAGE;
    }
  if ('error' in flags || 'error' in caps) return EXIT_USAGE;
  let root: string;
  let range;
  let diff: string;
  try {
    root = await repositoryRoot(process.cwd());
    range = await resolveRange(root, o.base, o.head);
    diff = await readDiff(root, range, o.paths ?? []);
  } catch (e) {
    if (!(e instanceof ReviewInputError)) throw e;
    stderr.write(`jarvis review: ${e.message}\n`);
    return EXIT_USAGE;
  }
  const files = parseDiff(diff);
  const recorder = new RunResultRecorder();
  let answer: ReviewAnswer | undefined;
  let code: number;
  if (!files.length) {
    stderr.write(`jarvis review: nothing to review: ${range.baseLabel} and ${range.headLabel} do not differ.\n`);
    answer = { summary: 'No changes.', findings: [] };
    code = EXIT_SUCCESS;
  } else {
    const controls = await RunControls.open(
      { ...caps, outputSchema: { schema: REVIEW_ANSWER_SCHEMA as unknown as Record<string, unknown> } },
      startedAt,
      (text) => stderr.write(`warning: ${text}\n`),
    );
    try {
      const request = buildReviewRequest({ range, files, diff, paths: o.paths ?? [], focus: o.focus });
      if (request.groups.length)
        stderr.write(`• large diff: ${files.length} files in ${request.groups.length} groups, one subagent each\n`);
      code = await runReview(o, root, request.text, controls, recorder, stderr);
      recorder.runEnded(reportOf(controls, code));
      code = exitCodeOfVerdict(code, controls);
      const accepted = controls.structuredOutput();
      if (accepted && code === EXIT_SUCCESS) answer = accepted.value as ReviewAnswer;
    } finally {
      controls.close();
    }
  }
  const placement = placeFindings(answer?.findings ?? [], files, root);
  for (const d of placement.dropped) stderr.write(`notice: a finding was dropped: ${d.reason} ("${d.title}")\n`);
  for (const f of placement.findings)
    if (f.placement) stderr.write(`notice: ${f.path}: "${f.title}": ${f.placement}\n`);
  const exitCode = code === EXIT_SUCCESS && failsOn(placement.findings, flags.failOn) ? EXIT_FAILURE : code;
  const report = buildReport({
    range,
    files,
    summary: answer?.summary ?? null,
    placement,
    failOn: flags.failOn,
    exitCode,
    run: recorder.build(code),
  });
  writeOutputs(report, files, flags.format, o, code === EXIT_SUCCESS, stdout, stderr);
  return exitCode;
}

function writeOutputs(
  report: ReviewReport,
  files: readonly DiffFile[],
  format: ReviewFormat,
  o: ReviewOptions,
  completed: boolean,
  stdout: Sink,
  stderr: Sink,
): void {
  const sarif = () => `${JSON.stringify(reviewSarif(report, files, version()), null, 2)}\n`;
  if (format === 'json') stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else if (!completed) stderr.write(`jarvis review: the review did not complete: ${report.run.error ?? 'no answer'}\n`);
  else if (format === 'text') stdout.write(reviewText(report));
  else if (format === 'markdown') stdout.write(reviewMarkdown(report));
  else stdout.write(sarif());
  // A file that says "no findings" for a review that never finished would mislead a pipeline: none is written.
  for (const [file, make] of [
    [o.sarif, sarif],
    [o.markdown, () => reviewMarkdown(report)],
  ] as const) {
    if (file === undefined) continue;
    if (!completed) {
      stderr.write(`jarvis review: ${file} was not written, because the review did not complete.\n`);
      continue;
    }
    writeFileSync(resolve(file), make());
  }
}

/** One headless run of the review agent; the print-mode exit code of the run. */
async function runReview(
  o: ReviewOptions,
  root: string,
  prompt: string,
  controls: RunControls,
  recorder: RunResultRecorder,
  stderr: Sink,
): Promise<number> {
  let startup;
  try {
    startup = loadStartup({ model: o.model }, { nonInteractive: true });
  } catch (e) {
    if (!(e instanceof StartupError)) throw e;
    stderr.write(`${e.message}\n`);
    recorder.error(e.message);
    return EXIT_FAILURE;
  }
  for (const w of startup.warnings) stderr.write(`warning: ${w}\n`);
  const writer = makePrintRenderer('text', stderr, stderr);
  // Only what a review needs: no hooks, plugins, skills or MCP servers, none of the repository's agent files.
  const control = new SessionControl({
    base: {
      ...startup.runtime,
      mode: 'manual',
      modeOverride: true,
      rules: reviewRules(startup.runtime.rules),
      hooks: [],
      agentProfile: REVIEW_AGENT,
      agents: reviewAgentCatalog(),
      additionalDirs: [...(startup.runtime.additionalDirs ?? []), ...(root === startup.cwd ? [] : [root])],
      mainAgent: controls.mainAgent,
    },
    nonInteractive: true,
    notificationDelivery: 'collect',
    onEvent: (event) => {
      controls.observe(event);
      recorder.observe(event);
      writer(event);
    },
  });
  let runtime;
  try {
    runtime = control.ensure();
  } catch (e) {
    if (!(e instanceof SessionLockedError)) throw e;
    stderr.write(`jarvis: ${e.message}\n`);
    recorder.error(e.message);
    return EXIT_FAILURE;
  }
  controls.attach({ agent: runtime.agent, tasks: runtime.tasks });
  recorder.session(runtime.session.id, startup.runtime.model.model);
  let interrupted = false;
  const onSigint = () => {
    interrupted = true;
    stderr.write('\ninterrupted: stopping the review\n');
    runtime.agent.cancel(true);
  };
  process.on('SIGINT', onSigint);
  try {
    const bg = startup.settings.background;
    return await runHeadless(
      runtime.agent,
      {
        prompt,
        notify: stderr,
        background: {
          watcher: runtime.notifications,
          mode: bg.printBackgroundMode,
          waitCeilingMs: bg.printWaitCeilingS * 1000,
          maxTurns: bg.printMaxTurns,
        },
        stop: controls.signal,
      },
      () => interrupted,
    );
  } finally {
    await control.close(interrupted || controls.signal.aborted);
    process.off('SIGINT', onSigint);
  }
}
