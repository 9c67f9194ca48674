// Files that run later outside the sandbox, inside the folders commands may write (docs/trust-boundary.md "Code that
// runs later"): the project's own agent and editor config, and — when the home folder is inside the workspace — its
// dotfiles. What exists is read-only inside the sandbox; what does not is watched, and if a command creates it, it is
// renamed aside (never deleted) and the rename reported: a command cannot leave code for the next editor, agent or
// login shell to run.
import { existsSync, lstatSync, readdirSync, renameSync, type Stats } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** A path whose content something runs or trusts later, why, and the writable root it is inside. */
export interface GuardedPath {
  root: string;
  path: string;
  why: string;
}

/** The project files (relative to each workspace folder) that agents and editors run or load as trusted config. */
export const PROJECT_RUNS_LATER: ReadonlyArray<{ name: string; why: string }> = [
  { name: '.vscode/tasks.json', why: 'VS Code runs its tasks, some on opening the folder (runOn: folderOpen)' },
  { name: '.vscode/settings.json', why: 'VS Code takes program paths and terminal settings from it' },
  { name: '.vscode/launch.json', why: 'VS Code runs its launch configurations' },
  { name: '.jarvis-code/mcp.json', why: "Jarvis starts this project's MCP servers from it" },
  { name: '.jarvis-code/skills', why: 'Jarvis loads these skills' },
  { name: '.jarvis-code/agents', why: 'Jarvis loads these agents' },
  { name: '.jarvis-code/workflows', why: 'Jarvis runs these workflows' },
  { name: '.jarvis-code/AGENTS.md', why: "Jarvis reads it as the project's instructions" },
  { name: '.mcp.json', why: "Jarvis and Claude Code start this project's MCP servers from it" },
  { name: '.claude/settings.json', why: 'Claude Code runs the hooks it lists' },
  { name: '.claude/settings.local.json', why: 'Claude Code runs the hooks it lists' },
  { name: '.claude/hooks', why: "Claude Code's hook scripts" },
  { name: '.claude/skills', why: 'Jarvis and Claude Code load these skills' },
  { name: '.claude/agents', why: 'Jarvis and Claude Code load these agents' },
  { name: '.claude/commands', why: 'Claude Code loads these commands' },
  { name: '.agents/skills', why: 'Jarvis loads these skills' },
  { name: '.agents/agents', why: 'Jarvis loads these agents' },
  { name: '.opencode/agent', why: 'Jarvis and opencode load these agents' },
  { name: '.opencode/agents', why: 'Jarvis and opencode load these agents' },
];

export function projectRunsLater(workspace: readonly string[]): GuardedPath[] {
  return workspace.flatMap((root) =>
    PROJECT_RUNS_LATER.map(({ name, why }) => ({ root, path: join(root, name), why })),
  );
}

/**
 * The guarded paths as a command starts. One absent then is renamed aside when it appears. One present then is
 * read-only inside the sandbox, but a command can rename a folder above it and make a new one in its place (the
 * read-only file moves with the old folder): a guarded path whose folders are no longer the same ones is renamed
 * aside too. Its own file replaced from outside the sandbox (an editor's save) keeps its folders and stays.
 */
export interface WatchSnapshot {
  absent: GuardedPath[];
  present: Array<{ guarded: GuardedPath; folders: string }>;
  /** Folders where no new dotted entry may appear (the home folder inside the workspace), with their dotted names. */
  dotFolders: Array<{ folder: string; names: Set<string> }>;
}

export function takeSnapshot(guarded: readonly GuardedPath[], dotFolders: readonly string[]): WatchSnapshot {
  const absent: GuardedPath[] = [];
  const present: WatchSnapshot['present'] = [];
  for (const g of guarded) {
    if (createdPath(g) === undefined) absent.push(g);
    else present.push({ guarded: g, folders: folderIdentities(g) });
  }
  return { absent, present, dotFolders: dotFolders.map((folder) => ({ folder, names: new Set(dottedNames(folder)) })) };
}

/** One thing a command left that would run later, and where it went. */
export interface Quarantined {
  path: string;
  movedTo?: string;
  why: string;
  /** Set when it could not be moved aside: what failed. */
  failed?: string;
}

