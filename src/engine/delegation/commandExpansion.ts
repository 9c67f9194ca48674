// A command's prompt made ready to send (docs/plugins.md, "Claude Code plugins"): its `allowed-tools` become the
// turn's pre-approval (policy/preApproval.ts), and each `` !`cmd` `` is run for the user, in order, through the
// agent's ordinary path (Agent.runForUser: rules, approval panel, sandbox, hooks, journal) and replaced by what
// the Bash tool returned — or by a short text saying why it did not run. All three front ends await this.
import { findShellDirectives } from '../../ext/commands/shellDirectives';
import type { TemplateSpan } from '../../ext/commands/peerTemplates';
import type { PermissionRule } from '../policy/approvals';
import { preApprovalRules } from '../policy/preApproval';
import type { Agent } from '../loop/loop';
import type { UserCallResult } from '../loop/toolStep';

export interface CommandPromptSource {
  /** The prompt as expanded so far (arguments and `${CLAUDE_PLUGIN_ROOT}` in place). */
  text: string;
  /** Frontmatter `allowed-tools`, as written. */
  allowedTools?: readonly string[];
  /** The command or skill file, named in warnings and in the rules' source. */
  path: string;
  /** Whether `` !`cmd` `` lines run (plugin commands); otherwise they stay as written. */
  runBangs: boolean;
  /**
   * Where the command file's own `` !`cmd` `` lines are in `text` (ext/plugins/pluginCommands.ts), so that the
   * user's arguments never make one; without it, every `` !`cmd` `` of `text` is the file's.
   */
  bangs?: readonly BangSpan[];
}

/** A `` !`cmd` `` in the prompt (`text.slice(start, end)` is it, `command` what runs), or a file to read in. */
export type BangSpan = TemplateSpan;

function findBangs(text: string): BangSpan[] {
  return findShellDirectives(text).map((d) => ({ start: d.start, end: d.end, command: d.command.trim() }));
}

export interface CommandPrompt {
  text: string;
  /** For the turn this prompt starts: Agent.run / submit `preApproved`. */
  preApproved: PermissionRule[];
}

