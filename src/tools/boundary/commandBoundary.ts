// The trust boundary of one session (docs/trust-boundary.md): the one owner of what a program started on the agent's
// side may do. Every command — Bash in the foreground and the background, the `!` commands of the TUI, plugin
// commands' `` !`cmd` `` lines (which run as Bash) — goes through the same stages:
//   1. approval: `facts()` says where it will run and whether it leaves the session's folders; the approval policy
//      (engine/policy/approvals.ts) judges that with the rules and the mode;
//   2. sandbox: `prepare()` builds the confinement from the session's one policy (boundaryPolicy.ts), never from the
//      call's arguments;
//   3. run: the caller spawns what `prepare()` returned through spawnShell, which hands bwrap the seccomp filter and
//      the allowlist bridge's channel (`started()` for a command that keeps running);
//   4. explained failure: `explain()` names the boundary a failed command hit and how to ask for more;
//   5. escalation: only by an explicit request to leave the sandbox (`dangerously_unsandboxed`), approved like any
//      call — the approval names the sandbox it was given for;
// and after it, `settle()` undoes what the command left that would run later outside the sandbox.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { bwrapArgs, bwrapChannels, probeBwrap, type BwrapPolicy } from '../../platform/sandbox/bwrapSandbox';
import { shellPath, type SandboxSpawn } from '../../platform/processes';
import { mkdirPrivateSync } from '../../store/privateFiles';
import { serviceKey, type BoundaryFacts } from '../defineTool';
import {
  bwrapPolicyOf,
  computePolicy,
  insideAny,
  real,
  workRootsOf,
  type BoundaryPolicy,
  type SessionFolders,
} from './boundaryPolicy';
import { gitDirsAbove } from './gitGuards';
import { gitEntryIdentity, GitTracker } from './gitTracker';
import { homeCredentialFiles, HIDDEN_FILE_TEXT } from './hiddenFiles';
import { describeQuarantined, settleSnapshot, takeSnapshot, type Quarantined, type WatchSnapshot } from './runsLater';
import { explainSandboxFailure, type BoundaryContext, type SandboxAudience } from './sandboxFailure';
import { SandboxNetworkProxy } from './sandboxNetwork';
import type { SandboxSettings } from './sandboxSettings';
import { WorkspaceIndex } from './workspaceIndex';

export interface CommandRequest {
  command: string;
  /** Where it runs; a folder outside the writable roots stays outside them (it is asked about, never made writable). */
  cwd: string;
  /** An explicit request to run outside the sandbox (Bash `dangerously_unsandboxed`, `[sandbox] shell_mode`). */
  unsandboxed?: boolean;
}

/** A command that keeps running after `prepare()`: the boundary may stop it, saying why. */
export interface RunningCommand {
  stop(reason: string): void;
}

interface RunCommon {
  /** Lines for the result from setting up (folders that could not be searched, and are hidden). */
  notes: string[];
  /** For a command that runs in the background: while it runs, the boundary guards it (`stop` when it must). */
  started(running: RunningCommand): void;
  /** After the command ended: what the boundary undid, as lines for the result. */
  settle(): string[];
}

export type CommandRun =
  | (RunCommon & {
      kind: 'sandboxed';
      /** Spawned through spawnShell (platform/processes.ts): its arguments expect the channels it carries. */
      spawn: SandboxSpawn;
      explain(output: string, exitCode: number | null, audience?: SandboxAudience): string | undefined;
    })
  | (RunCommon & { kind: 'unsandboxed'; why: 'disabled' | 'unavailable' | 'asked' })
  | { kind: 'refused'; message: string };

export type SandboxStatus = { state: 'active' } | { state: 'disabled' } | { state: 'unavailable'; reason: string };

/**
 * How often the boundary looks at the workspace while a sandboxed command runs in the background: every half second,
 * or less often on a workspace so large that a look costs more than a tenth of the wait.
 */
