// Grep: content search on ripgrep. Sensitive files and VCS folders are filtered here, whatever
// ripgrep's ignore settings; results are paged with offset/head_limit in a stable order.
//
// Content mode used to ask ripgrep for path order (`--sort path`), which makes it search on one
// thread, so that it could stop at the end of the page. It now searches on all threads and puts
// the files in the same order here (orderByPath), which gives the same output. Reading to the end
// is the price, worth paying while matches are few; once it has PATH_ORDER_SWITCH times a page of
// lines, or its output would pass the cap, the search is run again in path order, whose early stop
// then costs little and keeps the page exact. A single file needs no ordering and stops early.
import { stat } from 'node:fs/promises';
import { relative } from 'node:path';
import { z } from 'zod';
import { defaultRipgrep, type RipgrepLocation } from '../../platform/ripgrep';
import { defineTool, type Tool, type ToolResult } from '../defineTool';
import { LSP_SERVICE } from '../lsp/lspService';
import { warmServersFor } from '../lsp/warmUp';
import { approvedAccess, fileAccess, hardLinkCount } from './checkedOpen';
import { modifiedTimes } from './fileTimes';
import { formatContentLines, linesOfRecord, orderByPath, type GrepLine } from './grepContent';
import { pathDisplayer, resolveToolPath } from './pathPolicy';
import { runRipgrep, type RipgrepOutcome } from './ripgrepProcess';
import { SESSION_ENV, sessionEnvOf } from '../sessionEnv';
import { isInVcsDir, isSensitivePath, sensitiveSkippedNote, VCS_DIRS } from './sensitivePaths';
import description from './grep.md';

function linkedSkippedNote(count: number): string {
  const files = count === 1 ? '1 file' : `${count} files`;
  return (
    `[${files} with more than one hard link skipped: ` +
    'such files count as outside the workspace (their other names may be anywhere).]'
  );
}

export const GREP_DEFAULT_HEAD_LIMIT = 250;
export const GREP_MAX_COLUMNS = 500;
export const GREP_TIMEOUT_MS = 30_000;
/** Safety bound on raw ripgrep output held in memory for one call. */
export const GREP_MAX_OUTPUT_BYTES = 20 * 1024 * 1024;
/** A multi-threaded content search that has this many pages of lines (with offset) gives way to one in path order. */
const PATH_ORDER_SWITCH = 4;

// grep.md documents every parameter, so the schema carries no per-field text (every request sends both).
const context = () => z.number().int().nonnegative().optional();

const schema = z.object({
  pattern: z.string().min(1, { error: 'pattern is empty: give a regular expression to search for' }),
  path: z.string().optional(),
  glob: z.string().optional(),
  type: z.string().optional(),
  output_mode: z.enum(['files_with_matches', 'content', 'count_matches']).default('files_with_matches'),
  '-A': context(),
  '-B': context(),
  '-C': context(),
  '-i': z.boolean().default(false),
  '-n': z.boolean().default(true),
  multiline: z.boolean().default(false),
  offset: z.number().int().nonnegative().default(0),
  head_limit: z.number().int().nonnegative().default(GREP_DEFAULT_HEAD_LIMIT),
  include_ignored: z.boolean().default(false),
});
type GrepArgs = z.infer<typeof schema>;

export interface GrepToolOptions {
  locate?: () => Promise<RipgrepLocation>;
  timeoutMs?: number;
  /** Raw ripgrep output held for one call (default GREP_MAX_OUTPUT_BYTES). */
  maxOutputBytes?: number;
}

function error(content: string): ToolResult {
  return { content, isError: true };
}

/** `inPathOrder`: content mode only; ripgrep sorts by path, on one thread. */
function ripgrepArgs(args: GrepArgs, root: string, inPathOrder: boolean): string[] {
  const rg = ['--no-config', '--hidden', '--no-require-git', '--no-messages', '--with-filename'];
  if (args.include_ignored) rg.push('--no-ignore');
  if (args['-i']) rg.push('--ignore-case');
  if (args.multiline) rg.push('--multiline', '--multiline-dotall');
  if (args.type) rg.push('--type', args.type);
  if (args.glob) rg.push('--glob', args.glob);
  // Later globs win in ripgrep, so these exclusions hold whatever the model's glob says.
  for (const dir of VCS_DIRS) rg.push('--glob', `!${dir}`);
  if (args.output_mode === 'files_with_matches') rg.push('--files-with-matches', '--null');
  else if (args.output_mode === 'count_matches') rg.push('--count-matches', '--null');
  else {
    rg.push('--json');
    if (inPathOrder) rg.push('--sort', 'path');
    if (args['-C'] !== undefined) rg.push('--context', String(args['-C']));
    if (args['-A'] !== undefined) rg.push('--after-context', String(args['-A']));
    if (args['-B'] !== undefined) rg.push('--before-context', String(args['-B']));
  }
  rg.push('--regexp', args.pattern, '--', root);
  return rg;
}

