// The one policy of a session's commands (docs/trust-boundary.md "The policy"): computed from the session's folders
// and `[sandbox]`, never from a tool's arguments — a command's working folder widens nothing. Writable roots (the
// workspace, the scratch folder, writable_paths, the git dirs a commit writes), the read-only paths inside them (what
// git, editors and agents run later), the hidden paths (home dotfiles, JARVIS_CODE_HOME, secrets, folders that could
// not be searched), the network and the Unix sockets.
import { readdirSync, realpathSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { BwrapPolicy, SandboxNetwork } from '../../platform/sandbox/bwrapSandbox';
import { socketEnvToKeep, type UnixSocketPolicy } from '../../platform/sandbox/unixSockets';
import { isSensitiveEntry } from '../file/sensitivePaths';
import { lstatOrNone, projectRunsLater, type GuardedPath } from './runsLater';
import type { SandboxSettings } from './sandboxSettings';

/** The folders a session's commands are judged against; the scratch folder is where they may write beside it. */
export interface SessionFolders {
  /** The workspace: the working folder and the --add-dir folders. */
  workspace: readonly string[];
  /**
   * The session's writable scratch folder (`<session>/scratch`: plan file, saved outputs that commands read back); the
   * session folder around it stays out of every command's reach.
   */
  scratch: string;
  /** JARVIS_CODE_HOME: hidden from commands. */
  jarvisHome: string;
  home: string;
  /**
   * The environment the session's commands start from (tools/sessionEnv.ts; default process.env): which socket
   * variables it holds, its XDG_RUNTIME_DIR, and JARVIS_SHELL_PATH.
   */
  env?: Readonly<NodeJS.ProcessEnv>;
}

export interface BoundaryPolicy {
  /** Folders commands may write. */
  writable: string[];
  /** Paths read-only inside the writable folders (what runs later), and readable home entries. */
  readOnly: string[];
  /** Paths hidden from commands: folders read as empty, files as the hidden-file note. */
  hidden: string[];
  /** Every guarded path inside the writable folders: read-only when present, moved aside when made (runsLater.ts). */
  guarded: GuardedPath[];
  /** Folders where a command may create no dotted entry (the home folder, when the workspace holds it). */
  dotFolders: string[];
  network: SandboxNetwork;
  /** Unix sockets: whether commands may create their own, and the sockets outside they may reach. */
  unixSockets: UnixSocketPolicy;
  env?: Record<string, string>;
}

/** The folders in which a command may run without asking: the workspace, the scratch folder and writable_paths. */
export function workRootsOf(settings: Readonly<SandboxSettings>, folders: SessionFolders): string[] {
  return unique([...folders.workspace, folders.scratch, ...settings.writablePaths].map(real));
}

export interface PolicyParts {
  settings: Readonly<SandboxSettings>;
  folders: SessionFolders;
  /** Git dirs above the workspace folders (a commit from a subfolder or a linked worktree writes there). */
  repositoryGitDirs: readonly string[];
  /** What git runs later from every git dir known inside the writable folders. */
  gitGuarded: readonly GuardedPath[];
  /** Secret files and unsearchable folders inside the workspace (workspaceIndex.ts). */
  secrets: readonly string[];
  unsearched: readonly string[];
}

export function computePolicy(parts: PolicyParts): BoundaryPolicy {
  const { settings, folders } = parts;
  const home = real(folders.home);
  const workspace = unique(folders.workspace.map(real));
  const writable = unique([
    ...workspace,
    ...parts.repositoryGitDirs,
    real(folders.scratch),
    ...settings.writablePaths.map(real),
  ]);
  refuseStateExposure(writable, real(folders.jarvisHome), real(folders.scratch));
  const readable = settings.readableHomePaths.map((p) => join(home, p));
  const guarded = [...parts.gitGuarded, ...projectRunsLater(workspace)].filter((g) => insideAny(g.path, writable));
  const present = guarded.filter((g) => lstatOrNone(g.path) !== undefined);
  const homeInside = insideAny(home, writable);
  // Under the private /tmp the folders between a workspace and its repository's .git are the sandbox's own, so git
  // would stop its search for the repository at that mount; it is told to go on.
  const crossesMount = parts.repositoryGitDirs.some((g) => g === '/tmp' || g.startsWith('/tmp/'));
  return {
    writable,
    readOnly: unique([...readable, ...present.map((g) => g.path)]),
    hidden: unique([
      ...hiddenHomeEntries(home, readable),
      ...secretsInReadable(readable),
      real(folders.jarvisHome),
      ...parts.secrets,
      ...parts.unsearched,
    ]),
    guarded,
    dotFolders: homeInside ? [home] : [],
    network: settings.network,
    unixSockets: unixSocketPolicy(settings, folders.env),
    ...(crossesMount ? { env: { GIT_DISCOVERY_ACROSS_FILESYSTEM: '1' } } : {}),
  };
}

/**
 * What bwrapSandbox.ts mounts for `policy`, and what the spawn hands it (bwrapChannels: the seccomp filter, the
 * network bridge's channel); the network proxy's socket is added by the caller.
 */
export function bwrapPolicyOf(policy: BoundaryPolicy, maskFile: string): BwrapPolicy {
  return {
    writable: policy.writable,
    hidden: policy.hidden,
    readOnly: policy.readOnly,
    network: policy.network,
    unixSockets: policy.unixSockets,
    maskFile,
    ...(policy.env ? { env: policy.env } : {}),
  };
}

/**
 * JARVIS_CODE_HOME is hidden as a whole, and a writable root around it leaves it hidden (bwrapSandbox.ts masks it
 * after that root, then binds the scratch folder again); but a writable root inside it would be bound over the mask
 * and expose what Jarvis trusts later. So a root inside JARVIS_CODE_HOME that is, or holds, the session folder (other
 * than the scratch folder) or the record key is refused, saying which (docs/sessions.md, "The scratch folder").
 */
function refuseStateExposure(writable: readonly string[], jarvisHome: string, scratch: string): void {
  const session = dirname(scratch);
  const state = [session, join(jarvisHome, 'keys')];
  for (const root of writable) {
    if (root === jarvisHome || !insideAny(root, [jarvisHome]) || insideAny(root, [scratch])) continue;
    const exposes = state.some((s) => insideAny(s, [root]) || insideAny(root, [s]));
    if (exposes)
      throw new Error(
        `${root} would be writable inside JARVIS_CODE_HOME (${jarvisHome}), exposing the session's journal, task ` +
          'records or the record key to commands; remove it from [sandbox] writable_paths (or run Jarvis from ' +
          'another folder)',
      );
  }
}

/**
 * Unix sockets (docs/sandbox.md#unix-sockets-and-seccomp): refused unless the user let commands make their own or
 * named sockets outside to reach, whose variables (SSH_AUTH_SOCK) then stay set.
 */
function unixSocketPolicy(
  settings: Readonly<SandboxSettings>,
  env: Readonly<NodeJS.ProcessEnv> = process.env,
): UnixSocketPolicy {
  const allowed = settings.allowUnixSockets;
  const rule = settings.unixSockets === 'own' || allowed.length > 0 ? 'allow' : 'refuse';
  return { rule, allowed, keepEnv: socketEnvToKeep(allowed, env), ...(env !== process.env ? { sessionEnv: env } : {}) };
}

/** Dotted entries of the home folder, except the readable ones (re-bound read-only). */
function hiddenHomeEntries(home: string, readable: readonly string[]): string[] {
  return listNames(home)
    .filter((n) => n.startsWith('.'))
    .map((n) => join(home, n))
    .filter((p) => !readable.includes(p));
}

/** Secret files at the top of each readable home folder (`.config/git/credentials`, where git's store keeps them). */
function secretsInReadable(readable: readonly string[]): string[] {
  const found: string[] = [];
  for (const dir of readable) {
    const parent = dir.slice(dir.lastIndexOf('/') + 1);
    for (const name of listNames(dir)) if (isSensitiveEntry(parent, name)) found.push(join(dir, name));
  }
  return found;
}

function listNames(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return []; // absent or not a folder: nothing inside to hide
  }
}

export function insideAny(path: string, folders: readonly string[]): boolean {
  return folders.some((f) => path === f || path.startsWith(f.endsWith('/') ? f : `${f}/`));
}

export function real(path: string): string {
  try {
    return realpathSync(resolve(path));
  } catch {
    return resolve(path);
  }
}

function unique(paths: string[]): string[] {
  return [...new Set(paths)];
}
