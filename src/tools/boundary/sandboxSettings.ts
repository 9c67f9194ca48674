// `[sandbox]` of config.toml as the trust boundary reads it (docs/sandbox.md "Settings"). The home entries commands
// may read are here too: everything else dotted in the home folder is hidden from them.
import type { SandboxNetwork } from '../../platform/sandbox/bwrapSandbox';

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
  /** `[sandbox] unix_sockets`: `refuse` (commands cannot create Unix sockets) or `own` (they may make their own). */
  unixSockets: 'refuse' | 'own';
  /** `[sandbox] allow_unix_sockets`, resolved to absolute paths: sockets outside commands may connect to. */
  allowUnixSockets: string[];
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
  unixSockets: 'refuse' as const,
  allowUnixSockets: [],
});
