// The review's first message (docs/ci.md "Large diffs"): a small diff goes to the reviewer whole; a large one is
// split into groups of files, and the reviewer is asked to hand each group to a `review-files` subagent with one
// AgentSwarm call (within the swarm's limits) and to merge what they find.
import type { DiffFile, ReviewRange } from './reviewDiff';
import { REVIEW_FILES_AGENT } from './reviewPolicy';
import requestTemplate from './reviewRequest.md';

/** A diff larger than this (characters) is reviewed by subagents, one per group of files. */
export const DELEGATE_OVER_CHARS = 60_000;
/** So is a diff of more files than this. */
export const DELEGATE_OVER_FILES = 25;
/** The diff characters one group aims at. */
export const GROUP_CHARS = 20_000;
/** The most files one group holds (more when MAX_GROUPS would be passed). */
export const GROUP_FILES = 12;
/** The most groups (subagents) one review starts; past it, groups grow instead. */
export const MAX_GROUPS = 16;

export interface ReviewRequest {
  text: string;
  /** The groups of files handed to subagents; empty when the reviewer reads the whole diff itself. */
  groups: string[][];
}

/** A path quoted for a shell command line, so the model can run the command as written. */
function shellWord(path: string): string {
  return /^[\w./@+-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`;
}

function diffCommand(range: ReviewRange, paths: readonly string[]): string {
  const ends = range.head ? `${range.base} ${range.head}` : range.base;
  return `git diff ${ends}${paths.length ? ` -- ${paths.map(shellWord).join(' ')}` : ''}`;
}

/**
 * Consecutive files (so a folder tends to stay together), each group near GROUP_CHARS and at most GROUP_FILES files,
 * at most MAX_GROUPS groups (past it, groups grow).
 */
export function groupFiles(files: ReadonlyArray<{ path: string; chars: number }>): string[][] {
  const total = files.reduce((n, f) => n + f.chars, 0);
  const target = Math.max(GROUP_CHARS, Math.ceil(total / MAX_GROUPS));
  const most = Math.max(GROUP_FILES, Math.ceil(files.length / MAX_GROUPS));
  const groups: string[][] = [];
  let size = 0;
  for (const f of files) {
    const full = groups.length > 0 && (size + f.chars > target || groups.at(-1)!.length >= most);
    if (!groups.length || (full && groups.at(-1)!.length > 0)) {
      groups.push([]);
      size = 0;
    }
    groups.at(-1)!.push(f.path);
    size += f.chars;
  }
  return groups;
}

/** How many characters of the diff belong to each file (its section from `diff --git` to the next). */
function diffSizes(diff: string): Map<number, number> {
  const sizes = new Map<number, number>();
  const starts = [...diff.matchAll(/^diff --git /gm)].map((m) => m.index);
  starts.forEach((start, i) => sizes.set(i, (starts[i + 1] ?? diff.length) - start));
  return sizes;
}

export function buildReviewRequest(o: {
  range: ReviewRange;
  files: readonly DiffFile[];
  diff: string;
  paths: readonly string[];
  focus?: string;
}): ReviewRequest {
  const { range, files, diff } = o;
  const added = files.reduce((n, f) => n + f.added, 0);
  const removed = files.reduce((n, f) => n + f.removed, 0);
  const large = diff.length > DELEGATE_OVER_CHARS || files.length > DELEGATE_OVER_FILES;
  const untracked = range.head ? '' : ' (files not yet added to git are new files: read them with Read)';
  let body: string;
  const sizes = diffSizes(diff);
  let groups = large ? groupFiles(files.map((f, i) => ({ path: f.path, chars: sizes.get(i) ?? 0 }))) : [];
  if (!large) {
    body = `The diff${untracked}:\n\n\`\`\`diff\n${diff}\n\`\`\``;
  } else if (groups.length < 2) {
    // One file larger than a group: a swarm of one is no split (AgentSwarm needs two items); it is read in parts.
    groups = [];
    body = [
      `The diff is large (${diff.length} characters in ${files.length} file${files.length === 1 ? '' : 's'}), so it is not included here${untracked}.`,
      `Read it one file at a time with \`${diffCommand(range, [])} -- <path>\`, and the code around the changes with`,
      'Read.',
    ].join('\n');
  } else {
    const list = files.map((f) => `- ${f.path} (${f.status}, +${f.added} −${f.removed})`).join('\n');
    const note = range.head ? '' : ' (a file not yet added to git is not in it: read that file with Read)';
    const items = groups.map(
      (g) => `Review these files: ${g.join(', ')}. Their diff: \`${diffCommand(range, g)}\`${note}`,
    );
    body = [
      `The diff is large (${diff.length} characters in ${files.length} file${files.length === 1 ? '' : 's'}), so it is not included here${untracked}.`,
      '',
      list,
      '',
      `Split the work: call AgentSwarm once, with subagent_type "${REVIEW_FILES_AGENT}", prompt_template "{{item}}"`,
      `and these ${groups.length} items (one per group of files), exactly as written:`,
      '',
      '```json',
      JSON.stringify(items, null, 2),
      '```',
      '',
      'Each member answers with a JSON array of findings. Check what they report against the code where you doubt',
      'it, drop what is wrong or repeated, look at how the groups fit together, and give the merged review.',
    ].join('\n');
  }
  const fill: Record<string, string> = {
    base_label: range.baseLabel,
    base: range.base,
    head_label: range.headLabel,
    head_commit: range.head ? ` (commit ${range.head})` : '',
    file_count: String(files.length),
    added: String(added),
    removed: String(removed),
    diff_command: diffCommand(range, o.paths),
    focus: o.focus ? `\n- Focus on: ${o.focus}` : '',
    body,
  };
  // One pass over the template: text filled in (the diff among it) is never read for placeholders again.
  const text = requestTemplate.replace(/\$\{(\w+)\}/g, (whole, name: string) => fill[name] ?? whole);
  return { text, groups };
}
