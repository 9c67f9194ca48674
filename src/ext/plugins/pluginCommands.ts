// Plugin slash commands (docs/plugins.md "Plugin slash commands"): Markdown files named by the manifest's
// `commands` paths become `/<plugin>:<command>`. The name is the file's path relative to the declared
// folder without `.md` (`frontend/component`), unless the frontmatter gives `name`; the description is
// the frontmatter's, else the body's first non-empty line (240 characters at most), else a fixed text.
// What the user types after the command replaces `$ARGUMENTS` (and its words `$1`, `$2`…), or is appended
// as `ARGUMENTS: …`. Claude Code commands also use `${CLAUDE_PLUGIN_ROOT}`, `argument-hint`, `allowed-tools` and
// `` !`cmd` `` lines, run before sending (docs/plugins.md "Claude Code plugins").
import { basename } from 'node:path';
import { readMarkdownFile } from '../frontmatter';
import { tokenizeArguments } from '../skills/skillArguments';
import { CLAUDE_ROOT_VARIABLE } from './claudePlugin';
import { containedFiles, resolveInside } from './pluginPaths';

export const NO_DESCRIPTION = 'No description provided.';
export const COMMAND_DESCRIPTION_MAX = 240;

export interface PluginCommand {
  plugin: string;
  /** The command name inside the plugin (`report`, `frontend/component`). */
  command: string;
  /** What the user types after `/`: `<plugin>:<command>`. */
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
}

