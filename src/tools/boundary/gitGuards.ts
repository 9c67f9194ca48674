// Git folders and the code git runs from them later (docs/trust-boundary.md "Git"): which git dirs a workspace
// folder belongs to (a commit from a subfolder or a linked worktree writes there), which paths of a git dir hold what
// git runs or reads as config — guarded read-only inside the sandbox, or watched for being created — and what is wrong
// with a git entry that appeared during a command. Read without running git, except git itself parsing a config.
import { existsSync, lstatSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { configProblems, pathsNamedBy, readGitConfig } from './gitConfig';

/** How far up from a folder `.git` is looked for. */
const MAX_LEVELS = 64;
/** How deep `modules/` of a git dir is searched for submodules' git dirs. */
const MAX_MODULE_DEPTH = 8;

/** The git dirs of the repository holding `folder` (empty outside a repository or when `.git` cannot be read). */
export function gitDirsAbove(folder: string): string[] {
  let dir = resolve(folder);
  for (let level = 0; level < MAX_LEVELS; level++) {
    const dotGit = join(dir, '.git');
    const info = lstatSync(dotGit, { throwIfNoEntry: false });
    if (info?.isDirectory()) return [realpathSync(dotGit)];
    if (info?.isFile()) return linkedGitDirs(dir, dotGit);
    const parent = dirname(dir);
    if (parent === dir) return [];
    dir = parent;
  }
  return [];
}

/** `.git` as a file (`gitdir: <path>`): the worktree's git dir and the common dir its `commondir` names. */
export function linkedGitDirs(dir: string, dotGit: string): string[] {
  const match = /^gitdir:\s*(.+?)\s*$/m.exec(readText(dotGit) ?? '');
  if (!match) return [];
  const gitDir = realOrUndefined(resolve(dir, match[1]));
  if (!gitDir) return [];
  const commonText = readText(join(gitDir, 'commondir'))?.trim();
  const common = commonText ? realOrUndefined(resolve(gitDir, commonText)) : undefined;
  return common && common !== gitDir ? [gitDir, common] : [gitDir];
}

/** A path whose content git runs or reads later, and why. */
export interface RunsLaterPath {
  path: string;
  why: string;
}

/** Names directly in a git dir that hold what git runs or reads as config. */
const GIT_DIR_GUARDED = ['config', 'hooks', 'info', 'commondir', 'config.worktree'];
/** Names in each linked worktree's folder (`worktrees/<name>/`) of a git dir. */
const WORKTREE_GUARDED = ['commondir', 'gitdir', 'config.worktree'];

/**
 * What git runs or reads later from `gitDir` (whose worktree's top is `top`, when it has one): its config, hooks, info,
 * commondir and config.worktree, those of each linked worktree's folder and each submodule's git dir, and the files
 * its config names (includes, the hooks path, programs written as paths). Present or not: a caller guards what exists
 * and watches the rest for being created.
 */
export function runsLaterInGitDir(gitDir: string, top: string | undefined, home: string): RunsLaterPath[] {
  const found: RunsLaterPath[] = GIT_DIR_GUARDED.map((name) => ({
    path: join(gitDir, name),
    why: `git reads ${name} of ${gitDir}`,
  }));
  for (const name of listNames(join(gitDir, 'worktrees')))
    for (const file of WORKTREE_GUARDED)
      found.push({ path: join(gitDir, 'worktrees', name, file), why: `git reads it for the linked worktree ${name}` });
  for (const module of submoduleGitDirs(join(gitDir, 'modules'), 0))
    found.push(...runsLaterInGitDir(module, undefined, home));
  const config = readGitConfig(join(gitDir, 'config'));
  if ('entries' in config) {
    for (const named of pathsNamedBy(config.entries)) {
      const base = named.base === 'config' ? gitDir : top;
      const path = resolveNamed(named.path, base, home);
      if (path) found.push({ path, why: `${named.key} of ${join(gitDir, 'config')} names it` });
    }
  }
  return found;
}

function resolveNamed(path: string, base: string | undefined, home: string): string | undefined {
  if (path === '~' || path.startsWith('~/')) return join(home, path.slice(2));
  if (isAbsolute(path)) return resolve(path);
  return base ? resolve(base, path) : undefined;
}

/** Git dirs of submodules under `modules/` (a name may hold slashes; each has HEAD and config). */
function submoduleGitDirs(dir: string, depth: number): string[] {
  if (depth > MAX_MODULE_DEPTH) return [];
  const found: string[] = [];
  for (const name of listNames(dir)) {
    const path = join(dir, name);
    if (!lstatSync(path, { throwIfNoEntry: false })?.isDirectory()) continue;
    if (looksLikeGitDir(path)) found.push(path);
    else found.push(...submoduleGitDirs(path, depth + 1));
  }
  return found;
}

/** A folder git reads as a repository: HEAD, objects/ and refs/ (a bare repository, or a git dir by another name). */
export function looksLikeGitDir(path: string): boolean {
  return (
    !!lstatSync(join(path, 'HEAD'), { throwIfNoEntry: false })?.isFile() &&
    !!lstatSync(join(path, 'objects'), { throwIfNoEntry: false })?.isDirectory() &&
    !!lstatSync(join(path, 'refs'), { throwIfNoEntry: false })?.isDirectory()
  );
}

/** Entries `info/` of a new repository may hold: none of them names a program or a driver. */
const HARMLESS_INFO = new Set(['exclude', 'sparse-checkout', 'refs', 'grafts']);

/**
 * What is wrong with a git entry that appeared during a command (a `.git` folder, file or link, or a folder git reads
 * as a repository): empty when git would run nothing from it. `known` are the git dirs already guarded, which a
 * linked worktree's or a submodule's `.git` file may point into.
 */
export function newGitEntryProblems(entry: string, known: ReadonlySet<string>): string[] {
  const info = lstatSync(entry, { throwIfNoEntry: false });
  if (!info) return [];
  if (info.isSymbolicLink()) return [`${entry} is a link; git would read whatever it points to`];
  if (info.isDirectory()) return gitDirProblems(entry);
  const target = linkedGitDirs(dirname(entry), entry);
  if (target.length === 0) return [`${entry} names no git dir git can use`];
  const [gitDir, common] = target;
  if (known.has(gitDir)) return [];
  if (common && known.has(common) && dirname(gitDir) === join(common, 'worktrees')) return worktreeProblems(gitDir);
  return gitDirProblems(gitDir);
}

function gitDirProblems(gitDir: string): string[] {
  const problems: string[] = [];
  for (const name of ['config', 'config.worktree']) problems.push(...configFileProblems(join(gitDir, name)));
  if (existsSync(join(gitDir, 'commondir')))
    problems.push(`${join(gitDir, 'commondir')} points git at another git dir`);
  const hooks = join(gitDir, 'hooks');
  if (lstatSync(hooks, { throwIfNoEntry: false })?.isSymbolicLink()) problems.push(`${hooks} is a link`);
  for (const name of listNames(hooks))
    if (!name.endsWith('.sample')) problems.push(`${join(hooks, name)} is a hook git would run`);
  for (const name of listNames(join(gitDir, 'info')))
    if (!HARMLESS_INFO.has(name)) problems.push(`${join(gitDir, 'info', name)} is read by git (attributes, drivers)`);
  for (const module of submoduleGitDirs(join(gitDir, 'modules'), 0)) problems.push(...gitDirProblems(module));
  return problems;
}

/** A linked worktree's folder made by `git worktree add`: its commondir leads back, its own config runs nothing. */
function worktreeProblems(gitDir: string): string[] {
  const common = readText(join(gitDir, 'commondir'))?.trim();
  const problems = common === '../..' ? [] : [`${join(gitDir, 'commondir')} points git at another git dir`];
  return [...problems, ...configFileProblems(join(gitDir, 'config.worktree'))];
}

function configFileProblems(file: string): string[] {
  if (!existsSync(file)) return [];
  const config = readGitConfig(file);
  return 'error' in config ? [config.error] : configProblems(file, config.entries);
}

function listNames(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return []; // absent (or not a folder): nothing inside to guard
  }
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    // Absent or unreadable: no linked git dir is granted (the command then cannot commit, and says so).
    if (['ENOENT', 'EACCES', 'EISDIR', 'ENOTDIR'].includes((e as NodeJS.ErrnoException).code ?? '')) return undefined;
    throw e;
  }
}

function realOrUndefined(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}
