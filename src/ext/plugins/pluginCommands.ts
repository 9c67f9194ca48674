// Plugin slash commands (docs/plugins.md "Plugin slash commands"): Markdown files named by the manifest's
// `commands` paths become `/<plugin>:<command>`. The name is the file's path relative to the declared
// folder without `.md` (`frontend/component`), unless the frontmatter gives `name`; the description is
// the frontmatter's, else the body's first non-empty line (240 characters at most), else a fixed text.
// What the user types after the command replaces `$ARGUMENTS` (and its words `$1`, `$2`…), or is appended
// as `ARGUMENTS: …`. Claude Code commands also use `${CLAUDE_PLUGIN_ROOT}`, `argument-hint`, `allowed-tools` and
// `` !`cmd` `` lines, run before sending (docs/plugins.md "Claude Code plugins").
import { basename } from 'node:path';
import { readCommandFile } from '../commands/commandFile';
import { findShellDirectives } from '../commands/shellDirectives';
import { tokenizeArguments } from '../skills/skillArguments';
import { CLAUDE_ROOT_VARIABLE } from './claudePlugin';
import { substituteShellLine, type ArgumentRef } from './shellLineArguments';
import { containedFiles, resolveInside } from './pluginPaths';
import type { ForeignTool } from '../../store/compat';
import { expandCodex, expandGemini, expandOpencode, type TemplateSpan } from '../commands/peerTemplates';

export { allowedToolsList, COMMAND_DESCRIPTION_MAX, NO_DESCRIPTION } from '../commands/commandFile';

export interface PluginCommand {
  /** The plugin that brings it; absent for a Claude Code command file of the user's (`scope`). */
  plugin?: string;
  /** `.claude/commands` of the project or `~/.claude/commands` (ext/commands/claudeCommands.ts), or a peer's folder. */
  scope?: 'project' | 'user';
  /** Another agent's command (ext/commands/peerCommands.ts): whose, and the argument syntax of its text. */
  tool?: ForeignTool;
  syntax?: 'opencode' | 'codex' | 'gemini';
  /** The command name inside the plugin (`report`, `frontend/component`), or the whole name. */
  command: string;
  /** What the user types after `/`: `<plugin>:<command>`, or a Claude Code command's `frontend:component`. */
  name: string;
  description: string;
  /** Frontmatter `argument-hint` (`<ticker> [days]`): shown beside the command in lists. */
  argumentHint?: string;
  body: string;
  path: string;
  /** The plugin root, for `${CLAUDE_PLUGIN_ROOT}`. */
  root?: string;
  /** Frontmatter `allowed-tools` (`Bash(git status:*)`…): the pre-approval of the turn it starts. */
  allowedTools?: string[];
  /** What of the file is not applied (a field Jarvis has no counterpart for), said when the command is used. */
  notes?: string[];
}

/** The shell commands a command's body runs before its prompt is sent, in order (shown at install and in info). */
export function commandShellLines(body: string): string[] {
  return findShellDirectives(body)
    .map((d) => d.command.trim())
    .filter((c) => c.length > 0);
}

/** What a list shows for a command: its argument hint, then its description (and, for the user's own, where). */
export function commandListDescription(
  command: Pick<PluginCommand, 'argumentHint' | 'description' | 'scope' | 'command'>,
): string {
  const text = command.argumentHint ? `${command.argumentHint} — ${command.description}` : command.description;
  if (!command.scope) return text;
  const folder = command.command.includes(':') ? command.command.slice(0, command.command.lastIndexOf(':')) : '';
  return `${text} (${command.scope}${folder ? `:${folder}` : ''})`;
}

/** Reads the commands the manifest's `commands` paths name. */
export async function loadPluginCommands(
  root: string,
  pluginId: string,
  paths: string[] | undefined,
  diag: (t: string) => void,
): Promise<PluginCommand[]> {
  const files: Array<{ path: string; rel: string }> = [];
  for (const value of paths ?? []) {
    const where = resolveInside(root, value);
    if (!where.ok) diag(`commands: ${where.reason}; skipped`);
    else if (where.kind === 'dir') files.push(...containedFiles(root, where.path, /\.md$/i, diag));
    else if (/\.md$/i.test(where.path)) files.push({ path: where.path, rel: basename(where.path) });
    else diag(`commands: "${value}" is not a .md file or a folder; skipped`);
  }
  const out: PluginCommand[] = [];
  const seen = new Set<string>();
  for (const f of files) {
    const file = await readCommandFile(f.path, f.rel, diag);
    if (!file) continue;
    const given = typeof file.data.name === 'string' ? file.data.name.trim() : '';
    const command = given || f.rel.replace(/\.md$/i, '');
    if (!/^[^\s:]+$/.test(command)) {
      diag(`command skipped: ${f.rel}: the name "${command}" may not contain spaces or ":"`);
      continue;
    }
    if (seen.has(command)) {
      diag(`command skipped: ${f.rel}: another file already defines /${pluginId}:${command}`);
      continue;
    }
    seen.add(command);
    const { description, argumentHint, allowedTools, body } = file;
    const name = `${pluginId}:${command}`;
    const entry: PluginCommand = { plugin: pluginId, command, name, description, argumentHint, body, path: f.path };
    if (root) entry.root = root;
    out.push(allowedTools?.length ? { ...entry, allowedTools } : entry);
  }
  return out;
}

