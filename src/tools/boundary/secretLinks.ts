// Hard links to secret files (docs/trust-boundary.md "Secrets"): another name of a secret's inode reads the secret,
// whatever that name is. The index knows the secrets' inodes (and those of the home's credential files); a file is
// checked against them when it appears, and all known files are checked at once whenever a secret has more than one
// link (made before the session, say) — so the common case costs no stat per file.
import { lstatSync } from 'node:fs';

export class SecretLinks {
  /** `dev:ino` of each known secret file, with the paths that hold it. */
  private readonly inodes = new Map<string, Set<string>>();
  private sweepNeeded = false;

  constructor(outsideSecrets: readonly string[]) {
    for (const path of outsideSecrets) this.addSecret(path);
  }

  /** A secret file: its inode is remembered; more than one link means its other names must be found. */
  addSecret(path: string): void {
    const st = lstatOrUndefined(path);
    if (!st?.isFile()) return;
    const key = `${st.dev}:${st.ino}`;
    const paths = this.inodes.get(key) ?? new Set<string>();
    paths.add(path);
    this.inodes.set(key, paths);
    if (st.nlink > paths.size) this.sweepNeeded = true;
  }

  /** A file that appeared after the first walk: a secret when it is another name of a known secret's inode. */
  checkNewFile(path: string, found: (path: string) => void): void {
    if (this.inodes.size === 0) return;
    const st = lstatOrUndefined(path);
    if (!st?.isFile() || st.nlink < 2) return;
    const paths = this.inodes.get(`${st.dev}:${st.ino}`);
    if (!paths || paths.has(path)) return;
    paths.add(path);
    found(path);
  }

  /** When a secret has links not yet found, every known file is checked (one lstat each). */
  sweepIfNeeded(files: Iterable<string>, found: (path: string) => void): void {
    if (!this.sweepNeeded) return;
    this.sweepNeeded = false;
    for (const path of files) this.checkNewFile(path, found);
  }

  forget(path: string): void {
    for (const [key, paths] of this.inodes) {
      paths.delete(path);
      if (paths.size === 0) this.inodes.delete(key);
    }
  }

  forgetBelow(dir: string): void {
    const prefix = `${dir}/`;
    for (const [key, paths] of this.inodes) {
      for (const path of [...paths]) if (path.startsWith(prefix)) paths.delete(path);
      if (paths.size === 0) this.inodes.delete(key);
    }
  }
}

function lstatOrUndefined(path: string) {
  try {
    return lstatSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}