const GUARD_INTERVAL_MS = 500;
const GUARD_COST_SHARE = 10;

interface LiveRun {
  snapshot: WatchSnapshot;
  gitAtStart: Set<string>;
  undone: Quarantined[];
  running?: RunningCommand;
}

/** What the boundaries of one session share: the network proxy, the hidden-file note. */
class SharedParts {
  proxy?: SandboxNetworkProxy;
  maskFile?: string;
  readonly children = new Map<string, CommandBoundary>();
}

export class CommandBoundary {
  private readonly index: WorkspaceIndex;
  private readonly git: GitTracker;
  private readonly live = new Set<LiveRun>();
  private timer?: NodeJS.Timeout;
  private indexed?: Promise<void>;
  /** Unsearched folders already named in a result. */
  private readonly told = new Set<string>();

  constructor(
    readonly settings: Readonly<SandboxSettings>,
    readonly folders: SessionFolders,
    private readonly shared = new SharedParts(),
    indexOptions: { maxEntries?: number } = {},
  ) {
    const home = real(folders.home);
    const workspace = [...new Set(folders.workspace.map(real))];
    this.index = new WorkspaceIndex(workspace, {
      ...indexOptions,
      outsideSecrets: homeCredentialFiles(home, real(folders.jarvisHome)),
    });
    this.git = new GitTracker(home);
  }

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

  /** The boundary of an agent working in another folder of this session (a tower worker's worktree). */
  forWorkspace(cwd: string): CommandBoundary {
    const key = real(cwd);
    if (this.folders.workspace.map(real).includes(key)) return this;
    let child = this.shared.children.get(key);
    if (!child) {
      child = new CommandBoundary(this.settings, { ...this.folders, workspace: [key] }, this.shared);
      this.shared.children.set(key, child);
    }
    return child;
  }

  /** Stage 1: what the approval policy judges about running `request`. */
  facts(request: Pick<CommandRequest, 'cwd' | 'unsandboxed'>): BoundaryFacts {
    const active = this.active();
    const cwd = real(request.cwd);
    const outside = insideAny(cwd, workRootsOf(this.settings, this.folders)) ? {} : { outsideRoots: cwd };
    return {
      confinement: active && !request.unsandboxed ? 'sandboxed' : 'unsandboxed',
      escalation: active && !!request.unsandboxed,
      ...outside,
    };
  }

  /** Starts the first walk of the workspace (at session start, so the first command does not wait for all of it). */
  warmUp(): Promise<void> {
    this.indexed ??= this.index.ready().then(() => this.git.accept(this.index.gitEntries()));
    return this.indexed;
  }

  /** Stages 2–5: how `request` runs, and what happens around it. */
  async prepare(request: CommandRequest): Promise<CommandRun> {
    const status = this.status();
    if (status.state === 'disabled') return unconfined('disabled');
    if (status.state === 'unavailable') {
      if (!this.settings.required) return unconfined('unavailable');
      return {
        kind: 'refused',
        message:
          `Cannot run the command: [sandbox] required = true, and the sandbox cannot run here: ${status.reason}. ` +
          'Fix that, or set [sandbox] required = false in config.toml to run commands unconfined.',
      };
    }
    if (request.unsandboxed) return unconfined('asked');
    try {
      return await this.sandboxed(request.command);
    } catch (e) {
      // Never run unconfined because the boundary could not be built: say what failed.
      const why = e instanceof Error ? e.message : String(e);
      return { kind: 'refused', message: `Cannot run the command: the command sandbox could not be set up: ${why}` };
    }
  }