/** A `` !`cmd` `` (or a file to read in) of the command's own text, where it lies in the expanded prompt. */
export type BangSpan = TemplateSpan;

const PLACEHOLDER = /\$ARGUMENTS(?![\w[])|\$([1-9]\d*)(?!\d)/g;

/**
 * The prompt a command sends: `$ARGUMENTS` and `$1`… (the words, 1-based as in Claude Code commands)
 * replaced, else the arguments appended on their own line; `${CLAUDE_PLUGIN_ROOT}` resolved. The `` !`cmd` ``
 * lines and ```` ```! ```` blocks are those of the command's file (docs/plugins.md, "Shell lines in commands"):
 * arguments put inside one are data in whatever quotes they stand (shellLineArguments.ts), so they are words and
 * never more commands, and arguments put elsewhere never make one.
 */
export function expandPluginCommandParts(
  command: PluginCommand,
  args: string,
): { ok: true; text: string; bangs: BangSpan[] } | { ok: false; message: string } {
  if (command.syntax === 'opencode') return expandOpencode(command.body, args);
  if (command.syntax === 'codex') return expandCodex(command.body, args, command.name);
  if (command.syntax === 'gemini') return expandGemini(command.body, args, command.name);
  const text = args.trim();
  const words = tokenizeArguments(text);
  let used = false;
  const valueOf = (ref: ArgumentRef) => {
    used = true;
    return 'whole' in ref ? text : (words[ref.index - 1] ?? '');
  };
  const fill = (part: string) =>
    part.replace(PLACEHOLDER, (_all, n: string | undefined) =>
      valueOf(n === undefined ? { whole: true } : { index: Number(n) }),
    );
  const body = command.root ? command.body.split(CLAUDE_ROOT_VARIABLE).join(command.root) : command.body;
  let out = '';
  let last = 0;
  const bangs: BangSpan[] = [];
  // Only the file's own shell lines (ext/commands/shellDirectives.ts): examples in fenced blocks and prose such as
  // `` `ERR!` `` are text, and arguments put elsewhere never make one.
  for (const d of findShellDirectives(body)) {
    out += fill(body.slice(last, d.start));
    const line = substituteShellLine(d.command, valueOf);
    // A refused line keeps its template in the prompt: the user's arguments never stand in a line that is not run.
    const cmd = 'command' in line ? line.command : d.command;
    const written = d.form === 'inline' ? `!\`${cmd}\`` : `\`\`\`!\n${cmd}\n\`\`\``;
    const span: BangSpan = { start: out.length, end: out.length + written.length, command: cmd.trim() };
    bangs.push('refused' in line ? { ...span, refused: line.refused } : span);
    out += written;
    last = d.end;
  }
  out += fill(body.slice(last));
  return { ok: true, text: !used && text ? `${out}\n\nARGUMENTS: ${text}` : out, bangs };
}

export function expandPluginCommand(command: PluginCommand, args: string): string {
  const expanded = expandPluginCommandParts(command, args);
  return expanded.ok ? expanded.text : expanded.message;
}

export type PluginCommandParse =
  { ok: true; command: PluginCommand; args: string; text: string; bangs: BangSpan[] } | { ok: false; message: string };

/**
 * `/<name> [args]` → the prompt to send, for a command of `commands` (a plugin's `/<plugin>:<command>` or one of
 * the user's Claude Code commands). Undefined when the first word names none of them and is not shaped like a
 * plugin command of an installed plugin (that is an error listing the plugin's commands).
 */
export function parsePluginCommand(
  input: string,
  commands: readonly PluginCommand[],
  plugins: readonly string[],
): PluginCommandParse | undefined {
  const m = /^\/(\S+)(?:\s+([\s\S]*))?$/.exec(input.trim());
  if (!m) return undefined;
  const [, name, rest] = m;
  const command = commands.find((c) => c.name === name);
  if (command) {
    const args = (rest ?? '').trim();
    const expanded = expandPluginCommandParts(command, args);
    return expanded.ok ? { ok: true, command, args, text: expanded.text, bangs: expanded.bangs } : expanded;
  }
  const shaped = /^([a-z0-9][a-z0-9_-]{0,63}):(\S+)$/.exec(name);
  if (!shaped || !plugins.includes(shaped[1])) return undefined;
  const [, plugin, wanted] = shaped;
  const own = commands.filter((c) => c.plugin === plugin).map((c) => `/${c.name}`);
  const list = own.length ? `Its commands: ${own.join(', ')}.` : 'It has no commands.';
  return { ok: false, message: `The plugin "${plugin}" has no command "${wanted}". ${list}` };
}