/** Terminal escapes (CSI, OSC, other ESC) and control bytes but tab and newline: an output is text, not a terminal. */
const TERMINAL_CONTROL = new RegExp(
  [
    /\x1b\[[0-?]*[ -/]*[@-~]/.source, // CSI: colours, cursor moves
    /\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?/.source, // OSC: titles, hyperlinks, clipboard
    /\x1b[PX^_][^\x1b]*(?:\x1b\\)?/.source, // DCS, SOS, PM, APC strings
    /\x1b[ -~]?/.source,
    /[\x00-\x08\x0b-\x1f\x7f\x9b]/.source,
  ].join('|'),
  'g',
);

/** An output as it goes into the prompt: without terminal escapes or control bytes (docs/plugins.md). */
export function plainOutput(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(TERMINAL_CONTROL, '');
}

/** What a `` !`cmd` `` is replaced by. */
export function bangReplacement(command: string, result: UserCallResult): string {
  const what = `!\`${command}\``;
  const out = plainOutput(result.text);
  if (result.outcome === 'ran') return result.isError ? `[${what} failed]\n${out}` : out;
  if (result.outcome === 'declined') return `[${what} was not run: the user declined it]`;
  if (result.outcome === 'denied') return `[${what} was not run: denied by ${result.by ?? 'the approval policy'}]`;
  return `[${what} was not run: ${out}]`;
}

export async function prepareCommandPrompt(
  agent: Pick<Agent, 'runForUser'>,
  source: CommandPromptSource,
  opts: { signal?: AbortSignal; warn(text: string): void },
): Promise<CommandPrompt> {
  const preApproved = preApprovalRules(source.allowedTools ?? [], source.path, opts.warn);
  if (!source.runBangs) return { text: source.text, preApproved };
  const parts: string[] = [];
  const attached: string[] = [];
  let last = 0;
  // Each span is replaced once, and what replaces it is never scanned again (an output may show `` !`x` ``).
  for (const span of source.bangs ?? findBangs(source.text)) {
    const { start, end, command, refused } = span;
    if (start < last || end > source.text.length)
      throw new Error(`the !\`cmd\` lines of ${source.path} do not match its text; nothing was run`);
    parts.push(source.text.slice(last, start));
    last = end;
    if (span.kind === 'file') {
      const read = await readIntoPrompt(agent, span, source.text.slice(start, end), opts.signal);
      if (span.placement === 'attach') {
        parts.push(source.text.slice(start, end));
        if (read) attached.push(read);
      } else parts.push(read ?? `[${source.text.slice(start, end)}: no such file]`);
      continue;
    }
    if (!command) {
      parts.push('[an empty !`cmd` was not run: nothing is left of it once the arguments are in]');
      continue;
    }
    if (refused) {
      parts.push(`[!\`${command}\` was not run: ${refused}]`);
      continue;
    }
    if (opts.signal?.aborted) {
      parts.push(`[!\`${command}\` was not run: sending was cancelled]`);
      continue;
    }
    const result = await agent.runForUser(
      { name: 'Bash', args: { command, description: `!\`${command}\` in ${source.path}` } },
      { ...(opts.signal ? { signal: opts.signal } : {}), preApproved },
    );
    parts.push(bangReplacement(command, result));
  }
  parts.push(source.text.slice(last));
  return { text: [parts.join(''), ...attached].join('\n\n'), preApproved };
}

/**
 * A file a command's text names (Gemini's `@{path}`, opencode's `@path`), read through the Read tool as the user's
 * own call (rules, sensitive files, the workspace): its text, a note saying why it was not read, or undefined when
 * no such file exists (opencode's `@word` that names no file is text).
 */
async function readIntoPrompt(
  agent: Pick<Agent, 'runForUser'>,
  span: BangSpan,
  written: string,
  signal: AbortSignal | undefined,
): Promise<string | undefined> {
  if (signal?.aborted) return `[${written} was not read: sending was cancelled]`;
  const result = await agent.runForUser(
    { name: 'Read', args: { path: span.command } },
    { ...(signal ? { signal } : {}), preApproved: [] },
  );
  if (result.outcome === 'ran' && !result.isError)
    return `<file path="${span.command.replace(/"/g, '&quot;')}">\n${plainOutput(result.text)}\n</file>`;
  if (result.outcome === 'ran' && /not found|does not exist|no such file/i.test(result.text)) return undefined;
  return `[${written} was not read: ${result.outcome === 'ran' ? plainOutput(result.text) : bangReplacement(span.command, result)}]`;
}

/** What a front end parsed: a plugin command (parsePluginCommand) or a skill command (parseSkillCommand). */
export type ParsedCommand =
  | { command: { path: string; allowedTools?: string[]; notes?: string[] }; text: string; bangs: readonly BangSpan[] }
  | { skill: { path: string; allowedTools?: string[] }; text: string };

/** The one call a front end awaits before sending a command's prompt (TUI, print mode, ACP). */
export function prepareParsedCommand(
  agent: Pick<Agent, 'runForUser'>,
  parsed: ParsedCommand,
  opts: { signal?: AbortSignal; warn(text: string): void },
): Promise<CommandPrompt> {
  const file = 'command' in parsed ? parsed.command : parsed.skill;
  // What of a command file is not applied is said each time it is used (ext/commands/claudeCommands.ts).
  if ('command' in parsed) for (const note of parsed.command.notes ?? []) opts.warn(`${parsed.command.path}: ${note}`);
  const bangs = 'command' in parsed ? { bangs: parsed.bangs } : {};
  const source = { text: parsed.text, path: file.path, runBangs: 'command' in parsed, ...bangs };
  return prepareCommandPrompt(agent, file.allowedTools ? { ...source, allowedTools: file.allowedTools } : source, opts);
}