/** Sorts paths newest first (ties by path) so recently touched files lead. */
async function byModifiedTime(paths: string[], signal: AbortSignal): Promise<string[]> {
  const times = await modifiedTimes(paths, { filesOnly: false, signal });
  return paths
    .map((p, i) => ({ p, t: times[i] ?? 0 }))
    .sort((a, b) => b.t - a.t || (a.p < b.p ? -1 : a.p > b.p ? 1 : 0))
    .map((x) => x.p);
}

function page<T>(items: readonly T[], offset: number, limit: number): T[] {
  return items.slice(offset, limit === 0 ? undefined : offset + limit);
}

function outcomeNotes(outcome: RipgrepOutcome, timeoutMs: number, maxOutputBytes: number): string[] {
  const notes: string[] = [];
  if (outcome.timedOut)
    notes.push(
      `[The search timed out after ${timeoutMs / 1000} s; the results are partial. Narrow it with path, glob or type.]`,
    );
  if (outcome.outputCapped)
    notes.push(
      `[The search produced over ${Number((maxOutputBytes / (1024 * 1024)).toFixed(2))} MiB of output and was stopped; the results are partial. Narrow the pattern, path or glob.]`,
    );
  return notes;
}

export function createGrepTool(options: GrepToolOptions = {}): Tool {
  const locate = options.locate ?? defaultRipgrep;
  const timeoutMs = options.timeoutMs ?? GREP_TIMEOUT_MS;
  const maxOutputBytes = options.maxOutputBytes ?? GREP_MAX_OUTPUT_BYTES;
  return defineTool({
    name: 'Grep',
    optionalServices: [LSP_SERVICE, SESSION_ENV],
    description,
    constants: { HEAD_LIMIT: GREP_DEFAULT_HEAD_LIMIT, MAX_COLUMNS: GREP_MAX_COLUMNS, TIMEOUT_S: timeoutMs / 1000 },
    schema,
    readOnly: true,
    defaultApproval: 'auto',
    subject: (args, ctx) => `Grep(${resolveToolPath(ctx, args.path ?? ctx.cwd)})`,
    accesses: (args, ctx) => [fileAccess('read', resolveToolPath(ctx, args.path ?? ctx.cwd))],
    async execute(args, ctx) {
      const access = approvedAccess(ctx, args.path ?? ctx.cwd, 'read');
      const root = access.path;
      let rootIsFile: boolean;
      try {
        rootIsFile = (await stat(root)).isFile();
      } catch {
        return error(`Path not found: ${root}. Give an existing file or folder (default: the working directory).`);
      }
      if (isSensitivePath(root))
        return {
          content: `No matches: ${root} is a sensitive file (secrets, keys or credentials) and is never searched.`,
        };
      let rgPath: string;
      try {
        rgPath = (await locate()).path;
      } catch (e) {
        return error(`Grep cannot run: ${(e as Error).message}`);
      }
      const display = pathDisplayer(ctx.cwd);
      const sensitive = new Set<string>();
      // A file with more than one hard link counts as outside the workspace (docs/approvals.md): left out.
      const linkCounts = new Map<string, number>();
      const linked = new Set<string>();
      const keep = (path: string): boolean => {
        if (isInVcsDir(relative(root, path))) return false;
        if (isSensitivePath(path)) {
          sensitive.add(path);
          return false;
        }
        if (path === root && access.linked) return true;
        if (!linkCounts.has(path)) linkCounts.set(path, hardLinkCount(path));
        if ((linkCounts.get(path) ?? 0) <= 1) return true;
        linked.add(path);
        return false;
      };
      const contentMode = args.output_mode === 'content';
      const wanted = args.head_limit === 0 ? Infinity : args.offset + args.head_limit + 1;
      const switchAt = wanted * PATH_ORDER_SWITCH;
      const files: string[] = [];
      const counts: Array<{ path: string; count: number }> = [];
      let lines: GrepLine[] = [];
      const started = Date.now();
      const search = (inPathOrder: boolean): Promise<RipgrepOutcome> =>
        runRipgrep({
          rgPath,
          args: ripgrepArgs(args, root, inPathOrder),
          cwd: ctx.cwd,
          env: sessionEnvOf(ctx),
          signal: ctx.signal,
          // A second search gets what is left of the one time limit.
          timeoutMs: Math.max(1, timeoutMs - (Date.now() - started)),
          separator: args.output_mode === 'files_with_matches' ? '\0' : '\n',
          maxOutputBytes,
          onRecord(record) {
            if (args.output_mode === 'files_with_matches') {
              if (keep(record)) files.push(record);
            } else if (args.output_mode === 'count_matches') {
              const at = record.lastIndexOf('\0');
              const path = record.slice(0, at);
              if (at > 0 && keep(path)) counts.push({ path, count: Number(record.slice(at + 1)) });
            } else {
              for (const line of linesOfRecord(record)) if (keep(line.path)) lines.push(line);
              // Read in path order, a page (plus one to know there is more) is final: stop there.
              return lines.length < (inPathOrder ? wanted : switchAt);
            }
            return true;
          },
        });
      let outcome: RipgrepOutcome;
      if (!contentMode || rootIsFile) {
        outcome = await search(rootIsFile);
      } else {
        outcome = await search(false);
        if (outcome.outputCapped || outcome.stoppedEarly) {
          // Unordered and cut short, this is no page of anything: search again in path order.
          lines = [];
          outcome = await search(true);
        } else {
          lines = orderByPath(lines);
          // As if read in path order: a search that stopped at the end of the page.
          outcome.stoppedEarly = lines.length >= wanted;
        }
      }
      if (
        outcome.exitCode === 2 &&
        !outcome.stoppedEarly &&
        !outcome.timedOut &&
        files.length + counts.length + lines.length === 0 &&
        outcome.stderr
      ) {
        return error(`Grep failed: ${outcome.stderr}`);
      }
      warmServersFor(ctx, [...files, ...counts.map((c) => c.path), ...lines.slice(0, 50).map((l) => l.path)]);
      const notes = outcomeNotes(outcome, timeoutMs, maxOutputBytes);
      if (sensitive.size > 0) notes.push(sensitiveSkippedNote(sensitive.size));
      if (linked.size > 0) notes.push(linkedSkippedNote(linked.size));
      let shown: string[];
      let total: number | undefined;
      let summaryLine = '';
      if (args.output_mode === 'files_with_matches') {
        const sorted = await byModifiedTime(files, ctx.signal);
        total = sorted.length;
        shown = page(sorted, args.offset, args.head_limit).map(display);
        summaryLine = `Found ${total} file${total === 1 ? '' : 's'} (newest first)`;
      } else if (args.output_mode === 'count_matches') {
        counts.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
        total = counts.length;
        const matches = counts.reduce((n, c) => n + c.count, 0);
        shown = page(counts, args.offset, args.head_limit).map((c) => `${display(c.path)}:${c.count}`);
        summaryLine = `Found ${matches} match${matches === 1 ? '' : 'es'} in ${total} file${total === 1 ? '' : 's'}`;
      } else {
        const more = outcome.stoppedEarly;
        total = more ? undefined : lines.length;
        const slice = page(lines, args.offset, args.head_limit);
        const separators = [args['-A'], args['-B'], args['-C']].some((n) => (n ?? 0) > 0);
        shown = formatContentLines(slice, {
          lineNumbers: args['-n'],
          separators,
          maxColumns: GREP_MAX_COLUMNS,
          display,
        });
        if (more && slice.length > 0)
          notes.push(
            `[More matching lines follow. To see them, call again with offset=${args.offset + slice.length}.]`,
          );
      }
      const count = args.output_mode === 'content' ? page(lines, args.offset, args.head_limit).length : shown.length;
      if (total === 0 || (lines.length === 0 && contentMode)) {
        return { content: ['No matches found.', ...notes].join('\n'), summary: 'No matches' };
      }
      if (count === 0) {
        return {
          content: [`No results at offset ${args.offset}: there are ${total ?? 'fewer'} results.`, ...notes].join('\n'),
          summary: 'No results at offset',
        };
      }
      if (total !== undefined && args.head_limit !== 0 && args.offset + count < total) {
        notes.push(
          `[Showing results ${args.offset + 1}-${args.offset + count} of ${total}. To see more, call again with offset=${args.offset + count}.]`,
        );
      }
      const head = summaryLine ? [summaryLine] : [];
      return {
        content: [...head, ...shown, ...(notes.length ? ['', ...notes] : [])].join('\n'),
        summary: summaryLine || `${count} matching lines`,
      };
    },
  });
}

export const grepTool = createGrepTool();
