// A repository's config file as the trust boundary reads it (docs/trust-boundary.md "Git"): parsed by git itself
// (`git config --file … --no-includes --null --list`, nothing of it followed or run), then judged — which keys name
// a program or a file git runs or reads later, and whether a config that appeared during a command holds only keys
// known to run nothing (fail closed: any other key is a problem).
import { spawnSync } from 'node:child_process';

export type ConfigEntries = ReadonlyArray<readonly [key: string, value: string]>;

/** The entries of one config file, keys lower-cased as git reports them; an error names what could not be read. */
export function readGitConfig(file: string): { entries: ConfigEntries } | { error: string } {
  const run = spawnSync('git', ['config', '--file', file, '--no-includes', '--null', '--list'], {
    encoding: 'utf8',
    env: gitEnv(),
    timeout: 10_000,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (run.error) return { error: `git could not be run to read ${file}: ${run.error.message}` };
  if (run.status !== 0) return { error: `git could not read ${file}: ${run.stderr.trim().split('\n')[0]}` };
  const entries: Array<readonly [string, string]> = [];
  for (const item of run.stdout.split('\0')) {
    if (!item) continue;
    const newline = item.indexOf('\n');
    entries.push(newline < 0 ? [item, ''] : [item.slice(0, newline), item.slice(newline + 1)]);
  }
  return { entries };
}

/** Git's environment without the user's and system's config or any GIT_* variable: only the file named is read. */
function gitEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('GIT_')) env[name] = value;
  return { ...env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
}

/** Keys whose value names a program git (or a command it starts) runs. */
const PROGRAM_KEYS = [
  /^core\.(fsmonitor|sshcommand|pager|editor|askpass|hookspath)$/,
  /^sequence\.editor$/,
  /^gpg\.(program|[^.]+\.program)$/,
  /^diff\.(external|.+\.(textconv|command))$/,
  /^filter\..+\.(clean|smudge|process)$/,
  /^merge\..+\.driver$/,
  /^credential\.(.+\.)?helper$/,
  /^uploadpack\.packobjectshook$/,
  /^(remote\..+\.(uploadpack|receivepack|vcs))$/,
  /^alias\..+$/,
];

/** Keys whose value is a config file git reads too. */
const INCLUDE_KEY = /^(include|includeif\..+)\.path$/;

/**
 * Files and folders a config makes git run or read later: included configs, the hooks folder, and the program of each
 * program-valued key when it is written as a path. Relative paths are as git resolves them: includes from the config's
 * folder (`~/` from home), the rest from the worktree's top.
 */
export function pathsNamedBy(
  entries: ConfigEntries,
): Array<{ key: string; path: string; base: 'config' | 'worktree' }> {
  const named: Array<{ key: string; path: string; base: 'config' | 'worktree' }> = [];
  for (const [key, value] of entries) {
    if (INCLUDE_KEY.test(key) && value) named.push({ key, path: value, base: 'config' });
    else if (key === 'core.hookspath' && value) named.push({ key, path: value, base: 'worktree' });
    else if (PROGRAM_KEYS.some((k) => k.test(key))) {
      const program = firstWord(value.startsWith('!') ? value.slice(1) : value);
      if (program.includes('/')) named.push({ key, path: program, base: 'worktree' });
    }
  }
  return named;
}

function firstWord(command: string): string {
  const trimmed = command.trim();
  const quoted = /^(['"])(.*?)\1/.exec(trimmed);
  return quoted ? quoted[2] : (trimmed.split(/\s/)[0] ?? '');
}

/** Keys a config written during a command may hold: they run nothing and read no other file. */
const HARMLESS_KEYS = [
  /^core\.(repositoryformatversion|filemode|bare|logallrefupdates|ignorecase|precomposeunicode|symlinks)$/,
  /^core\.(autocrlf|eol|safecrlf|quotepath|abbrev|compression|checkstat|trustctime|untrackedcache|splitindex)$/,
  /^core\.(sparsecheckout|sparsecheckoutcone|commitgraph|multipackindex|bigfilethreshold|worktree)$/,
  /^extensions\.(objectformat|refstorage|worktreeconfig|preciousobjects|partialclone)$/,
  /^init\.defaultbranch$/,
  /^user\.(name|email|useconfigonly)$/,
  /^remote\.[^\n]+\.(fetch|tagopt|prune|mirror|promisor|partialclonefilter)$/,
  /^branch\.[^\n]+\.(remote|merge|rebase|pushremote|description)$/,
  /^(pull\.(rebase|ff)|push\.(default|autosetupremote)|fetch\.prune|gc\.(auto|autodetach))$/,
  /^(index\.(version|threads)|commit\.gpgsign|tag\.gpgsign)$/,
  /^(advice|color)\.[^\n]+$/,
  /^submodule\.[^\n]+\.(active|url)$/,
];

/** What makes a config that appeared during a command unsafe to leave for git to run later; empty when nothing. */
export function configProblems(file: string, entries: ConfigEntries): string[] {
  const problems: string[] = [];
  for (const [key, value] of entries) {
    if (/^remote\.[^\n]+\.(url|pushurl)$/.test(key)) {
      // `ext::` runs a command on fetch and push; `file::`/paths are fine.
      if (/^ext::/i.test(value)) problems.push(`${file}: ${key} = ${value} runs a command`);
      continue;
    }
    // `update = !cmd` runs a command; the named strategies do not.
    if (/^submodule\.[^\n]+\.update$/.test(key) && /^(checkout|rebase|merge|none)$/.test(value)) continue;
    if (!HARMLESS_KEYS.some((k) => k.test(key))) problems.push(`${file}: ${key} is not a key a new repository needs`);
  }
  return problems;
}
