// The one seam every shell command of the agent passes through (Bash in the foreground and the background, and
// what runs through the Bash path): it decides whether a command runs inside the bubblewrap sandbox, builds the
// sandbox for the folder it runs in, or refuses when the sandbox is required and missing (docs/sandbox.md).
import { existsSync, lstatSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { serviceKey } from '../defineTool';
import { bwrapArgs, probeBwrap, type BwrapPolicy, type SandboxNetwork } from '../../platform/sandbox/bwrapSandbox';
import type { SandboxSpawn } from '../../platform/processes';
import { isSensitiveEntry, VCS_DIRS } from '../file/sensitivePaths';
import { mkdirPrivateSync } from '../../store/privateFiles';
import type { BoundaryContext } from './sandboxFailure';
import { gitDirsOf } from './gitDirs';
import { SandboxNetworkProxy } from './sandboxNetwork';

export interface SandboxSettings {
  /** `[sandbox] enabled`: false runs every command as before. */
  enabled: boolean;
  /** `[sandbox] required`: refuse commands instead of running them unconfined where bwrap cannot run. */
  required: boolean;
  network: SandboxNetwork;
  /** `[sandbox] allowed_domains`: with network `allowlist`, the hosts the proxy lets commands reach. */
  allowedDomains: readonly string[];
  /** `[sandbox] auto_allow`: manual mode runs a sandboxed command without asking (deny rules still apply). */
  autoAllow: boolean;
  /** `[sandbox] writable_paths`: absolute folders writable besides the workspace and the session's scratch folder. */
  writablePaths: string[];
  /** `[sandbox] readable_home_paths`: entries of the home folder (relative to it) that stay readable. */
  readableHomePaths: string[];
  /** `[sandbox] bwrap_path`. */
  bwrapPath: string;
  /** `[sandbox] env_pass`: secret-looking environment variables let into the sandbox (docs/sandbox.md). */
  envPass: string[];
  /** `[sandbox] shell_mode`: whether the TUI's `!` commands run sandboxed (the user's own choice, not the model's). */
  shellMode: 'sandboxed' | 'unsandboxed';
}

/** Home entries a build needs (git identity, version managers' toolchains); everything else dotted is hidden. */
export const DEFAULT_READABLE_HOME_PATHS: readonly string[] = [
  '.gitconfig',
  '.config/git',
  '.nvm',
  '.volta',
  '.bun',
  '.deno',
  '.cargo/bin',
  '.rustup',
  '.pyenv',
  '.local/bin',
  '.sdkman',
];

export const DEFAULT_SANDBOX_SETTINGS: Readonly<SandboxSettings> = Object.freeze({
  enabled: true,
  required: false,
  network: 'off' as const,
  allowedDomains: [],
  autoAllow: false,
  writablePaths: [],
  readableHomePaths: [...DEFAULT_READABLE_HOME_PATHS],
  bwrapPath: 'bwrap',
  envPass: [],
  shellMode: 'sandboxed' as const,
});

/** Sensitive files searched for in a writable folder before each command; past this, the rest is not searched. */
export const MASK_SCAN_MAX_ENTRIES = 20_000;
const MASK_SCAN_SKIP = new Set([...VCS_DIRS, 'node_modules']);

export interface SandboxEnvironment {
  /** The workspace folders besides the command's own cwd (`--add-dir`). */
  additionalDirs: readonly string[];
  /** JARVIS_CODE_HOME: hidden, except the session's scratch folder. */
  jarvisHome: string;
  home?: string;
}

export type SandboxPlan =
  | { kind: 'sandboxed'; spawn: SandboxSpawn; boundary: BoundaryContext; note?: string }
  | { kind: 'unsandboxed'; why: 'disabled' | 'unavailable' | 'asked' }
  | { kind: 'refused'; message: string };

export type SandboxStatus = { state: 'active' } | { state: 'disabled' } | { state: 'unavailable'; reason: string };

export class CommandSandbox {
  constructor(
    readonly settings: Readonly<SandboxSettings>,
    private readonly env: SandboxEnvironment,
  ) {}

  status(): SandboxStatus {
    if (!this.settings.enabled) return { state: 'disabled' };
    const probe = probeBwrap(this.settings.bwrapPath);
    return probe.ok ? { state: 'active' } : { state: 'unavailable', reason: probe.reason };
  }

  /** Whether a command that did not ask to leave the sandbox would run inside it. */
  active(): boolean {
    return this.status().state === 'active';
  }

  /** `[sandbox] auto_allow` with the sandbox running: a sandboxed command needs no question in manual mode. */
  autoAllows(): boolean {
    return this.settings.autoAllow && this.active();
  }

  /** How `command` runs from `cwd`; `unsandboxed` is the model's explicit request to run outside. */
  plan(command: string, cwd: string, scratchDir: string, unsandboxed = false): SandboxPlan {
    const status = this.status();
    if (status.state === 'disabled') return { kind: 'unsandboxed', why: 'disabled' };
    if (status.state === 'unavailable') {
      if (!this.settings.required) return { kind: 'unsandboxed', why: 'unavailable' };
      return {
        kind: 'refused',
        message:
          `Cannot run the command: [sandbox] required = true, and the sandbox cannot run here: ${status.reason}. ` +
          'Fix that, or set [sandbox] required = false in config.toml to run commands unconfined.',
      };
    }
    if (unsandboxed) return { kind: 'unsandboxed', why: 'asked' };
    const { policy, note } = this.policyFor(cwd, scratchDir);
    const shell = process.env.JARVIS_SHELL_PATH?.trim() || 'bash';
    const network = this.network();
    if ('message' in network) return { kind: 'refused', message: network.message };
    const netPolicy = network.policy
      ? { proxySocket: network.policy.proxySocket, hidden: [...policy.hidden, dirname(network.policy.proxySocket)] }
      : {};
    const args = bwrapArgs({ ...policy, ...netPolicy }, shell, command);
    const spawn = { file: this.settings.bwrapPath, args, envPass: this.settings.envPass };
    const boundary = { writable: policy.writable, networkOff: policy.network === 'off', ...network.boundary };
    return { kind: 'sandboxed', spawn, boundary, ...(note ? { note } : {}) };
  }

  private proxy?: SandboxNetworkProxy;

  /**
   * In allowlist mode, the proxy's socket for the command (the proxy starts with the first one). Its folder is hidden
   * from the command even where a writable folder covers it, so the socket cannot be swapped for another.
   */
  private network(): { policy?: { proxySocket: string }; boundary?: Partial<BoundaryContext> } | { message: string } {
    if (this.settings.network !== 'allowlist') return {};
    try {
      this.proxy ??= new SandboxNetworkProxy(this.settings.allowedDomains, this.env.jarvisHome);
      const proxySocket = this.proxy.socket();
      const proxy = this.proxy;
      const since = Date.now();
      return { policy: { proxySocket }, boundary: { refusedHosts: () => proxy.refusedSince(since) } };
    } catch (e) {
      return { message: `Cannot run the command: ${(e as Error).message}. The sandbox allows no network without it.` };
    }
  }

  /** Stops the network proxy, if one was started (with the session). */
  async close(): Promise<void> {
    await this.proxy?.close();
  }

  /**
   * The filesystem and network boundary for a command run from `cwd`. Of the session only its scratch folder is
   * writable; the journal, task records, file history and locks beside it stay hidden (docs/sessions.md).
   */
  policyFor(cwd: string, scratchDir: string): { policy: BwrapPolicy; note?: string } {
    const home = real(this.env.home ?? homedir());
    const workspace = unique([cwd, ...this.env.additionalDirs].map(real));
    // A commit from a subfolder or a linked worktree writes to the repository's git folders; their hooks and config
    // stay read-only like the workspace's own.
    const gitDirs = unique(workspace.flatMap(gitDirsOf));
    const writable = unique([...workspace, ...gitDirs, real(scratchDir), ...this.settings.writablePaths.map(real)]);
    const readable = this.settings.readableHomePaths.map((p) => join(home, p));
    const hidden = [...hiddenHomeEntries(home, readable), real(this.env.jarvisHome)];
    const gitGuarded = unique([...workspace.map((w) => join(w, '.git')), ...gitDirs]);
    const readOnly = [...readable, ...gitGuarded.flatMap((g) => [join(g, 'hooks'), join(g, 'config')])];
    const scan = sensitiveFilesIn(workspace);
    const note = scan.complete
      ? undefined
      : `The sandbox searched the first ${MASK_SCAN_MAX_ENTRIES} entries of the workspace for secret files to hide; ` +
        'files past them were not searched.';
    // Under the private /tmp the folders between a workspace and its repository's .git are the sandbox's own, so git
    // would stop its search for the repository at that mount; it is told to go on.
    const crossesMount = gitDirs.some((g) => g === '/tmp' || g.startsWith('/tmp/'));
    const env = crossesMount ? { GIT_DISCOVERY_ACROSS_FILESYSTEM: '1' } : undefined;
    const policy = {
      writable,
      hidden: [...hidden, ...scan.found],
      readOnly,
      network: this.settings.network,
      ...(env ? { env } : {}),
    };
    return { policy: { ...policy, maskFile: this.maskFile() }, ...(note ? { note } : {}) };
  }

  private mask?: string;

  /** The text a hidden file reads as inside the sandbox, written once beside Jarvis's data (itself hidden). */
  private maskFile(): string {
    if (this.mask) return this.mask;
    const dir = join(this.env.jarvisHome, 'sandbox');
    mkdirPrivateSync(dir);
    const path = join(dir, 'hidden-file.txt');
    // Read-only once written: rewritten (after removal) only when an older text is found.
    if (!existsSync(path) || readFileSync(path, 'utf8') !== HIDDEN_FILE_TEXT) {
      rmSync(path, { force: true });
      writeFileSync(path, HIDDEN_FILE_TEXT, { mode: 0o444 });
    }
    this.mask = path;
    return path;
  }
}

/** What `cat .env` prints inside the sandbox: the boundary, and how to ask for more (lines fit 80 columns). */
export const HIDDEN_FILE_TEXT =
  '# Hidden by the Jarvis command sandbox: secret files (.env, private\n' +
  '# keys, credentials) and home dotfiles are not readable from commands\n' +
  '# (docs/sandbox.md). Ask the user for the value you need, or for\n' +
  '# [sandbox] readable_home_paths; do not try to read it another way.\n';

export const SANDBOX_SERVICE = serviceKey<CommandSandbox>()('commandSandbox');

function real(path: string): string {
  try {
    return realpathSync(resolve(path));
  } catch {
    return resolve(path);
  }
}

function unique(paths: string[]): string[] {
  return [...new Set(paths)];
}

/** Dotted entries of the home folder, except the readable ones and those holding one (re-bound by readOnly). */
function hiddenHomeEntries(home: string, readable: readonly string[]): string[] {
  let names: string[];
  try {
    names = readdirSync(home);
  } catch {
    return [];
  }
  return names
    .filter((n) => n.startsWith('.'))
    .map((n) => join(home, n))
    .filter((p) => !readable.includes(p));
}

/** Secret files and folders (the list the file tools refuse) inside the workspace folders, breadth first, bounded. */
function sensitiveFilesIn(folders: readonly string[]): { found: string[]; complete: boolean } {
  const found: string[] = [];
  const queue = [...folders];
  let seen = 0;
  for (let i = 0; i < queue.length; i++) {
    let entries;
    try {
      entries = readdirSync(queue[i], { withFileTypes: true });
    } catch {
      continue; // unreadable or gone: nothing inside to hide from a read that would fail the same way
    }
    const parent = queue[i].slice(queue[i].lastIndexOf('/') + 1);
    for (const entry of entries) {
      if (++seen > MASK_SCAN_MAX_ENTRIES) return { found, complete: false };
      const path = join(queue[i], entry.name);
      if (isSensitiveEntry(parent, entry.name)) found.push(path);
      else if (entry.isDirectory() && !MASK_SCAN_SKIP.has(entry.name)) queue.push(path);
      else if (entry.isSymbolicLink() && isSymlinkToSecret(path)) found.push(path);
    }
  }
  return { found, complete: true };
}

/** A link in the workspace whose target is a secret file by name (`notes.txt -> .env`). */
function isSymlinkToSecret(path: string): boolean {
  try {
    const target = realpathSync(path);
    const parts = target.split('/');
    return lstatSync(target).isFile() && isSensitiveEntry(parts[parts.length - 2] ?? '', parts[parts.length - 1]);
  } catch {
    return false;
  }
}
