// The `command` section of opencode's config files (docs/compatibility.md "opencode.json"): each entry's `template`
// is a command's text in opencode's syntax (peerTemplates.ts), `description` its description; `agent`, `model` and
// `subtask` are said to be not applied. The project's file wins over the user's for a name, as in opencode; a command
// file or skill of the same name wins over both and the entry is listed as shadowed.
import type { OpencodeConfigFile } from '../../store/opencodeConfig';
import { opencodeSection } from '../../store/opencodeConfig';
import type { PluginCommand } from '../plugins/pluginCommands';
import { COMMAND_DESCRIPTION_MAX, NO_DESCRIPTION } from './commandFile';

const READ = new Set(['template', 'description']);
const WHY: Record<string, string> = {
  agent: "the command runs with the session's agent",
  model: "the command runs on the session's model",
  subtask: 'the command runs in the conversation, not as a subagent',
};

export function opencodeJsonCommands(
  files: readonly OpencodeConfigFile[],
  taken: (name: string) => string | undefined,
): { commands: PluginCommand[]; skipped: Array<{ path: string; why: string }>; warnings: string[] } {
  const warnings: string[] = [];
  const skipped: Array<{ path: string; why: string }> = [];
  const byName = new Map<string, PluginCommand>();
  // User files first, then the project's: a later definition replaces an earlier one of the same name.
  for (const file of files) {
    for (const [name, entry] of opencodeSection(file, ['command', 'commands'], warnings)) {
      const where = `${file.path} (command "${name}")`;
      if (typeof entry.template !== 'string' || !entry.template.trim()) {
        skipped.push({ path: where, why: 'command skipped: needs "template" (the prompt text), a string' });
        continue;
      }
      if (/\s/.test(name)) {
        skipped.push({ path: where, why: `the name "${name}" has a space; a command name is one word` });
        continue;
      }
      const notes = Object.keys(entry)
        .filter((k) => !READ.has(k))
        .map((k) => `"${k}" is not applied: ${WHY[k] ?? 'Jarvis has no counterpart for it'}`);
      const description = typeof entry.description === 'string' ? entry.description.trim() : '';
      byName.set(name, {
        scope: file.scope,
        tool: 'opencode',
        syntax: 'opencode',
        command: name,
        name,
        description: (description || entry.template.trim().split('\n')[0] || NO_DESCRIPTION).slice(
          0,
          COMMAND_DESCRIPTION_MAX,
        ),
        body: entry.template.trim(),
        path: file.path,
        ...(notes.length ? { notes } : {}),
      });
    }
  }
  const commands: PluginCommand[] = [];
  for (const c of byName.values()) {
    const owner = taken(c.name);
    if (owner)
      skipped.push({ path: `${c.path} (command "${c.name}")`, why: `shadowed: /${c.name} is already ${owner}` });
    else commands.push(c);
  }
  return { commands, skipped, warnings };
}
