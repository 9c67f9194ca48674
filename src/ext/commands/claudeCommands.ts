// Claude Code's own command files (docs/compatibility.md, "Claude Code commands"): every `.md` under
// `<project>/.claude/commands/` and `~/.claude/commands/`, named as Claude Code names them — the path below the
// folder without `.md`, folders joined by `:` (`frontend/component.md` → `/frontend:component`). They are used
// like plugin commands (ext/plugins/pluginCommands.ts): the same expansion of `$ARGUMENTS` / `$1`…, the same
// `` !`cmd` `` lines and ```` ```! ```` blocks run under the same approval and sandbox, the same `allowed-tools`.
// A project command wins over a user command of the same name; what loses is listed as shadowed (`jarvis doctor`).
// Frontmatter Jarvis does not apply (`model`, `context`…) is said when the command is used, never dropped silently.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { PluginCommand } from '../plugins/pluginCommands';
import { readCommandFile } from './commandFile';

export interface ClaudeCommandFolder {
  dir: string;
  scope: 'project' | 'user';
  /** Off by `[compat] claude = false`: not read (doctor still names it). */
  off: boolean;
}

export interface ClaudeCommandsLoad {
  /** Project commands first, then the user's; one per name. */
  commands: PluginCommand[];
  /** Files not used: unreadable, a bad name, or a name taken before them (`by`). */
  skipped: Array<{ path: string; why: string }>;
  /** Per folder: how many commands it gave (doctor). */
  found: Array<{ folder: ClaudeCommandFolder; names: string[] }>;
}

/** Frontmatter a Claude Code command may carry that Jarvis reads (or that only concerns Claude Code's own UI). */
const READ_FIELDS = new Set([
  'description',
  'argument-hint',
  'allowed-tools',
  // Jarvis never lets the model start a command, so both are already true of every command.
  'disable-model-invocation',
  'hide-from-slash-command-tool',
]);

/** Why a field is not applied, for the ones users write most; any other field gets a generic note. */
const NOT_APPLIED: Record<string, string> = {
  model: "the command runs on the session's model (switch with /model or --model)",
  effort: "the effort is the session's ([thinking] effort)",
  context: 'the command runs in the conversation, not in a forked subagent',
  agent: 'the command runs in the conversation, not in a forked subagent',
  'disallowed-tools': "no tool is taken away for the command's turn",
  hooks: 'hooks of a single command are not supported; put them in .claude/settings.json',
  shell: "shell lines run with Jarvis's shell (JARVIS_SHELL_PATH)",
};

const MAX_DEPTH = 8;

/**
 * `.md` files (or those `ext` matches) below `dir` — its sub-folders too unless `flat` — links followed (a dotfiles
 * manager links them), dot-folders skipped, in name order; `rel` is the path below `dir` with `/`.
 */
export function commandFiles(
  dir: string,
  skipped: ClaudeCommandsLoad['skipped'],
  opts: { ext?: RegExp; flat?: boolean } = {},
  prefix = '',
  depth = 0,
) {
  const out: Array<{ path: string; rel: string }> = [];
  if (depth > MAX_DEPTH) {
    skipped.push({ path: dir, why: `deeper than ${MAX_DEPTH} folders; not read` });
    return out;
  }
  let names: string[];
  try {
    names = readdirSync(dir).sort((a, b) => a.localeCompare(b));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') skipped.push({ path: dir, why: `cannot be read (${code})` });
    return out;
  }
  for (const name of names) {
    if (name.startsWith('.')) continue;
    const path = join(dir, name);
    let kind: 'dir' | 'file' | 'other';
    try {
      const st = statSync(path);
      kind = st.isDirectory() ? 'dir' : st.isFile() ? 'file' : 'other';
    } catch (e) {
      skipped.push({ path, why: `cannot be read (${(e as NodeJS.ErrnoException).code ?? 'error'}); a broken link?` });
      continue;
    }
    if (kind === 'dir' && name !== 'node_modules' && !opts.flat)
      out.push(...commandFiles(path, skipped, opts, `${prefix}${name}/`, depth + 1));
    else if (kind === 'file' && (opts.ext ?? /\.md$/i).test(name)) out.push({ path, rel: `${prefix}${name}` });
  }
  return out;
}

/** The notes of fields Jarvis does not apply, one per field, for when the command is used. */
function notesOf(data: Record<string, unknown>, name: string): string[] {
  const notes: string[] = [];
  for (const key of Object.keys(data)) {
    if (READ_FIELDS.has(key)) continue;
    if (key === 'name') {
      if (String(data.name).trim() !== name)
        notes.push(`"name: ${String(data.name)}" is not used: Claude Code names a command by its path (/${name})`);
      continue;
    }
    notes.push(`"${key}" is not applied: ${NOT_APPLIED[key] ?? 'Jarvis has no counterpart for it'}`);
  }
  return notes;
}

/**
 * Reads the folders in order; `taken(name)` says what already owns a name (a skill, a built-in command) so that a
 * command of that name is listed as shadowed instead of used. Never throws.
 */
export async function loadClaudeCommands(
  folders: readonly ClaudeCommandFolder[],
  taken: (name: string) => string | undefined = () => undefined,
): Promise<ClaudeCommandsLoad> {
  const load: ClaudeCommandsLoad = { commands: [], skipped: [], found: [] };
  const byName = new Map<string, PluginCommand>();
  for (const folder of folders) {
    const names: string[] = [];
    load.found.push({ folder, names });
    if (folder.off) continue;
    for (const f of commandFiles(folder.dir, load.skipped)) {
      const name = f.rel.replace(/\.md$/i, '').split('/').join(':');
      if (/\s/.test(name)) {
        load.skipped.push({ path: f.path, why: `the name "${name}" has a space; a command name is one word` });
        continue;
      }
      const owner = byName.get(name)?.path ?? taken(name);
      if (owner) {
        load.skipped.push({ path: f.path, why: `shadowed: /${name} is already ${owner}` });
        continue;
      }
      const problems: string[] = [];
      const file = await readCommandFile(f.path, f.rel, (t) => problems.push(t));
      if (!file) {
        load.skipped.push({ path: f.path, why: problems.join('; ') });
        continue;
      }
      const notes = [...problems, ...notesOf(file.data, name)];
      const command: PluginCommand = {
        scope: folder.scope,
        command: name,
        name,
        description: file.description,
        body: file.body,
        path: f.path,
        ...(file.argumentHint ? { argumentHint: file.argumentHint } : {}),
        ...(file.allowedTools ? { allowedTools: file.allowedTools } : {}),
        ...(notes.length ? { notes } : {}),
      };
      byName.set(name, command);
      load.commands.push(command);
      names.push(name);
    }
  }
  return load;
}
