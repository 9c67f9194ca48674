// `jarvis review --sarif out.sarif` (docs/ci.md "SARIF"): the findings as a SARIF 2.1.0 log that GitHub code scanning
// accepts — one rule per kind of finding, `level` from the severity, a physical location with its region, and
// partialFingerprints that stay the same when the finding's line only moves.
import { createHash } from 'node:crypto';
import type { DiffFile } from './reviewDiff';
import type { PlacedFinding, Severity } from './reviewFindings';
import type { ReviewReport } from './reviewReport';

const LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = { error: 'error', warning: 'warning', info: 'note' };
const SARIF_SCHEMA = 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';
const FINGERPRINT_KEY = 'jarvisFinding/v1';

/** A rule id from the finding's title: `jarvis/off-by-one-in-loop-bound` (code scanning groups alerts by it). */
export function ruleIdOf(f: Pick<PlacedFinding, 'title'>): string {
  const slug = f.title
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return `jarvis/${slug || 'finding'}`;
}

function lineText(files: readonly DiffFile[], path: string, line: number | undefined): string {
  if (line === undefined) return '';
  const file = files.find((f) => f.path === path);
  for (const h of file?.hunks ?? []) {
    const l = h.lines.get(line);
    if (l) return l.text.trim();
  }
  return '';
}

function fingerprint(f: PlacedFinding, files: readonly DiffFile[]): string {
  // The line's text, not its number: the same finding on a line that moved keeps its fingerprint.
  const parts = [f.path, ruleIdOf(f), lineText(files, f.path, f.line)];
  return createHash('sha256').update(parts.join('\0')).digest('hex').slice(0, 32);
}

export function reviewSarif(report: ReviewReport, files: readonly DiffFile[], version: string): object {
  const rules = new Map<string, { id: string; title: string; severity: Severity }>();
  for (const f of report.findings) {
    const id = ruleIdOf(f);
    if (!rules.has(id)) rules.set(id, { id, title: f.title, severity: f.severity });
  }
  const ruleIds = [...rules.keys()];
  const results = report.findings.map((f) => {
    const text = [f.title, '', f.body, ...(f.placement ? ['', `(${f.placement})`] : [])].join('\n');
    // A general finding of a file points at its first line: code scanning needs a region to show an alert.
    const region = { startLine: f.line ?? 1, ...(f.end_line !== undefined ? { endLine: f.end_line } : {}) };
    return {
      ruleId: ruleIdOf(f),
      ruleIndex: ruleIds.indexOf(ruleIdOf(f)),
      level: LEVEL[f.severity],
      message: { text },
      locations: [
        { physicalLocation: { artifactLocation: { uri: encodeUriPath(f.path), uriBaseId: '%SRCROOT%' }, region } },
      ],
      partialFingerprints: { [FINGERPRINT_KEY]: fingerprint(f, files) },
      ...(f.suggestion !== undefined && f.line !== undefined && f.original_line === undefined
        ? {
            fixes: [
              {
                description: { text: 'Suggested replacement' },
                artifactChanges: [
                  {
                    artifactLocation: { uri: encodeUriPath(f.path), uriBaseId: '%SRCROOT%' },
                    replacements: [
                      {
                        deletedRegion: { startLine: f.line, endLine: f.end_line ?? f.line },
                        insertedContent: { text: f.suggestion.endsWith('\n') ? f.suggestion : `${f.suggestion}\n` },
                      },
                    ],
                  },
                ],
              },
            ],
          }
        : {}),
    };
  });
  return {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'Jarvis Code review',
            semanticVersion: version,
            rules: [...rules.values()].map((r) => ({
              id: r.id,
              name: r.id.slice('jarvis/'.length),
              shortDescription: { text: r.title },
              defaultConfiguration: { level: LEVEL[r.severity] },
            })),
          },
        },
        automationDetails: { id: 'jarvis-review/' },
        results,
      },
    ],
  };
}

/** A relative path as a URI reference: each segment percent-encoded, the slashes kept. */
function encodeUriPath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}
