// What keeps Jarvis's own git calls from running a repository's programs (docs/sandbox.md, "Jarvis's own git
// calls"). A command in the sandbox can write a repository's config — a nested repository it creates, a linked
// worktree's `.git` file, a file the config includes — and git runs programs named there: hooks, fsmonitor,
// filters, diff and merge drivers, pagers, editors, signing and credential programs. Every call Jarvis makes
// (Tower's worktrees and merges, the diagnostics snapshot after a Bash command: platform/git.ts) therefore runs
// with the settings below given on git's command line, which beats every config file, and with the drivers the
// repository's own config defines emptied. The user's global and system drivers (`git lfs install`) still run,
// unless their program is a path inside the repository.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';

/** Settings that turn off every program a repository can name for the commands Jarvis runs. */
export const NEUTRAL_GIT_CONFIG: readonly string[] = [
  'core.hooksPath=/dev/null',
  'core.fsmonitor=false',
  'core.pager=cat',
  'core.editor=true',
  'sequence.editor=true',
  'core.askPass=',
  'core.sshCommand=false',
  'core.gitProxy=',
  'core.alternateRefsCommand=',
  'credential.helper=',
  'diff.external=',
  'commit.gpgSign=false',
  'tag.gpgSign=false',
  'merge.verifySignatures=false',
  'log.showSignature=false',
  'gpg.program=false',
  'uploadpack.packObjectsHook=',
  'submodule.recurse=false',
  'gc.auto=0',
  'maintenance.auto=false',
  'protocol.allow=never',
  ...['file', 'git', 'ssh', 'http', 'https', 'ext'].map((p) => `protocol.${p}.allow=never`),
];

/** The global options every call gets: no pager, no optional locks (a look never takes the index lock). */
export const NEUTRAL_GIT_OPTIONS: readonly string[] = ['--no-pager', '--no-optional-locks'];

/** Keys whose value is a program git runs for files the attributes (a repository's own files) name. */
const DRIVER_KEY = /^(filter|diff|merge)\.(.+)\.(clean|smudge|process|textconv|command|driver)$/;

/** What each kind of driver is emptied with (an empty program runs nothing; a filter then leaves files as they are). */
const EMPTIED: Record<string, readonly string[]> = {
  filter: ['clean=', 'smudge=', 'process=', 'required=false'],
  diff: ['textconv=', 'command='],
  merge: ['driver='],
};

/** One setting as `git config --list --show-scope --show-origin -z` prints it. */
export interface GitConfigEntry {
  scope: string;
  /** The file it came from, absolute (empty for the command line). */
  file: string;
  key: string;
  value: string;
}

/** A driver of the repository's own config that Jarvis's calls empty, said where a call fails because of it. */
export interface RepositoryDriver {
  key: string;
  value: string;
  file: string;
}

export function parseGitConfigList(text: string, cwd: string): GitConfigEntry[] {
  const fields = text.split('\0');
  const entries: GitConfigEntry[] = [];
  for (let i = 0; i + 2 < fields.length; i += 3) {
    const [scope, origin, pair] = [fields[i], fields[i + 1], fields[i + 2]];
    const newline = pair.indexOf('\n');
    const key = newline < 0 ? pair : pair.slice(0, newline);
    const value = newline < 0 ? '' : pair.slice(newline + 1);
    const path = origin.startsWith('file:') ? origin.slice('file:'.length) : '';
    entries.push({ scope, file: path && !isAbsolute(path) ? resolve(cwd, path) : path, key, value });
  }
  return entries;
}

/** The working tree holding `cwd` (the nearest folder with a `.git`) and the git dir its `.git` file names. */
function repositoryFolders(cwd: string): string[] {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const dotGit = join(dir, '.git');
    if (existsSync(dotGit)) {
      const folders = [dir];
      try {
        if (statSync(dotGit).isFile()) {
          const named = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotGit, 'utf8'))?.[1];
          if (named) folders.push(resolve(dir, named));
        }
      } catch {
        // unreadable: the folder itself still counts
      }
      return folders;
    }
    if (dirname(dir) === dir) return [];
  }
}

const inside = (path: string, folder: string) => {
  const rel = relative(folder, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

/**
 * Whether a driver setting is the repository's own: from its config (local or worktree scope), from a file inside
 * the repository (an include), or naming a program by a path inside it or relative to it.
 */
function repositoryOwned(entry: GitConfigEntry, folders: readonly string[]): boolean {
  if (entry.scope !== 'global' && entry.scope !== 'system' && entry.scope !== 'command') return true;
  if (entry.file && folders.some((f) => inside(entry.file, f))) return true;
  const program = entry.value.trim().split(/\s+/)[0] ?? '';
  if (!program.includes('/')) return false;
  return !isAbsolute(program) || folders.some((f) => inside(program, f));
}

/** The `-c` settings that empty the repository's own drivers, and those drivers. */
export function drivers(
  entries: readonly GitConfigEntry[],
  cwd: string,
): { config: string[]; found: RepositoryDriver[] } {
  const folders = repositoryFolders(cwd);
  const config = new Set<string>();
  const found: RepositoryDriver[] = [];
  for (const entry of entries) {
    const m = DRIVER_KEY.exec(entry.key);
    if (!m || !repositoryOwned(entry, folders)) continue;
    found.push({ key: entry.key, value: entry.value, file: entry.file });
    for (const setting of EMPTIED[m[1]]) config.add(`${m[1]}.${m[2]}.${setting}`);
  }
  return { config: [...config], found };
}

/** `git -c a -c b … <options>`: the arguments that go before a subcommand. */
export function guardArguments(extraConfig: readonly string[]): string[] {
  return [...[...NEUTRAL_GIT_CONFIG, ...extraConfig].flatMap((c) => ['-c', c]), ...NEUTRAL_GIT_OPTIONS];
}
