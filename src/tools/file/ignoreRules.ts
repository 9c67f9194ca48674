// Ignore files as ripgrep reads them: .gitignore, .ignore and .rgignore in every folder, the deeper
// folder's rules overriding its parents', and within one folder .rgignore over .ignore over
// .gitignore. Rules are loaded lazily, once per folder, as a walk reaches it.
//
// Two ways in: IgnoreRules answers for any path below `top` (reading each folder's files on first
// use); a walk that already holds each folder's listing can instead keep a stack of IgnoreFrame
// (framesAbove for the folders above its root, readIgnoreFiles for the ones it enters) and ask
// isIgnoredBy, which gives the same answer without re-deriving relative paths for every entry.
import { readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';

/** Lowest precedence first: a later file's rule wins over an earlier one's. */
export const IGNORE_FILE_NAMES: readonly string[] = ['.gitignore', '.ignore', '.rgignore'];

function toPosix(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}

/**
 * The ignore files in `folder` as one rule set, or null when it has none. `present`: the names
 * known to exist there (from a directory listing), so absent files are not even tried.
 */
export function readIgnoreFiles(folder: string, present?: (name: string) => boolean): Ignore | null {
  let rules: Ignore | null = null;
  let matchesFiles = false;
  for (const name of IGNORE_FILE_NAMES) {
    if (present && !present(name)) continue;
    let text: string;
    try {
      text = readFileSync(join(folder, name), 'utf8');
    } catch {
      continue;
    }
    rules ??= ignore();
    rules.add(text);
    matchesFiles ||= hasFilePattern(text);
  }
  if (rules && !matchesFiles) DIRECTORY_ONLY.add(rules);
  return rules;
}

/** Rule sets whose every pattern ends with `/`: they match folders only, never a file itself. */
const DIRECTORY_ONLY = new WeakSet<Ignore>();

/** Whether an ignore file has a pattern (or negation) that can match a file, not only folders. */
function hasFilePattern(text: string): boolean {
  return text.split(/\r?\n/).some((line) => {
    const pattern = line.replace(/(?<!\\)\s+$/, '');
    return pattern !== '' && !pattern.startsWith('#') && !pattern.endsWith('/');
  });
}

/** One folder's rules, seen from a folder being walked: `rel` is that folder relative to the rules' folder ('' when the same). */
export interface IgnoreFrame {
  rules: Ignore;
  rel: string;
}

/** Whether the entry `name` (a folder when `isFolder`) of the walked folder is ignored by the frames, outermost first. */
export function isIgnoredBy(frames: readonly IgnoreFrame[], name: string, isFolder: boolean): boolean {
  let ignored = false;
  const tail = isFolder ? `${name}/` : name;
  for (const frame of frames) {
    // Folder-only rules cannot match a file, and the walk never enters a folder they ignore, so a
    // file's answer from them is always "not ignored": skip the test (it dominated Glob's time).
    if (!isFolder && DIRECTORY_ONLY.has(frame.rules)) continue;
    const result = frame.rules.test(frame.rel === '' ? tail : `${frame.rel}/${tail}`);
    if (result.ignored) ignored = true;
    else if (result.unignored) ignored = false;
  }
  return ignored;
}

/** The frames of `frames` as seen from their folder's child `name`. */
export function framesInto(frames: readonly IgnoreFrame[], name: string): IgnoreFrame[] {
  return frames.map((f) => ({ rules: f.rules, rel: f.rel === '' ? name : `${f.rel}/${name}` }));
}

export class IgnoreRules {
  private readonly perFolder = new Map<string, Ignore | null>();

  /** `top`: the highest folder whose ignore files apply (the walk root, or cwd above it). */
  constructor(private readonly top: string) {}

  private rulesIn(folder: string): Ignore | null {
    const cached = this.perFolder.get(folder);
    if (cached !== undefined) return cached;
    const rules = readIgnoreFiles(folder);
    this.perFolder.set(folder, rules);
    return rules;
  }

  /**
   * The frames that apply inside `dir` (absolute, inside `top`) from the folders above it, `top`
   * included, `dir` itself not: a walk of `dir` adds dir's own files as it lists it.
   */
  framesAbove(dir: string): IgnoreFrame[] {
    if (dir === this.top) return [];
    const frames: IgnoreFrame[] = [];
    for (const folder of this.foldersAbove(dir)) {
      const rules = this.rulesIn(folder);
      if (rules) frames.push({ rules, rel: toPosix(relative(folder, dir)) });
    }
    return frames;
  }

  /** Folders from `top` down to the one holding `path` (for `path` inside `top`). */
  private foldersAbove(path: string): string[] {
    const folders: string[] = [];
    for (let folder = dirname(path); ; folder = dirname(folder)) {
      folders.push(folder);
      if (folder === this.top || dirname(folder) === folder) break;
    }
    return folders.reverse();
  }

  /** Whether `path` (absolute, inside `top`) is ignored; folders are matched with a trailing slash. */
  isIgnored(path: string, isFolder: boolean): boolean {
    if (path === this.top) return false;
    let ignored = false;
    for (const folder of this.foldersAbove(path)) {
      const rules = this.rulesIn(folder);
      if (!rules) continue;
      const result = rules.test(toPosix(relative(folder, path)) + (isFolder ? '/' : ''));
      if (result.ignored) ignored = true;
      else if (result.unignored) ignored = false;
    }
    return ignored;
  }
}
