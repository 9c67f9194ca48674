// How opencode, Codex and Gemini CLI fill a command's text with what the user typed (docs/compatibility.md,
// "Commands of other agents"), each in its own syntax, so a file works as its author meant:
// - opencode: `$ARGUMENTS` is the text as typed; `$1`, `$2`… its words (quotes group them), the highest one also
//   taking every word after it; with neither, the text is appended after a blank line. `` !`cmd` `` lines run
//   before sending and `@path` includes that file.
// - Codex (`/prompts:<name>`): `$1`…`$9` and `$ARGUMENTS` (the words joined by one space), `$$` kept; a prompt with
//   named placeholders (`$FILE`, upper case) takes `FILE=value` pairs instead, every one of them required.
// - Gemini CLI: `{{args}}` is the text as typed (data inside `!{…}`); without it the whole typed command is
//   appended after a blank line. `!{…}` (braces balanced) runs before sending, `@{path}` puts that file's text in.
// In every syntax what the user typed never makes a shell line: arguments inside one are quoted words, and only the
// file's own `` !`cmd` `` / `!{…}` run (ext/commands/shellDirectives.ts, engine/delegation/commandExpansion.ts).
import { tokenizeArguments } from '../skills/skillArguments';
import { findShellDirectives } from './shellDirectives';
import { substituteShellLine, type ShellLineResult } from '../plugins/shellLineArguments';

/** Something of the command's own text to do before sending: run a shell line, or read a file into the prompt. */
export interface TemplateSpan {
  /** `text.slice(start, end)` in the expanded text is the span. */
  start: number;
  end: number;
  /** The shell command, or the path to read. */
  command: string;
  /** `shell` (default): replaced by the output. `file`: replaced by the file's text (`inline`), or kept as typed with
   * the file added after the prompt (`attach`, opencode's `@path`; one that names no file stays text). */
  kind?: 'shell' | 'file';
  placement?: 'inline' | 'attach';
  /** Why it must not run: an argument could not be placed in it as data (ext/plugins/shellLineArguments.ts). */
  refused?: string;
}

export type TemplateExpansion = { ok: true; text: string; bangs: TemplateSpan[] } | { ok: false; message: string };

interface Directive {
  start: number;
  end: number;
  /** Where the command's own text lies inside the directive. */
  bodyStart: number;
  bodyEnd: number;
  kind: 'shell' | 'file';
}

/** Builds the expanded text: `fill` for prose, `fillCommand` inside directives; directives become spans. */
function assemble(
  body: string,
  directives: readonly Directive[],
  fill: (part: string) => string,
  fillCommand: (part: string, d: Directive) => ShellLineResult,
  wrap: (d: Directive, filled: string) => { written: string; span: Omit<TemplateSpan, 'start' | 'end'> },
): { text: string; bangs: TemplateSpan[] } {
  let out = '';
  let last = 0;
  const bangs: TemplateSpan[] = [];
  for (const d of directives) {
    out += fill(body.slice(last, d.start));
    const template = body.slice(d.bodyStart, d.bodyEnd);
    const line = fillCommand(template, d);
    // A refused line keeps its template: the user's words never stand in a line that is not run.
    const { written, span } = wrap(d, 'command' in line ? line.command : template);
    bangs.push({
      ...span,
      start: out.length,
      end: out.length + written.length,
      ...('refused' in line ? { refused: line.refused } : {}),
    });
    out += written;
    last = d.end;
  }
  out += fill(body.slice(last));
  return { text: out, bangs };
}

// opencode ---------------------------------------------------------------------------------------------------

