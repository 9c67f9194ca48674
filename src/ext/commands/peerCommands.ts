// The command files of opencode (`.opencode/command(s)/**/*.md`), Gemini CLI (`.gemini/commands/**/*.toml`) and
// Codex (`$CODEX_HOME/prompts/*.md`, invoked as `/prompts:<name>`), project and user (docs/compatibility.md,
// "Commands of other agents"). Each becomes a command like a plugin's (ext/plugins/pluginCommands.ts), listed and
// expanded by every front end, with its own argument syntax (peerTemplates.ts). Files are read as their users save
// them (a BOM, CRLF, TOML multi-line strings); a project command wins over a user command of the same name; what
// loses, and every field Jarvis does not apply, is said (`jarvis doctor`, and when the command is used).
import { readFileSync } from 'node:fs';
import { parse as parseToml } from 'smol-toml';
import type { PeerCommandFolder } from '../../store/compat';
import type { PluginCommand } from '../plugins/pluginCommands';
import { commandFiles, type ClaudeCommandsLoad } from './claudeCommands';
import { COMMAND_DESCRIPTION_MAX, readCommandFile } from './commandFile';
import { codexArgumentNames, geminiInjections } from './peerTemplates';

export interface PeerCommandsLoad extends Omit<ClaudeCommandsLoad, 'found'> {
  found: Array<{ folder: PeerCommandFolder; names: string[] }>;
}

/** What Jarvis reads of each format's fields; other fields are notes. */
const READ_FIELDS: Record<PeerCommandFolder['format'], Set<string>> = {
  opencode: new Set(['description', 'template']),
  codex: new Set(['description', 'argument-hint']),
  gemini: new Set(['description', 'prompt']),
};

const NOT_APPLIED: Record<string, string> = {
  agent: "the command runs with the session's agent (start another with jarvis --agent <name>)",
  model: "the command runs on the session's model (switch with /model or --model)",
  subtask: 'the command runs in the conversation, not as a subagent',
};

function notesOf(data: Record<string, unknown>, format: PeerCommandFolder['format']): string[] {
  return Object.keys(data)
    .filter((k) => !READ_FIELDS[format].has(k))
    .map((k) => `"${k}" is not applied: ${NOT_APPLIED[k] ?? 'Jarvis has no counterpart for it'}`);
}

function firstLine(text: string): string {
  const line =
    text
      .split(/\r?\n/)
      .find((l) => l.trim())
      ?.trim() ?? '';
  return line.slice(0, COMMAND_DESCRIPTION_MAX);
}

type Read = { ok: true; command: Omit<PluginCommand, 'name' | 'path'> } | { ok: false; why: string };

async function readMarkdown(path: string, rel: string, folder: PeerCommandFolder, name: string): Promise<Read> {
  const problems: string[] = [];
  const file = await readCommandFile(path, rel, (t) => problems.push(t));
  if (!file) return { ok: false, why: problems.join('; ') };
  const notes = [...problems, ...notesOf(file.data, folder.format)];
  if (folder.format === 'codex' && codexArgumentNames(file.body).length && /\$[1-9]|\$ARGUMENTS/.test(file.body))
    notes.push('named placeholders ($NAME) and $1…/$ARGUMENTS in one prompt: Codex fills only the named ones');
  return {
    ok: true,
    command: {
      scope: folder.scope,
      tool: folder.tool,
      syntax: folder.format === 'codex' ? 'codex' : 'opencode',
      command: name,
      description: file.description,
      body: file.body,
      ...(file.argumentHint ? { argumentHint: file.argumentHint } : {}),
      ...(folder.format === 'codex' && !file.argumentHint && codexArgumentNames(file.body).length
        ? {
            argumentHint: codexArgumentNames(file.body)
              .map((n) => `${n}=…`)
              .join(' '),
          }
        : {}),
      ...(notes.length ? { notes } : {}),
    },
  };
}

function readToml(path: string, name: string, folder: PeerCommandFolder): Read {
  let data: Record<string, unknown>;
  try {
    data = parseToml(readFileSync(path, 'utf8').replace(/^\uFEFF/, '')) as Record<string, unknown>;
  } catch (e) {
    return { ok: false, why: `not valid TOML: ${(e as Error).message.split('\n')[0]}` };
  }
  if (typeof data.prompt !== 'string' || !data.prompt.trim())
    return { ok: false, why: 'needs "prompt" (the text sent to the model), a string' };
  if (data.description !== undefined && typeof data.description !== 'string')
    return { ok: false, why: '"description" must be a string' };
  const notes = notesOf(data, 'gemini');
  const { unclosed } = geminiInjections(data.prompt);
  for (const u of unclosed) notes.push(`"${u}…" has no closing brace: it is sent as text and runs nothing`);
  const description = (data.description as string | undefined)?.trim();
  return {
    ok: true,
    command: {
      scope: folder.scope,
      tool: folder.tool,
      syntax: 'gemini',
      command: name,
      description: description ? firstLine(description) : `Custom command from ${name.replace(/:/g, '/')}.toml`,
      body: data.prompt,
      ...(notes.length ? { notes } : {}),
    },
  };
}

/**
 * Reads the folders in order; `taken(name)` says what already owns a name (a command file of Claude Code's, a skill)
 * so that one of that name is listed as shadowed instead of used. Never throws.
 */
export async function loadPeerCommands(
  folders: readonly PeerCommandFolder[],
  taken: (name: string) => string | undefined = () => undefined,
): Promise<PeerCommandsLoad> {
  const load: PeerCommandsLoad = { commands: [], skipped: [], found: [] };
  const byName = new Map<string, string>();
  for (const folder of folders) {
    const names: string[] = [];
    load.found.push({ folder, names });
    if (folder.off) continue;
    const ext = folder.format === 'gemini' ? /\.toml$/i : /\.md$/i;
    for (const f of commandFiles(folder.dir, load.skipped, { ext, flat: !folder.recursive })) {
      const name = folder.prefix + f.rel.replace(ext, '').split('/').join(folder.join);
      if (/\s/.test(name)) {
        load.skipped.push({ path: f.path, why: `the name "${name}" has a space; a command name is one word` });
        continue;
      }
      const owner = byName.get(name) ?? taken(name);
      if (owner) {
        load.skipped.push({ path: f.path, why: `shadowed: /${name} is already ${owner}` });
        continue;
      }
      const read =
        folder.format === 'gemini' ? readToml(f.path, name, folder) : await readMarkdown(f.path, f.rel, folder, name);
      if (!read.ok) {
        load.skipped.push({ path: f.path, why: `command skipped: ${read.why}` });
        continue;
      }
      byName.set(name, f.path);
      load.commands.push({ ...read.command, name, path: f.path });
      names.push(name);
    }
  }
  return load;
}
