// What `jarvis review` reviews (docs/ci.md "jarvis review"): the two ends of the diff, found the way a pull request
// finds them, and the unified diff read into files and hunks, so that findings can be tied to lines that changed.
// Every git call here only reads: no index refresh (--no-optional-locks), no external diff driver, no textconv filter.
import { runGit, type GitResult } from '../../platform/git';

/** The lines of one hunk on the new side: each line number with whether it was added (else context). */
export interface Hunk {
  newStart: number;
  newLines: number;
  /** New-side line number → the line's text and whether the diff added it. */
  lines: Map<number, { text: string; added: boolean }>;
}

export interface DiffFile {
  /** The file's path after the change (relative to the repository's top folder, `/`-separated). */
  path: string;
  /** Its path before a rename or copy. */
  oldPath?: string;
  status: 'added' | 'modified' | 'deleted' | 'renamed';
  binary: boolean;
  hunks: Hunk[];
  added: number;
  removed: number;
}

export interface ReviewRange {
  /** The commit the diff starts from (a merge base, resolved to its id). */
  base: string;
  /** What the base was given as, or how it was found (`merge base of origin/HEAD and HEAD`). */
  baseLabel: string;
  /** The commit the diff ends at, or undefined for the working tree. */
  head?: string;
  headLabel: string;
}

export class ReviewInputError extends Error {}

const READ_ONLY = ['--no-optional-locks', '-c', 'core.quotePath=false'];
const READ_ONLY_DIFF = [...READ_ONLY, 'diff', '--no-color', '--no-ext-diff', '--no-textconv', '-M'];

async function gitOrFail(args: string[], cwd: string, what: string): Promise<string> {
  const result: GitResult = await runGit(args, cwd);
  if (result.code !== 0) throw new ReviewInputError(`${what}: ${(result.stderr || result.stdout).trim()}`);
  return result.stdout;
}

/** The repository's top folder, or a ReviewInputError saying that `jarvis review` needs one. */
export async function repositoryRoot(cwd: string): Promise<string> {
  const r = await runGit(['rev-parse', '--show-toplevel'], cwd);
  if (r.code !== 0) throw new ReviewInputError(`jarvis review needs a git repository, and ${cwd} is not inside one.`);
  return r.stdout.trim();
}

