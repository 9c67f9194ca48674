// Ignore files as ripgrep reads them: .gitignore, .ignore and .rgignore in every folder, the deeper
// folder's rules overriding its parents', and within one folder .rgignore over .ignore over
// .gitignore. Rules are loaded lazily, once per folder, as a walk reaches it.
import { readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';

/** Lowest precedence first: a later file's rule wins over an earlier one's. */
export const IGNORE_FILE_NAMES: readonly string[] = ['.gitignore', '.ignore', '.rgignore'];

function toPosix(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}

export class IgnoreRules {
  private readonly perFolder = new Map<string, Ignore | null>();

  /** `top`: the highest folder whose ignore files apply (the walk root, or cwd above it). */
  constructor(private readonly top: string) {}

  private rulesIn(folder: string): Ignore | null {
    const cached = this.perFolder.get(folder);
    if (cached !== undefined) return cached;
    let rules: Ignore | null = null;
    for (const name of IGNORE_FILE_NAMES) {
      let text: string;
      try {
        text = readFileSync(join(folder, name), 'utf8');
      } catch {
        continue;
      }
      rules ??= ignore();
      rules.add(text);
    }
    this.perFolder.set(folder, rules);
    return rules;
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
