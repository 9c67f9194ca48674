// What a launch takes from Claude Code's own files (docs/compatibility.md): the hooks of its settings files
// (`~/.claude/settings.json`, the project's `.claude/settings*.json` only with the bytes the user trusted), and its
// command files, read after the plugins and skills so that a skill of the same name wins (as in Claude Code) and the
// command is listed as shadowed; they join the plugins' commands, which every front end lists and expands (the `/`
// menu, ACP, `jarvis -p "/name …"`).
import { loadClaudeCommands, type ClaudeCommandsLoad } from '../../../ext/commands/claudeCommands';
import { loadClaudeSettingsHooks, type ClaudeSettingsHooks } from '../../../ext/hooks/claudeSettingsHooks';
import type { SessionPlugins } from '../../../ext/plugins/contributions';
import type { SkillCatalog } from '../../../ext/skills/skillCatalog';
import { claudeCommandFolders } from '../../../store/compat';
import { projectRoot } from '../../../store/paths';
import type { Settings } from '../../../store/settings';
import { isWorkspaceTrusted, mcpFileApproved } from '../../../store/trust';
import type { Startup } from './startup';

/**
 * Reads `.claude/commands` and `~/.claude/commands` and puts their commands first in `startup.runtime.plugins`
 * (a command file of the user's wins over a plugin command of the same name). Returns what was read, for doctor.
 */
export async function attachClaudeCommands(
  startup: Startup,
  skills: Pick<SkillCatalog, 'get'> | undefined,
  env: NodeJS.ProcessEnv,
): Promise<ClaudeCommandsLoad> {
  const folders = claudeCommandFolders(projectRoot(startup.cwd), startup.settings.compat, env);
  const load = await loadClaudeCommands(folders, (name) => (skills?.get(name) ? `the skill ${name}` : undefined));
  if (!load.commands.length) return load;
  const plugins: SessionPlugins = startup.runtime.plugins ?? {
    ids: [],
    commands: [],
    promptSections: '',
    sessionStartSkills: [],
  };
  const mine = new Map(load.commands.map((c) => [c.name, c.path]));
  for (const c of plugins.commands)
    if (mine.has(c.name))
      load.skipped.push({ path: c.path, why: `shadowed: /${c.name} is already ${mine.get(c.name)}` });
  startup.runtime.plugins = {
    ...plugins,
    commands: [...load.commands, ...plugins.commands.filter((c) => !mine.has(c.name))],
  };
  return load;
}

/** Claude Code's settings-file hooks for this folder; the project's only with the bytes the user trusted. */
export function claudeSettingsHooksFor(
  home: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
  settings: Settings,
): ClaudeSettingsHooks {
  const trusted = isWorkspaceTrusted(home, cwd);
  return loadClaudeSettingsHooks({
    cwd,
    env,
    enabled: settings.compat.claude,
    projectFile: (file, digest) =>
      !trusted ? 'untrusted' : mcpFileApproved(home, cwd, file, digest) ? 'approved' : 'changed',
  });
}