/** Everything watched that now exists where it should not is renamed aside. */
export function settleSnapshot(snapshot: WatchSnapshot): Quarantined[] {
  const moved: Quarantined[] = [];
  const still: GuardedPath[] = [];
  // What was moved aside is absent again, and stays watched (a background command may make it once more).
  for (const guarded of snapshot.absent) {
    const created = createdPath(guarded);
    if (created) moved.push(quarantine(created, guarded.why));
    still.push(guarded);
  }
  const kept: WatchSnapshot['present'] = [];
  for (const entry of snapshot.present) {
    const now = createdPath(entry.guarded);
    if (now === undefined) still.push(entry.guarded);
    else if (folderIdentities(entry.guarded) === entry.folders) kept.push(entry);
    else {
      moved.push(quarantine(now, `${entry.guarded.why} (a folder above it was replaced)`));
      still.push(entry.guarded);
    }
  }
  snapshot.absent = still;
  snapshot.present = kept;
  for (const watched of snapshot.dotFolders) {
    for (const name of dottedNames(watched.folder)) {
      if (watched.names.has(name) || name.includes('.quarantined-by-jarvis')) continue;
      moved.push(
        quarantine(join(watched.folder, name), 'a dotfile of the home folder (login shells and tools run them)'),
      );
    }
  }
  return moved;
}

/**
 * What to move aside when a watched path now exists: the path itself, or the first link on the way from its root — a
 * link is renamed, never followed, so moving it aside cannot touch anything outside the root.
 */
function createdPath(guarded: GuardedPath): string | undefined {
  let current = guarded.root;
  for (const part of relative(guarded.root, guarded.path).split(sep)) {
    current = join(current, part);
    const st = lstatOrNone(current);
    if (!st) return undefined;
    if (st.isSymbolicLink()) return current;
  }
  return current;
}

/** The identities (device and inode) of the folders between a guarded path's root and the path. */
function folderIdentities(guarded: GuardedPath): string {
  const ids: string[] = [];
  let current = guarded.root;
  const parts = relative(guarded.root, guarded.path).split(sep);
  for (const part of parts.slice(0, -1)) {
    current = join(current, part);
    const st = lstatOrNone(current);
    ids.push(st ? `${st.dev}:${st.ino}` : '-');
  }
  return ids.join('/');
}

/** Renames `path` to `<path>.quarantined-by-jarvis[-N]`; nothing is deleted. */
export function quarantine(path: string, why: string): Quarantined {
  let target = `${path}.quarantined-by-jarvis`;
  for (let n = 2; exists(target); n++) target = `${path}.quarantined-by-jarvis-${n}`;
  try {
    renameSync(path, target);
    return { path, movedTo: target, why };
  } catch (e) {
    return { path, why, failed: (e as Error).message };
  }
}

/** How a command's result says what was moved aside. */
export function describeQuarantined(items: readonly Quarantined[]): string | undefined {
  if (items.length === 0) return undefined;
  const lines = items.map((q) =>
    q.failed
      ? `- ${q.path} (${q.why}) could not be moved aside: ${q.failed}. Check it before anything runs it.`
      : `- ${q.path} was moved to ${q.movedTo}: ${q.why}.`,
  );
  return (
    'The trust boundary undid what the command left that would run later outside the sandbox ' +
    '(docs/trust-boundary.md):\n' +
    lines.join('\n') +
    '\nFiles like these are written with the Write or Edit tool, which asks the user; a command may not create them.'
  );
}

function exists(path: string): boolean {
  return lstatOrNone(path) !== undefined;
}

/** The entry at `path`, or undefined when there is none — also when a folder on the way is a file (ENOTDIR). */
export function lstatOrNone(path: string): Stats | undefined {
  try {
    return lstatSync(path, { throwIfNoEntry: false });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
    throw e;
  }
}

function dottedNames(folder: string): string[] {
  if (!existsSync(folder)) return [];
  try {
    return readdirSync(folder).filter((n) => n.startsWith('.'));
  } catch {
    return [];
  }
}
