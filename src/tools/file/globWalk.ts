// The walk behind Glob — and behind the input box's @-completion and @folder listings (walkAllFiles),
// so there is one notion of "the project's files": the files under a folder whose path (relative to
// it, `/`-separated) matches, never entering VCS folders or ignored folders, and leaving out ignored
// entries and secrets.
//
// It lists each folder once (readdirSync, in time slices) and works from that listing alone: ignore
// files are read only where the listing shows one, each entry is tested against a stack of ignore
// frames with paths built as the walk descends (no path.relative per entry), and folders deeper than
// the glob can reach are not entered. Symlinks are listed like files and never followed; whether
// they lead to files is for the caller's stat to tell.
import { readdirSync, type Dirent } from 'node:fs';
import { sep } from 'node:path';
import { TimeSlicer } from './fileTimes';
import {
  framesInto,
  IGNORE_FILE_NAMES,
  IgnoreRules,
  isIgnoredBy,
  readIgnoreFiles,
  type IgnoreFrame,
} from './ignoreRules';
import { canonicalPath, isWithin } from './pathPolicy';
import { isSensitiveEntry, isVcsDirName } from './sensitivePaths';

export interface GlobWalk {
  /** Absolute folder to walk. */
  root: string;
  /** Tests a file's path relative to root, `/`-separated. */
  matches(rel: string): boolean;
  /** The deepest folder level whose files can match (0: root's own files); Infinity for no bound. */
  maxDepth: number;
  /** Ignore rules from the folders above root; undefined to disregard ignore files altogether. */
  ignore: IgnoreFrame[] | undefined;
  signal: AbortSignal;
  /** Told of each matching, not ignored file left out because it is sensitive (Glob counts them in a note). */
  onSensitive?(path: string): void;
  /** Stop after this many files (a completion list of a huge tree); default: no limit. */
  maxFiles?: number;
}

interface PendingFolder {
  path: string;
  /** Relative to root, `/`-separated ('' for root). */
  rel: string;
  name: string;
  depth: number;
  frames: IgnoreFrame[] | undefined;
}

const IGNORE_NAMES = new Set(IGNORE_FILE_NAMES);

function lastSegment(path: string): string {
  const segments = path.split(/[\\/]+/).filter((s) => s.length > 0);
  return segments[segments.length - 1] ?? '';
}

/** Absolute paths of the matching files (and symlinks), in no particular order. */
export async function walkMatchingFiles(walk: GlobWalk): Promise<string[]> {
  const found: string[] = [];
  const slicer = new TimeSlicer(walk.signal);
  const pending: PendingFolder[] = [
    { path: walk.root, rel: '', name: lastSegment(walk.root), depth: 0, frames: walk.ignore },
  ];
  const maxFiles = walk.maxFiles ?? Infinity;
  for (let folder = pending.pop(); folder && found.length < maxFiles; folder = pending.pop()) {
    if (slicer.due()) await slicer.pause();
    let entries: Dirent[];
    try {
      entries = readdirSync(folder.path, { withFileTypes: true });
    } catch {
      continue; // unreadable folder: skipped, as a walk that suppresses errors would
    }
    let frames = folder.frames;
    if (frames && entries.some((e) => IGNORE_NAMES.has(e.name))) {
      const rules = readIgnoreFiles(folder.path, (name) => entries.some((e) => e.name === name));
      if (rules) frames = [...frames, { rules, rel: '' }];
    }
    const active = frames ?? [];
    const prefix = folder.path.endsWith(sep) ? folder.path : folder.path + sep;
    for (const entry of entries) {
      const name = entry.name;
      if (entry.isDirectory()) {
        if (folder.depth >= walk.maxDepth || isVcsDirName(name)) continue;
        if (active.length > 0 && isIgnoredBy(active, name, true)) continue;
        const rel = folder.rel === '' ? name : `${folder.rel}/${name}`;
        pending.push({
          path: prefix + name,
          rel,
          name,
          depth: folder.depth + 1,
          frames: frames && framesInto(frames, name),
        });
      } else if (entry.isFile() || entry.isSymbolicLink()) {
        if (!walk.matches(folder.rel === '' ? name : `${folder.rel}/${name}`)) continue;
        if (active.length > 0 && isIgnoredBy(active, name, false)) continue;
        if (isSensitiveEntry(folder.name, name)) {
          walk.onSensitive?.(prefix + name);
          continue;
        }
        found.push(prefix + name);
      }
    }
  }
  walk.signal.throwIfAborted();
  return found;
}

/**
 * The ignore rules from the folders above `root` that apply to a walk of it: cwd's and those between,
 * when root lies inside cwd (and is not itself ignored there); none otherwise (root's own still apply).
 */
export function ignoreFramesAbove(root: string, cwd: string): IgnoreFrame[] {
  const top = canonicalPath(cwd);
  if (isWithin(root, top)) {
    const fromCwd = new IgnoreRules(top);
    if (!fromCwd.isIgnored(root, true)) return fromCwd.framesAbove(root);
  }
  return new IgnoreRules(root).framesAbove(root);
}

/** Every file below `root` as Glob's `**` would see it (ignore files honoured, secrets and VCS folders left out). */
export function walkAllFiles(
  root: string,
  opts: { cwd: string; signal: AbortSignal; maxFiles?: number },
): Promise<string[]> {
  return walkMatchingFiles({
    root,
    matches: () => true,
    maxDepth: Infinity,
    ignore: ignoreFramesAbove(root, opts.cwd),
    signal: opts.signal,
    maxFiles: opts.maxFiles,
  });
}
