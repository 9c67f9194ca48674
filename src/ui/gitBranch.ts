// The current git branch for the footer, read from .git/HEAD (no process spawned, cheap enough to
// re-read after every turn).
import { readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

export function gitBranch(cwd: string): string | undefined {
  let dir = resolve(cwd);
  for (;;) {
    const dotGit = join(dir, '.git');
    try {
      let gitDir = dotGit;
      if (statSync(dotGit).isFile()) {
        const ref = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, 'utf8'));
        if (!ref) return undefined;
        gitDir = resolve(dir, ref[1].trim());
      }
      const head = readFileSync(join(gitDir, 'HEAD'), 'utf8').trim();
      const m = /^ref:\s*refs\/heads\/(.+)$/.exec(head);
      return m ? m[1] : head.slice(0, 7);
    } catch {
      const parent = dirname(dir);
      if (parent === dir) return undefined;
      dir = parent;
    }
  }
}
