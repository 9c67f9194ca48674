// Glob: files whose path matches a pattern, newest first. Walks with fdir, matches with picomatch,
// honours ignore files through IgnoreRules; secrets and VCS folders are never listed.
import { stat } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import { fdir } from 'fdir';
import picomatch from 'picomatch';
import { z } from 'zod';
import { defineTool, type ToolContext, type ToolResult } from '../defineTool';
import { IgnoreRules } from './ignoreRules';
import { canonicalPath, isWithin, PathRejectedError, pathDisplayer, resolveToolPath } from './pathPolicy';
import { isSensitivePath, isVcsDirName } from './sensitivePaths';
import description from './glob.md';

export const GLOB_MAX_RESULTS = 100;

const schema = z.object({
  pattern: z.string().min(1, { error: 'pattern is empty: give a glob such as "**/*.ts"' }).describe('Glob pattern, e.g. "**/*.ts" or "src/**/*.{ts,tsx}".'),
  path: z.string().optional().describe('Folder to search (default: the working directory).'),
  include_ignored: z.boolean().default(false).describe('Also list files ignored by .gitignore/.ignore/.rgignore.'),
});
type GlobArgs = z.infer<typeof schema>;

function error(content: string): ToolResult {
  return { content, isError: true };
}

function toPosix(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}

/** Splits the pattern's literal leading folders off into the walk root, so `src/**` walks only src. */
export function globTarget(args: Pick<GlobArgs, 'pattern' | 'path'>, ctx: Pick<ToolContext, 'cwd' | 'resolve'>): { root: string; glob: string } {
  const scan = picomatch.scan(args.pattern);
  const glob = scan.isGlob ? scan.glob : '';
  const base = scan.isGlob ? scan.base : args.pattern;
  if (isAbsolute(args.pattern)) return { root: resolveToolPath(ctx, base || '/'), glob };
  const from = args.path ?? '.';
  const folder = base ? join(from, base) : from;
  try {
    return { root: resolveToolPath(ctx, folder), glob };
  } catch (e) {
    if (!(e instanceof PathRejectedError)) throw e;
    const absolute = canonicalPath(ctx.resolve(folder));
    throw new PathRejectedError(
      `Glob: "${folder}" leads outside the working directory ${canonicalPath(ctx.cwd)}. Folders outside it must be absolute: ` +
        `call again with path="${absolute}" and pattern="${glob || '**/*'}".`,
    );
  }
}

/** The highest folder whose ignore files apply: cwd when the walk is inside it (and not in an ignored part). */
function ignoreTop(root: string, cwd: string): IgnoreRules {
  const top = canonicalPath(cwd);
  if (isWithin(root, top)) {
    const fromCwd = new IgnoreRules(top);
    if (!fromCwd.isIgnored(root, true)) return fromCwd;
  }
  return new IgnoreRules(root);
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
      if (info.isFile()) return isSensitivePath(root) ? { content: 'No files found (sensitive files are never listed).' } : { content: display(root) };
      return error(`"${args.pattern}" has no wildcard and names a folder; to list its files use a pattern like "${toPosix(join(args.pattern, '**', '*'))}".`);
    }
    if (!info.isDirectory()) return error(`${root} is a file, not a folder; Glob searches folders (give the folder as path, or use Read for the file).`);

    const matches = picomatch(glob, { dot: true });
    const rules = args.include_ignored ? undefined : ignoreTop(root, ctx.cwd);
    const found = await new fdir()
      .withFullPaths()
      .withAbortSignal(ctx.signal)
      .exclude((name, dirPath) => isVcsDirName(name) || (rules?.isIgnored(dirPath.replace(/[\\/]+$/, ''), true) ?? false))
      .filter((path) => matches(toPosix(relative(root, path))) && !isSensitivePath(path) && !(rules?.isIgnored(path, false) ?? false))
      .crawl(root)
      .withPromise();
    ctx.signal.throwIfAborted();

    // fdir reports symlinks as entries without following them; keep those that lead to files.
    const stats = await Promise.all(found.map((p) => stat(p).then((s) => (s.isFile() ? s.mtimeMs : undefined), () => undefined)));
    const files = found
      .map((path, i) => ({ path, mtime: stats[i] }))
      .filter((f): f is { path: string; mtime: number } => f.mtime !== undefined)
      .sort((a, b) => b.mtime - a.mtime || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    if (files.length === 0) {
      return { content: `No files found matching "${args.pattern}" in ${display(root)}.`, summary: 'No files' };
    }
    const shown = files.slice(0, GLOB_MAX_RESULTS).map((f) => display(f.path));
    const lines = [...shown];
    if (files.length > GLOB_MAX_RESULTS) {
      lines.push('', `[Found ${files.length} files; showing the ${GLOB_MAX_RESULTS} most recently modified. Narrow the pattern or path to see the others.]`);
    }
    return { content: lines.join('\n'), summary: `Found ${files.length} file${files.length === 1 ? '' : 's'}` };
  },
});
