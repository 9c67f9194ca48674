// What a launch takes from the command folders of opencode, Gemini CLI and Codex (docs/compatibility.md, "Commands
// of other agents"): read after Claude Code's command files and the skills, so that a skill or a Claude Code command
// of the same name wins and the peer's is listed as shadowed; they join the plugins' commands, which every front end
// lists and expands (the `/` menu, ACP, `jarvis -p "/name …"`).
import { loadPeerCommands, type PeerCommandsLoad } from '../../../ext/commands/peerCommands';
import type { SessionPlugins } from '../../../ext/plugins/contributions';
import type { PluginCommand } from '../../../ext/plugins/pluginCommands';
import type { SkillCatalog } from '../../../ext/skills/skillCatalog';
import { peerCommandFolders } from '../../../store/compat';
import { projectRoot } from '../../../store/paths';
import { readOpencodeConfigs } from '../../../store/opencodeConfig';
import { opencodeJsonCommands } from '../../../ext/commands/opencodeJsonCommands';
import type { Startup } from './startup';

/** What owns a name already: a command file of the session (Claude Code's, a plugin's) or a skill. */
export function commandOwner(
  commands: readonly PluginCommand[],
  skills: Pick<SkillCatalog, 'get'> | undefined,
): (name: string) => string | undefined {
  const byName = new Map(commands.map((c) => [c.name, c.path]));
  return (name) => byName.get(name) ?? (skills?.get(name) ? `the skill ${name}` : undefined);
}

/** Adds the commands `extra` to the session's command list (after those already there). */
export function addSessionCommands(startup: Startup, extra: readonly PluginCommand[]): void {
  if (!extra.length) return;
  const plugins: SessionPlugins = startup.runtime.plugins ?? {
    ids: [],
    commands: [],
    promptSections: '',
    sessionStartSkills: [],
  };
  startup.runtime.plugins = { ...plugins, commands: [...plugins.commands, ...extra] };
}

/** Reads opencode's, Gemini CLI's and Codex's command folders into the session; returns what was read, for doctor. */
export async function attachPeerCommands(
  startup: Startup,
  skills: Pick<SkillCatalog, 'get'> | undefined,
  env: NodeJS.ProcessEnv,
): Promise<PeerCommandsLoad> {
  const root = projectRoot(startup.cwd);
  const folders = peerCommandFolders(root, startup.settings.compat, env);
  const load = await loadPeerCommands(folders, commandOwner(startup.runtime.plugins?.commands ?? [], skills));
  addSessionCommands(startup, load.commands);
  // opencode.json(c)'s `command` section, below the command files of the same name.
  const configs = readOpencodeConfigs(root, startup.settings.compat, env, startup.warnings);
  const json = opencodeJsonCommands(configs, commandOwner(startup.runtime.plugins?.commands ?? [], skills));
  startup.warnings.push(...json.warnings);
  addSessionCommands(startup, json.commands);
  return { ...load, commands: [...load.commands, ...json.commands], skipped: [...load.skipped, ...json.skipped] };
}
