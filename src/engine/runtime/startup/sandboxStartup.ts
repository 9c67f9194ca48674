// `[sandbox]` of config.toml as the runtime's settings, and the one start-up notice when the sandbox cannot run
// here (docs/sandbox.md): printed to stderr in print mode and shown as a notice in the TUI, like other warnings.
import { resolve } from 'node:path';
import type { JarvisConfig } from '../../../store/configSchema';
import { expandTilde } from '../../../store/paths';
import { probeBwrapInBackground } from '../../../platform/sandbox/bwrapSandbox';
import { socketPathIn } from '../../../platform/sandbox/unixSockets';
import { DEFAULT_READABLE_HOME_PATHS, type SandboxSettings } from '../../../tools/boundary/sandboxSettings';

export function sandboxSettingsFromConfig(config: JarvisConfig, env: NodeJS.ProcessEnv): SandboxSettings {
  const s = config.sandbox;
  return {
    enabled: s.enabled,
    required: s.required,
    network: s.network,
    allowedDomains: s.allowed_domains,
    autoAllow: s.auto_allow,
    writablePaths: s.writable_paths.map((p) => resolve(expandTilde(p, env))),
    readableHomePaths: s.readable_home_paths ?? [...DEFAULT_READABLE_HOME_PATHS],
    bwrapPath: s.bwrap_path,
    envPass: s.env_pass,
    shellMode: s.shell_mode,
    unixSockets: s.unix_sockets,
    allowUnixSockets: s.allow_unix_sockets.flatMap((p) => socketPathEntry(p, env)),
  };
}

/**
 * An `allow_unix_sockets` entry as an absolute path: `~/` expanded, `$NAME` read from the environment Jarvis started
 * with, a D-Bus or Docker address read as its socket's path (none when unset or not a path: an SSH agent that is not
 * running has no socket to allow).
 */
function socketPathEntry(entry: string, env: NodeJS.ProcessEnv): string[] {
  if (!entry.startsWith('$')) return [resolve(expandTilde(entry, env))];
  const path = socketPathIn(env[entry.slice(1)]);
  return path ? [path] : [];
}

/**
 * The notice for a sandbox that is enabled but cannot run; undefined when it runs or is switched off. Start-up calls
 * it early and awaits it last, so the probe runs beside the loading of skills, agents and plugins.
 */
export async function sandboxStartupNotice(settings: SandboxSettings): Promise<string | undefined> {
  if (!settings.enabled) return undefined;
  const probe = await probeBwrapInBackground(settings.bwrapPath);
  if (probe.ok) return emptyAllowlistNotice(settings);
  return settings.required
    ? `the command sandbox cannot run: ${probe.reason}. [sandbox] required = true, so Bash commands are refused.`
    : `the command sandbox cannot run: ${probe.reason}. Commands run unconfined, as without a sandbox ` +
        '(set [sandbox] required = true to refuse them instead, or enabled = false to silence this).';
}

/** `network = "allowlist"` with nothing listed is allowed (every connection refused), but said once. */
export function emptyAllowlistNotice(settings: SandboxSettings): string | undefined {
  if (settings.network !== 'allowlist' || settings.allowedDomains.length > 0) return undefined;
  return (
    '[sandbox] network = "allowlist" with allowed_domains = []: the sandbox network proxy refuses every ' +
    'connection. List the domains commands need in [sandbox] allowed_domains (docs/sandbox.md).'
  );
}
