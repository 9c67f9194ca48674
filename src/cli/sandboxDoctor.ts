// The `jarvis doctor` section of the command sandbox (docs/sandbox.md): whether bubblewrap runs here, and what a
// command may write and reach. A broken config.toml is the config section's to report; this one then says so.
import { ConfigError } from '../store/configFields';
import { loadConfig } from '../store/config';
import type { DoctorSectionProvider } from './doctorSections';
import { sandboxSettingsFromConfig } from '../engine/runtime/startup/sandboxStartup';
import type { SandboxSettings } from '../tools/boundary/sandboxSettings';
import { probeBwrap } from '../platform/sandbox/bwrapSandbox';
import { seccompSupported } from '../platform/sandbox/seccompFilter';

export const sandboxDoctor: DoctorSectionProvider = async (ctx) => {
  let settings;
  try {
    settings = sandboxSettingsFromConfig(loadConfig(ctx.home).config, ctx.env);
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    return { title: 'command sandbox', ok: false, lines: [`not checked: config.toml is invalid (${e.message})`] };
  }
  if (!settings.enabled) {
    return { title: 'command sandbox', ok: true, lines: ['off ([sandbox] enabled = false): commands run unconfined'] };
  }
  const probe = probeBwrap(settings.bwrapPath);
  if (!probe.ok) {
    const then = settings.required
      ? 'Bash commands are refused ([sandbox] required = true)'
      : 'commands run unconfined (set [sandbox] required = true to refuse them instead)';
    return { title: 'command sandbox', ok: !settings.required, lines: [`cannot run: ${probe.reason}`, then] };
  }
  const lines = [
    `bubblewrap: ${probe.path} creates namespaces here`,
    networkLine(settings),
    'capabilities inside: none, root included (a user namespace of its own, no_new_privs); no new user namespaces',
    unixSocketLine(settings),
    `writable besides the workspace and the session: ${settings.writablePaths.join(', ') || 'nothing'}`,
    `home entries left readable: ${settings.readableHomePaths.join(', ') || 'none'}`,
    `manual mode asks for sandboxed commands: ${settings.autoAllow ? 'no (auto_allow = true)' : 'yes'}`,
    `secret-looking environment variables passed in: ${settings.envPass.join(', ') || 'none'} (env_pass)`,
    `! shell mode of the TUI: ${settings.shellMode} (shell_mode)`,
  ];
  return { title: 'command sandbox', ok: true, lines };
};

function unixSocketLine(settings: SandboxSettings): string {
  const allowed = settings.allowUnixSockets.length
    ? `; reachable outside: ${settings.allowUnixSockets.join(', ')} (allow_unix_sockets)`
    : '; none outside reachable';
  if (!seccompSupported()) {
    return (
      `Unix sockets: no seccomp filter is built for ${process.arch}, so commands can make their own; socket files ` +
      `outside are hidden${allowed}`
    );
  }
  if (settings.unixSockets === 'own' || settings.allowUnixSockets.length) {
    return `Unix sockets: commands may make their own (unix_sockets = "own" or allow_unix_sockets)${allowed}`;
  }
  return 'Unix sockets: refused by the seccomp filter (socketpair works); none outside reachable (unix_sockets)';
}

function networkLine(settings: SandboxSettings): string {
  if (settings.network !== 'allowlist') return `network inside: ${settings.network}`;
  const domains = settings.allowedDomains.join(', ') || 'none: every connection is refused';
  return `network inside: allowlist, through the sandbox proxy, to ${domains}`;
}