  /**
   * The confinement of a program that must change nothing (a language server: docs/lsp.md "Where servers run"): the
   * session's hidden paths (secrets, home dotfiles, JARVIS_CODE_HOME), the workspace and `visible` readable but not
   * writable, `readable` readable even where hidden, nothing writable, no network and no Unix sockets. Spawned with
   * bwrapChannels(policy), as a command is.
   */
  async readOnlyPolicy(visible: readonly string[], readable: readonly string[]): Promise<BwrapPolicy> {
    await this.warmUp();
    this.refresh();
    const { policy } = this.currentPolicy();
    // Mounted as writable ones would be, so the secrets inside are hidden after the mount, then made read-only.
    const shown = [...new Set([...this.folders.workspace, ...visible].map(real))];
    return {
      hidden: policy.hidden,
      writable: shown,
      readOnly: [...policy.readOnly, ...shown, ...readable],
      network: 'off',
      maskFile: this.maskFile(),
      ...(policy.env ? { env: policy.env } : {}),
    };
  }

  /** The session's one policy as the workspace is now (call after warmUp() and refresh()). */
  private currentPolicy(): { policy: BoundaryPolicy; unsearched: string[] } {
    const workspace = [...new Set(this.folders.workspace.map(real))];
    // A repository above a workspace folder (or the common dir of a linked worktree) is writable for commits; one
    // inside the workspace already is.
    const repositoryGitDirs = [...new Set(workspace.flatMap(gitDirsAbove))].filter((g) => !insideAny(g, workspace));
    const writable = [...new Set([...workspace, ...repositoryGitDirs, real(this.folders.scratch)])];
    const unsearched = [...this.index.hiddenByRule().keys()];
    const policy = computePolicy({
      settings: this.settings,
      folders: this.folders,
      repositoryGitDirs,
      gitGuarded: this.git.guarded([...writable, ...this.settings.writablePaths.map(real)], workspace),
      secrets: this.index.secrets(),
      unsearched,
    });
    return { policy, unsearched };
  }

  private async sandboxed(command: string): Promise<CommandRun> {
    await this.warmUp();
    this.refresh();
    const { policy, unsearched } = this.currentPolicy();
    const network = this.network();
    if ('message' in network) return { kind: 'refused', message: network.message };
    const bwrap = bwrapPolicyOf(policy, this.maskFile());
    const withProxy = network.proxySocket
      ? { ...bwrap, proxySocket: network.proxySocket, hidden: [...bwrap.hidden, dirname(network.proxySocket)] }
      : bwrap;
    // The arguments and what the spawn hands bwrap (the seccomp filter, the bridge's channel) from one policy.
    const spawn = {
      file: this.settings.bwrapPath,
      args: bwrapArgs(withProxy, shellPath(this.folders.env), command),
      envPass: this.settings.envPass,
      ...bwrapChannels(withProxy),
    };
    const boundary: BoundaryContext = {
      writable: policy.writable,
      networkOff: policy.network === 'off',
      unixSocketsRefused: policy.unixSockets.rule === 'refuse',
      ...(network.refusedHosts ? { refusedHosts: network.refusedHosts } : {}),
    };
    const run: LiveRun = {
      snapshot: takeSnapshot(policy.guarded, policy.dotFolders),
      gitAtStart: new Set(this.index.gitEntries().map(gitEntryIdentity)),
      undone: [],
    };
    this.live.add(run);
    // Said once per folder, with the first command that meets it.
    const untold = unsearched.filter((f) => !this.told.has(f));
    for (const folder of untold) this.told.add(folder);
    const notes = untold.length
      ? [
          `The sandbox could not search ${untold.length} folder(s) of the workspace for secret files, so they are ` +
            `hidden from commands: ${untold.slice(0, 5).join(', ')}${untold.length > 5 ? ', …' : ''}.`,
        ]
      : [];
    return {
      kind: 'sandboxed',
      spawn,
      notes,
      explain: (output, exitCode, audience) => explainSandboxFailure(output, exitCode, boundary, audience),
      started: (running) => {
        run.running = running;
        this.armGuard();
      },
      settle: () => this.settle(run),
    };
  }

