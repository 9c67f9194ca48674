// Glob: files whose path matches a pattern, newest first. Walks with walkMatchingFiles, matches with
// picomatch, honours ignore files as IgnoreRules reads them; secrets and VCS folders are never listed.
import { stat } from 'node:fs/promises';
import { isAbsolute, join, sep } from 'node:path';
import picomatch from 'picomatch';
import { z } from 'zod';
import { defineTool, type ToolContext, type ToolResult } from '../defineTool';
import { modifiedTimes } from './fileTimes';
import { ignoreFramesAbove, walkMatchingFiles } from './globWalk';
import { pathDisplayer, resolveToolPath } from './pathPolicy';
import { isSensitivePath, sensitiveSkippedNote } from './sensitivePaths';
import description from './glob.md';

export const GLOB_MAX_RESULTS = 100;

const schema = z.object({
  pattern: z.string().min(1, { error: 'pattern is empty: give a glob such as "**/*.ts"' }),
  path: z.string().optional(),
  include_ignored: z.boolean().default(false),
});
type GlobArgs = z.infer<typeof schema>;

function error(content: string): ToolResult {
  return { content, isError: true };
}

function toPosix(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}

/** A `/`-separated part of a pattern with glob syntax that is not escaped with `\`. */
function hasGlobSyntax(segment: string): boolean {
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i];
    if (c === '\\') i++;
    else if ('*?[{'.includes(c) || ('@!+'.includes(c) && segment[i + 1] === '(')) return true;
  }
  return false;
}

/** `\{` → `{`: a literal folder or file name as written with escapes. */
function unescapeGlob(text: string): string {
  return text.replace(/\\(.)/g, '$1');
}

/**
 * Splits a pattern into its literal leading folders (unescaped) and the glob after them, so `src/**`
 * walks only src and `docs/\{a\}/*.md` walks the folder `docs/{a}`. A pattern with no glob syntax
 * at all is a literal path (glob ''). Throws for a pattern picomatch cannot read (an unclosed `{`, `[`, `(`).
 */
export function splitPattern(pattern: string): { base: string; glob: string } {
  const segments = pattern.split('/');
  const first = segments.findIndex(hasGlobSyntax);
  if (first === -1) return { base: unescapeGlob(pattern), glob: '' };
  const glob = segments.slice(first).join('/');
  try {
    picomatch.makeRe(glob, { dot: true, strictBrackets: true });
  } catch (e) {
    const why = (e instanceof Error ? e.message : String(e)).replace(/\s+-\s+/, ' (') + ')';
    throw new Error(`Invalid glob pattern "${pattern}": ${why}. Fix the pattern and call Glob again.`);
  }
  return { base: unescapeGlob(segments.slice(0, first).join('/')), glob };
}

/** Splits the pattern's literal leading folders off into the walk root, so `src/**` walks only src. */
export function globTarget(
  args: Pick<GlobArgs, 'pattern' | 'path'>,
  ctx: Pick<ToolContext, 'cwd' | 'resolve'>,
): { root: string; glob: string } {
  const { base, glob } = splitPattern(args.pattern);
  if (isAbsolute(args.pattern)) return { root: resolveToolPath(ctx, base || '/'), glob };
  const from = args.path ?? '.';
  return { root: resolveToolPath(ctx, base ? join(from, base) : from), glob };
}

/**
 * How many folders deep a match of `glob` can lie (its `/` count), or Infinity when it has `**`,
 * a group or class that could hold a `/`, an escape, or a leading `!`. `*` and `?` never match `/`.
 */
export function globMaxDepth(glob: string): number {
  if (glob.startsWith('!') || /\*\*|[{}()[\]\\]/.test(glob)) return Infinity;
  return glob.split('/').length - 1;
}

/**
 * picomatch's matcher (dot files included) behind a cheap test of the literal text every match
 * ends with (`.tsx` for a glob ending in `*.tsx`), so most paths that fail never reach its regex.
 */
export function globMatcher(glob: string): (rel: string) => boolean {
  const isMatch = picomatch(glob, { dot: true });
  // Characters that are, or may be, syntax (or a separator) end the literal tail.
  const tail = /[^*?[\]{}()!+@|^$,\\/]*$/.exec(glob)?.[0] ?? '';
  return tail === '' ? isMatch : (rel) => rel.endsWith(tail) && isMatch(rel);
}

export const globTool = defineTool({
  name: 'Glob',
  description,
  constants: { MAX_RESULTS: GLOB_MAX_RESULTS },
  schema,
  readOnly: true,
  defaultApproval: 'auto',
  subject: (args, ctx) => `Glob(${globTarget(args, ctx).root})`,
  accesses: (args, ctx) => [{ kind: 'read', path: globTarget(args, ctx).root }],
  async execute(args, ctx) {
    const { root, glob } = globTarget(args, ctx);
    const display = pathDisplayer(ctx.cwd);
    let info;
    try {
      info = await stat(root);
    } catch {
      return error(`Path not found: ${root}. Give an existing folder as path (default: the working directory).`);
    }
    if (glob === '') {
      if (info.isFile())
        return isSensitivePath(root)
          ? { content: 'No files found (sensitive files are never listed).' }
          : { content: display(root) };
      return error(
        `"${args.pattern}" has no wildcard and names a folder; to list its files use a pattern like "${toPosix(join(args.pattern, '**', '*'))}".`,
      );
    }
    if (!info.isDirectory())
      return error(
        `${root} is a file, not a folder; Glob searches folders (give the folder as path, or use Read for the file).`,
      );

    let sensitive = 0;
    const found = await walkMatchingFiles({
      root,
      matches: globMatcher(glob),
      maxDepth: globMaxDepth(glob),
      ignore: args.include_ignored ? undefined : ignoreFramesAbove(root, ctx.cwd),
      signal: ctx.signal,
      onSensitive: () => sensitive++,
    });

    // Symlinks are listed without being followed; stat follows them, and keeps those that lead to files.
    const times = await modifiedTimes(found, { filesOnly: true, signal: ctx.signal });
    const files: Array<{ path: string; mtime: number }> = [];
    for (let i = 0; i < found.length; i++) {
      const mtime = times[i];
      if (mtime !== undefined) files.push({ path: found[i], mtime });
    }
    files.sort((a, b) => b.mtime - a.mtime || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    const notes = sensitive > 0 ? [sensitiveSkippedNote(sensitive)] : [];
    if (files.length === 0) {
      return {
        content: [`No files found matching "${args.pattern}" in ${display(root)}.`, ...notes].join('\n'),
        summary: 'No files',
      };
    }
    const lines = files.slice(0, GLOB_MAX_RESULTS).map((f) => display(f.path));
    if (files.length > GLOB_MAX_RESULTS) {
      notes.unshift(
        `[Found ${files.length} files; showing the ${GLOB_MAX_RESULTS} most recently modified. Narrow the pattern or path to see the others.]`,
      );
    }
    if (notes.length) lines.push('', ...notes);
    return { content: lines.join('\n'), summary: `Found ${files.length} file${files.length === 1 ? '' : 's'}` };
  },
});
