// What an official plugin needs from this machine, said after it is installed (the `jarvis plugin install` output
// and the /plugins panel's notice) and by `jarvis doctor` (docs/plugins-official.md). Only computer use has such
// needs today: an X11 display it can connect to (docs/computer-use.md, "Set-up per desktop").
import { probeDesktop } from '../../platform/x11/desktopProbe';
import { readInstalled } from './installedStore';

export const COMPUTER_USE_PLUGIN = 'jarvis-computer-use';

/** Lines about what `id` needs here, checked now; empty for plugins that need nothing. */
export async function installNotice(id: string, env: NodeJS.ProcessEnv): Promise<string[]> {
  if (id !== COMPUTER_USE_PLUGIN) return [];
  const readiness = await probeDesktop(env);
  const head = readiness.ok
    ? 'Computer use is ready on this desktop:'
    : 'Computer use cannot work in this session yet (it will in one that has what is missing):';
  return [
    head,
    ...readiness.lines.map((l) => `  ${l}`),
    'Jarvis asks you to authorize it in each session before its first use.',
  ];
}

/** `jarvis doctor`'s computer-use lines, when the plugin is installed. */
export async function computerUseDoctorLines(
  home: string,
  env: NodeJS.ProcessEnv,
): Promise<{ ok: boolean; lines: string[] } | undefined> {
  const record = readInstalled(home).records.find((r) => r.id === COMPUTER_USE_PLUGIN);
  if (!record) return undefined;
  const readiness = await probeDesktop(env);
  return {
    ok: readiness.ok || !record.enabled,
    lines: [...(record.enabled ? [] : ['The plugin is disabled.']), ...readiness.lines],
  };
}