async function commitOf(ref: string, root: string): Promise<string | undefined> {
  if (ref.startsWith('-')) return undefined; // never an option to git
  const r = await runGit(['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`], root);
  return r.code === 0 ? r.stdout.trim() : undefined;
}

/** The default branch, tried in this order: what origin/HEAD points at, then main, master (remote, then local). */
async function defaultBranch(root: string): Promise<string | undefined> {
  const candidates: string[] = [];
  const head = await runGit(['symbolic-ref', '--quiet', 'refs/remotes/origin/HEAD'], root);
  if (head.code === 0) candidates.push(head.stdout.trim().replace(/^refs\/remotes\//, ''));
  candidates.push('origin/main', 'origin/master', 'main', 'master');
  for (const c of candidates) if (await commitOf(c, root)) return c;
  return undefined;
}

/**
 * The range to review. `--base` and `--head` as given (each must name a commit); without `--head`, the working tree.
 * The diff always starts at the merge base of the base and the head, as a pull request's does.
 */
export async function resolveRange(root: string, base?: string, head?: string): Promise<ReviewRange> {
  const headCommit = head === undefined ? undefined : await commitOf(head, root);
  if (head !== undefined && !headCommit)
    throw new ReviewInputError(`--head ${head}: no such commit in ${root} (fetch it first, e.g. git fetch origin).`);
  const tip = headCommit ?? (await commitOf('HEAD', root));
  if (!tip) throw new ReviewInputError(`${root} has no commit yet: there is nothing to compare the changes with.`);
  let from = base;
  if (from === undefined) {
    from = await defaultBranch(root);
    if (!from)
      throw new ReviewInputError(
        'no default branch was found (neither origin/HEAD, main nor master): name the base with --base <ref>.',
      );
  }
  const fromCommit = await commitOf(from, root);
  if (!fromCommit)
    throw new ReviewInputError(`--base ${from}: no such commit in ${root} (fetch it first, e.g. git fetch origin).`);
  const mergeBase = await runGit(['merge-base', fromCommit, tip], root);
  if (mergeBase.code !== 0)
    throw new ReviewInputError(`${from} and ${head ?? 'HEAD'} have no common history: give --base a related commit.`);
  const baseLabel = base === undefined ? `merge base of ${from} and ${head ?? 'HEAD'}` : base;
  return {
    base: mergeBase.stdout.trim(),
    baseLabel,
    ...(headCommit ? { head: headCommit } : {}),
    headLabel: head ?? 'the working tree',
  };
}

/** The unified diff of the range, limited to `paths` when given; untracked files count as added in the working tree. */
export async function readDiff(root: string, range: ReviewRange, paths: string[]): Promise<string> {
  const limit = paths.length ? ['--', ...paths] : [];
  const ends = range.head ? [range.base, range.head] : [range.base];
  let text = await gitOrFail([...READ_ONLY_DIFF, ...ends, ...limit], root, 'git diff failed');
  if (range.head) return text;
  const untracked = await gitOrFail(
    [...READ_ONLY, 'ls-files', '-z', '--others', '--exclude-standard', ...limit],
    root,
    'listing untracked files failed',
  );
  for (const file of untracked.split('\0').filter(Boolean)) {
    // `--no-index` exits 1 when the files differ, which they always do here.
    const r = await runGit([...READ_ONLY_DIFF, '--no-index', '--', '/dev/null', file], root);
    if (r.code > 1) throw new ReviewInputError(`git diff of the untracked file ${file} failed: ${r.stderr.trim()}`);
    text += r.stdout;
  }
  return text;
}

/** A path as git writes it in a header: C-quoted when it holds special characters. */
function unquote(raw: string): string {
  if (!raw.startsWith('"')) return raw;
  const bytes: number[] = [];
  const body = raw.slice(1, raw.lastIndexOf('"'));
  const escapes: Record<string, number> = { n: 10, t: 9, r: 13, '"': 34, '\\': 92, a: 7, b: 8, f: 12, v: 11 };
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c !== '\\') {
      bytes.push(...Buffer.from(c, 'utf8'));
      continue;
    }
    const next = body[i + 1];
    if (/[0-7]/.test(next)) {
      bytes.push(parseInt(body.slice(i + 1, i + 4), 8));
      i += 3;
    } else {
      bytes.push(escapes[next] ?? next.charCodeAt(0));
      i += 1;
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

function stripPrefix(path: string, prefix: 'a/' | 'b/'): string {
  const p = unquote(path.trim());
  return p.startsWith(prefix) ? p.slice(2) : p;
}

const HUNK = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/;

/** Reads a unified diff (`git diff` output) into its files and their hunks on the new side. */
export function parseDiff(text: string): DiffFile[] {
  const files: DiffFile[] = [];
  let file: DiffFile | undefined;
  let hunk: Hunk | undefined;
  let line = 0;
  for (const raw of text.split('\n')) {
    if (raw.startsWith('diff --git ')) {
      // The name from this line is used only when nothing below names the file (a mode change): `a/X b/X`.
      const rest = raw.slice('diff --git '.length);
      const half = (rest.length - 1) / 2;
      const same =
        rest.startsWith('a/') && rest.slice(half + 1).startsWith('b/') && rest.slice(2, half) === rest.slice(half + 3);
      file = {
        path: same ? rest.slice(2, half) : '',
        status: 'modified',
        binary: false,
        hunks: [],
        added: 0,
        removed: 0,
      };
      files.push(file);
      hunk = undefined;
      continue;
    }
    if (!file) continue;
    const header = hunk === undefined;
    if (header && raw.startsWith('--- ')) {
      if (raw.slice(4) !== '/dev/null') file.oldPath = stripPrefix(raw.slice(4), 'a/');
      else file.status = 'added';
    } else if (header && raw.startsWith('+++ ')) {
      if (raw.slice(4) === '/dev/null') {
        file.status = 'deleted';
        file.path = file.oldPath ?? '';
      } else file.path = stripPrefix(raw.slice(4), 'b/');
    } else if (header && raw.startsWith('rename to ')) {
      file.status = 'renamed';
      file.path = unquote(raw.slice('rename to '.length));
    } else if (header && raw.startsWith('rename from ')) {
      file.oldPath = unquote(raw.slice('rename from '.length));
    } else if (header && raw.startsWith('new file mode')) {
      file.status = 'added';
    } else if (header && raw.startsWith('deleted file mode')) {
      file.status = 'deleted';
    } else if (raw.startsWith('Binary files ')) {
      file.binary = true;
      const m = / and (?:b\/)?(.+) differ$/.exec(raw);
      if (m && m[1] !== '/dev/null' && !file.path) file.path = stripPrefix(`b/${m[1]}`, 'b/');
    } else if (HUNK.test(raw)) {
      const m = HUNK.exec(raw)!;
      hunk = { newStart: Number(m[1]), newLines: m[2] === undefined ? 1 : Number(m[2]), lines: new Map() };
      file.hunks.push(hunk);
      line = hunk.newStart;
    } else if (hunk && raw.startsWith('+')) {
      hunk.lines.set(line++, { text: raw.slice(1), added: true });
      file.added++;
    } else if (hunk && raw.startsWith(' ')) {
      hunk.lines.set(line++, { text: raw.slice(1), added: false });
    } else if (hunk && raw.startsWith('-')) {
      file.removed++;
    }
  }
  return files.filter((f) => f.path !== '');
}

/** The new-side line numbers of `file` that the diff added, in order. */
export function addedLines(file: DiffFile): number[] {
  return file.hunks.flatMap((h) => [...h.lines].filter(([, l]) => l.added).map(([n]) => n));
}