const OPENCODE_PLACEHOLDER = /\$ARGUMENTS|\$(\d+)/g;
/** `@path` as opencode finds it: not after a word character or a backquote; a trailing `.` or `,` ends it. */
const OPENCODE_FILE = /(?<![\w`])@(\.?[^\s`,.]*(?:\.[^\s`,.]+)*)/g;

export function expandOpencode(body: string, args: string): TemplateExpansion {
  const typed = args.trim();
  const words = tokenizeArguments(typed);
  let highest = 0;
  for (const m of body.matchAll(/\$(\d+)/g)) highest = Math.max(highest, Number(m[1]));
  let used = false;
  const value = (n: string | undefined) => {
    used = true;
    if (n === undefined) return typed;
    const at = Number(n) - 1;
    if (at < 0 || at >= words.length) return '';
    return Number(n) === highest ? words.slice(at).join(' ') : words[at];
  };
  const fill = (part: string) => part.replace(OPENCODE_PLACEHOLDER, (_all, n?: string) => value(n));
  // Inside a shell line each placeholder is data in whatever quotes it stands (ext/plugins/shellLineArguments.ts).
  const fillCommand = (part: string, d: Directive): ShellLineResult =>
    d.kind === 'file'
      ? { command: part }
      : substituteShellLine(part, (ref) => value('whole' in ref ? undefined : String(ref.index)));
  const directives: Directive[] = findShellDirectives(body).map((d) => ({
    start: d.start,
    end: d.end,
    bodyStart: d.commandStart,
    bodyEnd: d.commandStart + d.command.length,
    kind: 'shell',
  }));
  // `@path` outside the shell lines; a path that is no file stays as written (prepareCommandPrompt decides).
  for (const m of body.matchAll(OPENCODE_FILE)) {
    const at = m.index;
    // Only what looks like a path (`@src/a.ts`, `@README.md`): `@alice` or `@here` are words.
    if (!/[./]/.test(m[1]) || directives.some((d) => at >= d.start && at < d.end)) continue;
    directives.push({ start: at, end: at + m[0].length, bodyStart: at + 1, bodyEnd: at + m[0].length, kind: 'file' });
  }
  directives.sort((a, b) => a.start - b.start);
  const built = assemble(body, directives, fill, fillCommand, (d, filled) =>
    d.kind === 'file'
      ? { written: `@${filled}`, span: { command: filled, kind: 'file', placement: 'attach' } }
      : d.start + 2 === d.bodyStart
        ? { written: `!\`${filled}\``, span: { command: filled.trim(), kind: 'shell' } }
        : { written: `\`\`\`!\n${filled}\n\`\`\``, span: { command: filled.trim(), kind: 'shell' } },
  );
  if (!used && typed) built.text = `${built.text}\n\n${typed}`;
  return { ok: true, ...built };
}

// Codex ------------------------------------------------------------------------------------------------------

const CODEX_NAMED = /(?<!\$)\$([A-Z][A-Z0-9_]*)/g;

/** Words as a shell splits them (Codex uses shlex): quotes may sit inside a word (`TITLE="Fix it"`). */
export function shellWords(text: string): string[] {
  const words: string[] = [];
  for (const m of text.matchAll(/(?:"(?:\\.|[^"\\])*"|'[^']*'|[^\s"']+)+/g))
    words.push(
      m[0].replace(/"((?:\\.|[^"\\])*)"|'([^']*)'/g, (_all, dq?: string, sq?: string) =>
        dq !== undefined ? dq.replace(/\\(.)/g, '$1') : (sq ?? ''),
      ),
    );
  return words;
}

/** The named placeholders of a Codex prompt (`$FILE`), in order, without `$ARGUMENTS`. */
export function codexArgumentNames(body: string): string[] {
  const names: string[] = [];
  for (const m of body.matchAll(CODEX_NAMED)) if (m[1] !== 'ARGUMENTS' && !names.includes(m[1])) names.push(m[1]);
  return names;
}