  /** Re-reads what changed; git entries that appeared while no sandboxed command ran are the user's own. */
  /**
   * Brings the index up to date. A secret file new since the last look stops every command still running in the
   * background, whichever look found it: the guard's, or another command's start or end (which would otherwise take
   * the news away from the guard, and the running command keep a sandbox that does not hide the file).
   */
  private refresh(): { secrets: string[] } {
    const changes = this.index.refresh();
    if (this.live.size === 0) this.git.accept(changes.gitEntries);
    if (changes.secrets.length > 0)
      for (const run of this.live)
        run.running?.stop(
          `Stopped by the trust boundary: a secret file appeared in the workspace while the command ran ` +
            `(${changes.secrets.slice(0, 3).join(', ')}), and its sandbox was built before it existed, so it could ` +
            'have read it. Run the command again: a new sandbox hides it (docs/trust-boundary.md).',
        );
    return changes;
  }

  private settle(run: LiveRun): string[] {
    // Still live while the refresh runs: what appeared during the command is checked, never accepted unseen.
    this.refresh();
    this.undo(run);
    this.live.delete(run);
    const said = describeQuarantined(run.undone);
    return said ? [said] : [];
  }

  private undo(run: LiveRun): void {
    run.undone.push(...this.git.check(this.index.gitEntries(), run.gitAtStart));
    run.undone.push(...settleSnapshot(run.snapshot));
  }

  /**
   * While a command runs in the background: what it leaves that would run later is undone at once, and a secret file
   * that appears (the user's new `.env`) stops it — its sandbox was built without that file hidden.
   */
  private armGuard(delayMs = GUARD_INTERVAL_MS): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.guardTick();
    }, delayMs);
    this.timer.unref();
  }

  private guardTick(): void {
    const watched = [...this.live].filter((r) => r.running);
    if (watched.length === 0) return;
    const started = Date.now();
    this.refresh();
    this.armGuard(Math.max(GUARD_INTERVAL_MS, (Date.now() - started) * GUARD_COST_SHARE));
    for (const run of watched) this.undo(run);
  }

  /** In allowlist mode, the proxy's socket (started with the first command) and what it refused. */
  private network(): { proxySocket?: string; refusedHosts?: BoundaryContext['refusedHosts'] } | { message: string } {
    if (this.settings.network !== 'allowlist') return {};
    try {
      this.shared.proxy ??= new SandboxNetworkProxy(this.settings.allowedDomains, this.folders.jarvisHome);
      const proxy = this.shared.proxy;
      const proxySocket = proxy.socket();
      const since = Date.now();
      return { proxySocket, refusedHosts: () => proxy.refusedSince(since) };
    } catch (e) {
      return { message: `Cannot run the command: ${(e as Error).message}. The sandbox allows no network without it.` };
    }
  }

  /** The text a hidden file reads as inside the sandbox, written once beside Jarvis's data (itself hidden). */
  private maskFile(): string {
    if (this.shared.maskFile) return this.shared.maskFile;
    const dir = join(this.folders.jarvisHome, 'sandbox');
    mkdirPrivateSync(dir);
    const path = join(dir, 'hidden-file.txt');
    // Read-only once written: rewritten (after removal) only when an older text is found.
    if (!existsSync(path) || readFileSync(path, 'utf8') !== HIDDEN_FILE_TEXT) {
      rmSync(path, { force: true });
      writeFileSync(path, HIDDEN_FILE_TEXT, { mode: 0o444 });
    }
    this.shared.maskFile = path;
    return path;
  }

  /** Stops the guard and the network proxy, if one was started (with the session). */
  async close(): Promise<void> {
    this.stopGuard();
    for (const child of this.shared.children.values()) if (child !== this) child.stopGuard();
    await this.shared.proxy?.close();
    this.shared.proxy = undefined;
  }

  private stopGuard(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}

function unconfined(why: 'disabled' | 'unavailable' | 'asked'): CommandRun {
  return { kind: 'unsandboxed', why, notes: [], started: () => {}, settle: () => [] };
}

export const BOUNDARY_SERVICE = serviceKey<CommandBoundary>()('commandBoundary');