/** `` !`cmd` `` in a command's body: what Claude Code runs before sending (engine/delegation/commandExpansion.ts). */
const SHELL_LINE = /!`([^`\n]+)`/g;

/** The shell commands a command's body runs before its prompt is sent, in order (shown at install and in info). */
export function commandShellLines(body: string): string[] {
  return [...body.matchAll(SHELL_LINE)].map((m) => m[1].trim()).filter((c) => c.length > 0);
}

/** `allowed-tools` as written: a list, or one string separated by commas or spaces outside parentheses. */
export function allowedToolsList(value: unknown): string[] | undefined {
  if (typeof value === 'string') return value.split(/(?:,|\s)+(?![^(]*\))/).filter((p) => p.trim());
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string' && v.trim() !== '');
  return undefined;
}

/** What a list shows for a command: its argument hint, then its description. */
export function commandListDescription(command: Pick<PluginCommand, 'argumentHint' | 'description'>): string {
  return command.argumentHint ? `${command.argumentHint} — ${command.description}` : command.description;
}

function firstLine(body: string): string {
  const line =
    body
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l.length > 0) ?? '';
  return line.length > COMMAND_DESCRIPTION_MAX ? line.slice(0, COMMAND_DESCRIPTION_MAX) : line;
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
    const parsed = await readMarkdownFile(f.path);
    if (!parsed.ok) {
      diag(`command skipped: ${parsed.message}`);
      continue;
    }
    const given = typeof parsed.data.name === 'string' ? parsed.data.name.trim() : '';
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
    const body = parsed.body.trim();
    const described = typeof parsed.data.description === 'string' ? parsed.data.description.trim() : '';
    const hint = parsed.data['argument-hint'] ?? parsed.data.argumentHint;
    const argumentHint = typeof hint === 'string' && hint.trim() ? hint.trim() : undefined;
    if (hint !== undefined && !argumentHint) {
      diag(`command ${f.rel}: "argument-hint" must be a non-empty string; ignored`);
    }
    const allowedRaw = parsed.data['allowed-tools'] ?? parsed.data.allowedTools;
    const allowedTools = allowedToolsList(allowedRaw);
    if (allowedRaw !== undefined && !allowedTools) {
      diag(`command ${f.rel}: "allowed-tools" must be a string or a list of strings; it pre-approves nothing`);
    }
    const description = described || firstLine(body) || NO_DESCRIPTION;
    const name = `${pluginId}:${command}`;
    const entry: PluginCommand = { plugin: pluginId, command, name, description, argumentHint, body, path: f.path };
    if (root) entry.root = root;
    out.push(allowedTools?.length ? { ...entry, allowedTools } : entry);
  }
  return out;
}

/** A `` !`cmd` `` of the command's own text, where it lies in the expanded prompt (end exclusive). */
export interface BangSpan {
  start: number;
  end: number;
  command: string;
}

/** `` !`cmd` `` as Claude Code writes it; found in the command's file, never in what the user typed. */
const BANG = /!`([^`\n]+)`/g;
const PLACEHOLDER = /\$ARGUMENTS(?![\w[])|\$([1-9]\d*)(?!\d)/g;

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** `[start, end)` of each fenced code block of `text` (an unclosed fence runs to the end), fence lines included. */
function fencedRanges(text: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let open: { mark: string; at: number } | undefined;
  let at = 0;
  for (const line of text.split('\n')) {
    const mark = FENCE.exec(line)?.[1];
    if (mark && !open) open = { mark, at };
    else if (mark && open && mark[0] === open.mark[0] && mark.length >= open.mark.length && line.trim() === mark) {
      out.push([open.at, at + line.length]);
      open = undefined;
    }
    at += line.length + 1;
  }
  if (open) out.push([open.at, text.length]);
  return out;
}

/** One word for a POSIX shell: `'…'`, a `'` inside as `'\''`. Empty stays empty (nothing was given). */
function shellQuote(text: string): string {
  return text === '' ? '' : `'${text.split("'").join("'\\''")}'`;
}

/**
 * The prompt a command sends: `$ARGUMENTS` and `$1`… (the words, 1-based as in Claude Code commands)
 * replaced, else the arguments appended on their own line; `${CLAUDE_PLUGIN_ROOT}` resolved. The `` !`cmd` ``
 * lines are those of the command's file outside fenced code blocks (docs/plugins.md, "Claude Code plugins"):
 * arguments put inside one are shell-quoted, so they are words and never more commands, and arguments put
 * elsewhere never make one.
 */
export function expandPluginCommandParts(command: PluginCommand, args: string): { text: string; bangs: BangSpan[] } {
  const text = args.trim();
  const words = tokenizeArguments(text);
  let used = false;
  const fill = (part: string, quote: boolean) =>
    part.replace(PLACEHOLDER, (_all, n: string | undefined) => {
      used = true;
      const value = n === undefined ? text : (words[Number(n) - 1] ?? '');
      return quote ? shellQuote(value) : value;
    });
  const body = command.root ? command.body.split(CLAUDE_ROOT_VARIABLE).join(command.root) : command.body;
  let out = '';
  let last = 0;
  const bangs: BangSpan[] = [];
  const fenced = fencedRanges(body);
  for (const m of body.matchAll(BANG)) {
    // An example in a fenced code block is documentation, not a line to run (docs/plugins.md).
    if (fenced.some(([from, to]) => m.index >= from && m.index < to)) continue;
    out += fill(body.slice(last, m.index), false);
    const cmd = fill(m[1], true);
    bangs.push({ start: out.length, end: out.length + cmd.length + 3, command: cmd.trim() });
    out += `!\`${cmd}\``;
    last = m.index + m[0].length;
  }
  out += fill(body.slice(last), false);
  return { text: !used && text ? `${out}\n\nARGUMENTS: ${text}` : out, bangs };
}

export function expandPluginCommand(command: PluginCommand, args: string): string {
  return expandPluginCommandParts(command, args).text;
}

export type PluginCommandParse =
  { ok: true; command: PluginCommand; args: string; text: string; bangs: BangSpan[] } | { ok: false; message: string };

/**
 * `/<plugin>:<command> [args]` → the prompt to send. Undefined when the text is not shaped like a plugin
 * command (no `:` in the first word, or the part before it is no installed plugin).
 */
export function parsePluginCommand(
  input: string,
  commands: readonly PluginCommand[],
  plugins: readonly string[],
): PluginCommandParse | undefined {
  const m = /^\/([a-z0-9][a-z0-9_-]{0,63}):(\S+)(?:\s+([\s\S]*))?$/.exec(input.trim());
  if (!m) return undefined;
  const [, plugin, name, rest] = m;
  if (!plugins.includes(plugin)) return undefined;
  const command = commands.find((c) => c.plugin === plugin && c.command === name);
  if (!command) {
    const own = commands.filter((c) => c.plugin === plugin).map((c) => `/${c.name}`);
    return {
      ok: false,
      message: `The plugin "${plugin}" has no command "${name}". ${own.length ? `Its commands: ${own.join(', ')}.` : 'It has no commands.'}`,
    };
  }
  const args = (rest ?? '').trim();
  return { ok: true, command, args, ...expandPluginCommandParts(command, args) };
}