export function expandCodex(body: string, args: string, command: string): TemplateExpansion {
  const typed = args.trim();
  const words = shellWords(typed);
  const names = codexArgumentNames(body);
  if (names.length) {
    const values = new Map<string, string>();
    for (const word of words) {
      const eq = word.indexOf('=');
      if (eq < 0)
        return {
          ok: false,
          message: `/${command} takes KEY=value pairs (${names.map((n) => `${n}=…`).join(' ')}), not "${word}". Wrap values with spaces in double quotes.`,
        };
      if (eq === 0) return { ok: false, message: `/${command}: "${word}" has no name before "=".` };
      values.set(word.slice(0, eq), word.slice(eq + 1));
    }
    const missing = names.filter((n) => !values.has(n));
    if (missing.length)
      return {
        ok: false,
        message: `/${command} needs ${missing.join(', ')}: give them as KEY=value (quote values with spaces).`,
      };
    const text = body.replace(/\$\$|(?<!\$)\$([A-Z][A-Z0-9_]*)/g, (all, name?: string) =>
      name && values.has(name) ? values.get(name)! : all,
    );
    return { ok: true, text, bangs: [] };
  }
  let used = false;
  const text = body.replace(/\$\$|\$ARGUMENTS|\$([1-9])/g, (all, n?: string) => {
    if (all === '$$') return all;
    used = true;
    return n === undefined ? words.join(' ') : (words[Number(n) - 1] ?? '');
  });
  // Codex drops words a prompt has no place for; here they are kept, after the prompt, so nothing typed is lost.
  return { ok: true, text: !used && typed ? `${text}\n\nARGUMENTS: ${typed}` : text, bangs: [] };
}

// Gemini CLI -------------------------------------------------------------------------------------------------

/** The `!{…}` or `@{…}` injections of a Gemini prompt, braces balanced; an unclosed one is text (and said). */
export function geminiInjections(body: string): { directives: Directive[]; unclosed: string[] } {
  const directives: Directive[] = [];
  const unclosed: string[] = [];
  let i = 0;
  while (i < body.length) {
    const at = body.slice(i).search(/[!@]\{/);
    if (at < 0) break;
    const start = i + at;
    let depth = 0;
    let j = start + 1;
    for (; j < body.length; j++) {
      if (body[j] === '{') depth++;
      else if (body[j] === '}' && --depth === 0) break;
    }
    if (j >= body.length) {
      unclosed.push(body.slice(start, start + 40));
      break;
    }
    const kind = body[start] === '!' ? 'shell' : 'file';
    directives.push({ start, end: j + 1, bodyStart: start + 2, bodyEnd: j, kind });
    i = j + 1;
  }
  return { directives, unclosed };
}

/**
 * `{{args}}` in a `!{…}` line as data in whatever quotes it stands (ext/plugins/shellLineArguments.ts). The line's
 * own `$ARGUMENTS` / `$1` are the shell's, so a line with both cannot be told apart and is refused.
 */
function geminiShellLine(line: string, typed: string): ShellLineResult {
  if (!line.includes('{{args}}')) return { command: line };
  if (/\$ARGUMENTS|\$[1-9]/.test(line))
    return { refused: 'the line has both {{args}} and a $ARGUMENTS or $N of its own, which cannot be told apart' };
  return substituteShellLine(line.split('{{args}}').join('$ARGUMENTS'), () => typed);
}

export function expandGemini(body: string, args: string, command: string): TemplateExpansion {
  const typed = args.trim();
  const uses = body.includes('{{args}}');
  const { directives } = geminiInjections(body);
  const built = assemble(
    body,
    directives,
    (part) => part.split('{{args}}').join(typed),
    // A file path is read before arguments go in (as Gemini CLI does); a shell line gets them as data.
    (part, d) => (d.kind === 'file' ? { command: part } : geminiShellLine(part, typed)),
    (d, filled) =>
      d.kind === 'file'
        ? { written: `@{${filled}}`, span: { command: filled.trim(), kind: 'file', placement: 'inline' } }
        : { written: `!{${filled}}`, span: { command: filled.trim(), kind: 'shell' } },
  );
  if (!uses && typed) built.text = `${built.text}\n\n/${command} ${typed}`;
  return { ok: true, ...built };
}
