// Where Jarvis keeps its data (docs/configuration.md). Every other module asks here instead of joining paths itself,
// so the layout lives in one place and `$JARVIS_CODE_HOME` redirects all of it.
import { createHash } from 'node:crypto';
import { homedir } from 'node:os';
import { existsSync } from 'node:fs';
import { basename, dirname, join, resolve, sep } from 'node:path';

const SLUG_MAX = 40;

function userHome(env: NodeJS.ProcessEnv): string {
  const home = env.HOME?.trim();
  return home ? home : homedir();
}

/** Expands a leading `~` or `~/` against the user's home directory. */
export function expandTilde(path: string, env: NodeJS.ProcessEnv = process.env): string {
  if (path === '~') return userHome(env);
  if (path.startsWith('~/') || path.startsWith(`~${sep}`)) return join(userHome(env), path.slice(2));
  return path;
}

/** The data root: `$JARVIS_CODE_HOME` (a blank value counts as unset) or `~/.jarvis-code`. Always absolute. */
export function jarvisHome(env: NodeJS.ProcessEnv = process.env): string {
  const configured = env.JARVIS_CODE_HOME?.trim();
  if (configured) {
    // A relative value is taken from the current directory, like any other path argument.
    return resolve(expandTilde(configured, env));
  }
  return join(userHome(env), '.jarvis-code');
}

/** `~/.agents`: the cross-tool folder (skills, agents, AGENTS.md) under the real user home. */
export function crossToolHome(env: NodeJS.ProcessEnv = process.env): string {
  return join(userHome(env), '.agents');
}

/** The project a folder belongs to: the nearest folder at or above it holding `.git`, else the folder itself. */
export function projectRoot(cwd: string): string {
  for (let dir = cwd; ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.git'))) return dir;
    if (dirname(dir) === dir) return cwd;
  }
}

/** Shortens a path under the user's home to `~/…` for messages. */
export function displayPath(path: string, env: NodeJS.ProcessEnv = process.env): string {
  const home = userHome(env);
  if (path === home) return '~';
  if (path.startsWith(home + sep)) return `~/${path.slice(home.length + 1)}`;
  return path;
}

/** A filesystem-safe slug: lowercase, runs of anything but ASCII letters and digits become `-`. */
function slugOf(segment: string): string {
  const slug = segment
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, SLUG_MAX)
    .replace(/-+$/g, '');
  return slug || 'root';
}

/**
 * The per-working-directory folder name under `sessions/`: `wd_<slug>_<first 12 hex of sha256(path)>`.
 * The slug keeps the folder recognisable; the hash keeps two same-named folders apart.
 */
export function workDirKey(absPath: string): string {
  const normalized = resolve(absPath);
  const hash = createHash('sha256').update(normalized).digest('hex').slice(0, 12);
  return `wd_${slugOf(basename(normalized))}_${hash}`;
}

export function configPath(home: string): string {
  return join(home, 'config.toml');
}

export function tuiConfigPath(home: string): string {
  return join(home, 'tui.toml');
}

export function sessionsRoot(home: string): string {
  return join(home, 'sessions');
}

/** The folder holding every session started in `workDir`. */
export function sessionsDirFor(home: string, workDir: string): string {
  return join(sessionsRoot(home), workDirKey(workDir));
}

export function sessionIndexPath(home: string): string {
  return join(home, 'session_index.jsonl');
}

export function userHistoryDir(home: string): string {
  return join(home, 'user-history');
}

/** Prompt history of one working directory: `user-history/<md5(workDir)>.jsonl`. */
export function userHistoryPath(home: string, workDir: string): string {
  const hash = createHash('md5').update(resolve(workDir)).digest('hex');
  return join(userHistoryDir(home), `${hash}.jsonl`);
}

/**
 * The session's scratch folder, `<session>/scratch`: the one part of a session that sandboxed commands may write and
 * the file tools work in, beside everything else of the session that no command can reach (docs/sessions.md,
 * "The scratch folder"). It holds only what commands and the model need to write or read back — plan files, saved
 * tool outputs, background task output, the UI's `!` command output — so nothing Jarvis trusts is ever read from it;
 * it is made 0700 with the session and removed with it.
 */
export function sessionScratchDir(sessionDir: string): string {
  return join(sessionDir, 'scratch');
}

/** Folders of the scratch tree, relative to it. */
export const SCRATCH = {
  /** `plans/<agentId>/plan-<hex>.md`: plan mode's files. */
  plans: 'plans',
  /** `tool-outputs/<agent>-<ms>-<n>-<pid>.txt`: outputs too long for the model, kept whole. */
  toolOutputs: 'tool-outputs',
  /** `tasks/<taskId>/output.log`: background task output. */
  tasks: 'tasks',
  /** `shell-outputs/…`: full output of the UI's `!` commands. */
  shellOutputs: 'shell-outputs',
} as const;

/** Full output of the UI's `!` shell commands (the context carries only its start and end), per session. */
export function shellOutputsDir(scratchDir: string): string {
  return join(scratchDir, SCRATCH.shellOutputs);
}

/**
 * The key that authenticates the journal records a resume takes permissions from and the process records of
 * background tasks (docs/sessions.md, "What a resume trusts"): under the data root, which no sandboxed command sees.
 */
export function recordKeyPath(home: string): string {
  return join(home, 'keys', 'records.key');
}

export function logsDir(home: string): string {
  return join(home, 'logs');
}
