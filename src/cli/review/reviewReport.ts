// What `jarvis review` writes (docs/ci.md "Output"): the report object (`--output-format json`, documented by
// docs/schemas/review.schema.json), the text listing grouped by file, and Markdown for a pull-request comment. SARIF
// is in reviewSarif.ts.
import type { RunResultEvent } from '../../engine/runtime/runResult';
import type { DiffFile, ReviewRange } from './reviewDiff';
import { countBySeverity, type PlacedFinding, type Placement, type Severity } from './reviewFindings';

export const REVIEW_REPORT_VERSION = 1;
/** The hidden line that marks Jarvis's own review comments, so the GitHub Action finds and updates them. */
export const REVIEW_MARKER = '<!-- jarvis-review -->';

export interface ReviewReport {
  version: number;
  base: { ref: string; commit: string };
  head: { ref: string; commit: string | null };
  summary: string | null;
  files: Array<{ path: string; old_path?: string; status: DiffFile['status']; added: number; removed: number }>;
  findings: PlacedFinding[];
  dropped: Placement['dropped'];
  counts: Record<Severity, number>;
  fail_on: Severity | null;
  exit_code: number;
  /** The run's result object, as `jarvis -p --output-format json` prints it (docs/print-mode.md). */
  run: RunResultEvent;
}

export function buildReport(o: {
  range: ReviewRange;
  files: readonly DiffFile[];
  summary: string | null;
  placement: Placement;
  failOn: Severity | undefined;
  exitCode: number;
  run: RunResultEvent;
}): ReviewReport {
  return {
    version: REVIEW_REPORT_VERSION,
    base: { ref: o.range.baseLabel, commit: o.range.base },
    head: { ref: o.range.headLabel, commit: o.range.head ?? null },
    summary: o.summary,
    files: o.files.map((f) => ({
      path: f.path,
      ...(f.oldPath !== undefined && f.oldPath !== f.path ? { old_path: f.oldPath } : {}),
      status: f.status,
      added: f.added,
      removed: f.removed,
    })),
    findings: o.placement.findings,
    dropped: o.placement.dropped,
    counts: countBySeverity(o.placement.findings),
    fail_on: o.failOn ?? null,
    exit_code: o.exitCode,
    run: o.run,
  };
}

export function countLine(report: Pick<ReviewReport, 'findings' | 'counts'>): string {
  const n = report.findings.length;
  if (n === 0) return 'No findings.';
  const parts = (['error', 'warning', 'info'] as const)
    .filter((s) => report.counts[s] > 0)
    .map((s) => `${report.counts[s]} ${s}${report.counts[s] === 1 || s === 'info' ? '' : 's'}`);
  return `${n} finding${n === 1 ? '' : 's'}: ${parts.join(', ')}.`;
}

function indent(text: string, by: string): string {
  return text
    .split('\n')
    .map((l) => (l ? by + l : l))
    .join('\n');
}

function where(f: PlacedFinding): string {
  if (f.line === undefined) return 'file';
  return f.end_line !== undefined ? `${f.line}-${f.end_line}` : String(f.line);
}

/** Findings grouped by file, each with its line, severity, title, body and suggestion. */
export function reviewText(report: ReviewReport): string {
  const out: string[] = [];
  const head = report.head.commit ? report.head.commit.slice(0, 12) : report.head.ref;
  out.push(`Review of ${report.base.commit.slice(0, 12)}..${head} (${report.files.length} files changed)`);
  if (report.summary) out.push('', report.summary);
  const byFile = groupByFile(report.findings);
  for (const [path, findings] of byFile) {
    out.push('', path);
    for (const f of findings) {
      out.push(`  ${where(f).padEnd(9)} ${f.severity.padEnd(8)} ${f.title}`);
      out.push(indent(f.body, ' '.repeat(21)));
      if (f.placement) out.push(indent(`(${f.placement})`, ' '.repeat(21)));
      if (f.suggestion !== undefined) out.push(`${' '.repeat(21)}suggestion:`, indent(f.suggestion, ' '.repeat(23)));
    }
  }
  out.push('', countLine(report));
  return `${out.join('\n')}\n`;
}

export function groupByFile(findings: readonly PlacedFinding[]): Map<string, PlacedFinding[]> {
  const byFile = new Map<string, PlacedFinding[]>();
  for (const f of findings) byFile.set(f.path, [...(byFile.get(f.path) ?? []), f]);
  return byFile;
}

/** A fence longer than any run of backticks in the text, so the text cannot close it. */
function fenceFor(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  return '`'.repeat(Math.max(3, longest + 1));
}

const BADGE: Record<Severity, string> = { error: '🔴 error', warning: '🟠 warning', info: '🔵 info' };

/**
 * One finding as Markdown (a review line comment, or an item of the summary). A suggestion becomes GitHub's
 * `suggestion` block only when the finding is on the lines the model named; a moved one shows it as plain code.
 */
export function findingMarkdown(f: PlacedFinding): string {
  const parts = [`**${BADGE[f.severity]}: ${f.title}**`, '', f.body];
  if (f.placement) parts.push('', `_${f.placement}._`);
  if (f.suggestion !== undefined) {
    const fence = fenceFor(f.suggestion);
    const kind = f.line !== undefined && f.original_line === undefined ? 'suggestion' : '';
    parts.push('', `${fence}${kind}`, f.suggestion, fence);
  }
  return parts.join('\n');
}

/** The whole review as one Markdown comment, starting with the hidden marker. */
export function reviewMarkdown(report: ReviewReport, opts: { onlyGeneral?: boolean } = {}): string {
  const head = report.head.commit ? `\`${report.head.commit.slice(0, 12)}\`` : report.head.ref;
  const lines = [
    REVIEW_MARKER,
    '## Jarvis review',
    '',
    `**${countLine(report)}** Base \`${report.base.commit.slice(0, 12)}\`, head ${head}, ${report.files.length} files changed.`,
  ];
  if (report.summary) lines.push('', report.summary);
  const shown = opts.onlyGeneral ? report.findings.filter((f) => f.line === undefined) : report.findings;
  for (const [path, findings] of groupByFile(shown)) {
    lines.push('', `### \`${path}\``);
    for (const f of findings) {
      const at = f.line === undefined ? 'whole file' : `line ${where(f)}`;
      lines.push('', `${at}: ${findingMarkdown(f)}`);
    }
  }
  if (report.dropped.length) {
    lines.push(
      '',
      `<details><summary>${report.dropped.length} finding(s) on files outside the diff were left out</summary>`,
      '',
    );
    for (const d of report.dropped) lines.push(`- \`${d.path}\`:${d.line} ${d.title}`);
    lines.push('', '</details>');
  }
  return `${lines.join('\n')}\n`;
}
