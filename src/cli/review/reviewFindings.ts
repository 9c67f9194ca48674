// The findings of `jarvis review` (docs/ci.md "Findings"): the answer the model must give (a JSON Schema held by the
// structured-output machinery), and how each finding is tied to the diff — kept on its line when the line is in a
// hunk, moved to the nearest added line when one is close, kept as a general finding of its file otherwise, and
// dropped (with a notice) when its file is not in the diff at all.
import { isAbsolute, relative } from 'node:path';
import { addedLines, type DiffFile } from './reviewDiff';

export type Severity = 'error' | 'warning' | 'info';
export const SEVERITIES: readonly Severity[] = ['error', 'warning', 'info'];

/** A finding as the model gives it. */
export interface Finding {
  path: string;
  line: number;
  end_line?: number;
  severity: Severity;
  title: string;
  body: string;
  suggestion?: string;
}

/** A finding after it was tied to the diff: `line` is undefined for a general finding of its file. */
export interface PlacedFinding extends Omit<Finding, 'line'> {
  line?: number;
  /** The line the model named, when the finding was moved or made general. */
  original_line?: number;
  /** Why it was moved or made general, in words. */
  placement?: string;
}

export interface Placement {
  findings: PlacedFinding[];
  /** Findings on files that the diff does not touch: not reported, only named. */
  dropped: Array<{ path: string; line: number; title: string; reason: string }>;
}

/** How far (in lines) a finding may be moved to the nearest added line; further away it becomes a general finding. */
export const MOVE_LIMIT_LINES = 10;
/** The most findings one answer may hold (the schema says so to the model). */
export const MAX_FINDINGS = 200;

/** The JSON Schema of the model's answer (given to `--output-schema`'s machinery, docs/print-mode.md). */
export const REVIEW_ANSWER_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: {
    summary: { type: 'string', description: 'Two or three sentences on the change as a whole.' },
    findings: {
      type: 'array',
      maxItems: MAX_FINDINGS,
      items: {
        type: 'object',
        properties: {
          path: { type: 'string', minLength: 1, description: 'The file, relative to the repository root.' },
          line: { type: 'integer', minimum: 1, description: 'The line in the new version of the file.' },
          end_line: { type: 'integer', minimum: 1, description: 'The last line, for a finding over several lines.' },
          severity: { enum: [...SEVERITIES] },
          title: { type: 'string', minLength: 1, maxLength: 200 },
          body: { type: 'string', minLength: 1 },
          suggestion: { type: 'string', description: 'Replacement text for the lines line..end_line, if any.' },
        },
        required: ['path', 'line', 'severity', 'title', 'body'],
        additionalProperties: false,
      },
    },
  },
  required: ['summary', 'findings'],
  additionalProperties: false,
} as const;

export interface ReviewAnswer {
  summary: string;
  findings: Finding[];
}

/** The path as the diff writes it: relative to the repository's top folder, `/`-separated, without `./`. */
export function normalisePath(path: string, root: string): string {
  const rel = isAbsolute(path) ? relative(root, path) : path;
  return rel.replace(/\\/g, '/').replace(/^(\.\/)+/, '');
}

function hunkOf(file: DiffFile, line: number) {
  return file.hunks.find((h) => h.lines.has(line));
}

/** Ties each finding to the diff (see the file's header). */
export function placeFindings(findings: readonly Finding[], files: readonly DiffFile[], root: string): Placement {
  const byPath = new Map(files.map((f) => [f.path, f]));
  const placed: PlacedFinding[] = [];
  const dropped: Placement['dropped'] = [];
  for (const raw of findings) {
    const path = normalisePath(raw.path, root);
    const file = byPath.get(path);
    if (!file) {
      dropped.push({ path, line: raw.line, title: raw.title, reason: `${path} is not part of the diff` });
      continue;
    }
    const { line, end_line, ...rest } = raw;
    const finding = { ...rest, path };
    const hunk = hunkOf(file, line);
    if (hunk) {
      // A range stays inside its hunk: a review comment may not span lines outside it.
      const end = end_line !== undefined && end_line > line && hunk.lines.has(end_line) ? end_line : undefined;
      placed.push({ ...finding, line, ...(end !== undefined ? { end_line: end } : {}) });
      continue;
    }
    const nearest = addedLines(file).reduce<number | undefined>(
      (best, n) => (best === undefined || Math.abs(n - line) < Math.abs(best - line) ? n : best),
      undefined,
    );
    if (nearest !== undefined && Math.abs(nearest - line) <= MOVE_LIMIT_LINES) {
      const placement = `moved from line ${line}, which the diff does not show, to the nearest changed line ${nearest}`;
      placed.push({ ...finding, line: nearest, original_line: line, placement });
    } else {
      const placement = `line ${line} is not in the diff and no changed line is within ${MOVE_LIMIT_LINES} lines of it; reported for the file as a whole`;
      placed.push({ ...finding, original_line: line, placement });
    }
  }
  const order = (f: PlacedFinding) => SEVERITIES.indexOf(f.severity);
  placed.sort((a, b) => a.path.localeCompare(b.path) || (a.line ?? 0) - (b.line ?? 0) || order(a) - order(b));
  return { findings: placed, dropped };
}

/** `--fail-on error|warning`: whether a finding at that severity or above exists. */
export function failsOn(findings: readonly PlacedFinding[], threshold: Severity | undefined): boolean {
  if (!threshold) return false;
  const limit = SEVERITIES.indexOf(threshold);
  return findings.some((f) => SEVERITIES.indexOf(f.severity) <= limit);
}

/** Counts by severity, in the order error, warning, info. */
export function countBySeverity(findings: readonly PlacedFinding[]): Record<Severity, number> {
  const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  for (const f of findings) counts[f.severity]++;
  return counts;
}
