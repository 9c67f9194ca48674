// Claude Code's `@path` imports in CLAUDE.md files (docs/compatibility.md "Imports in CLAUDE.md"): `@relative/path`,
// `@~/path` and `@/abs/path`, on their own line or inside text, relative to the file that holds them. An import
// inside an inline code span or a fenced code block is text. Imported files may import again, at most
// CLAUDE_IMPORT_MAX_HOPS deep; a file already on the chain is not imported again (a cycle). Each imported file is put
// right after the line that names it. The imports are confined: only files inside the project or the user's home,
// never a file the file tools treat as secret (`.env*`, keys, credentials — tools/file/sensitivePaths.ts), whether
// named directly or reached through a symlink. What is not imported is a warning naming the file and line, never a
// failure of the launch.
import { closeSync, openSync, readSync, realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { isSensitivePath } from '../../tools/file/sensitivePaths';

/** How many imports deep a chain may go (Claude Code's documented limit). */
export const CLAUDE_IMPORT_MAX_HOPS = 5;

export interface ClaudeImportOptions {
  /** The user's home (`@~/…`); imports may reach files under it. */
  home: string;
  /** The project root; imports may reach files under it. */
  projectRoot: string;
  /** Bytes the expanded text may reach; imports past it are not read (the caller cuts with its notice). */
  maxBytes: number;
}

export interface ClaudeImportResult {
  text: string;
  /** The files imported, in order (real paths). */
  imported: string[];
  /** `claude-import-<why>: <file>:<line>: …` — one per import not made. */
  warnings: string[];
}

/** `@` at the start of a line or after white space, then a path up to the next white space. */
const IMPORT = /(^|\s)@([^\s@`]+)/g;
/** Punctuation that ends a sentence rather than a path: `see @docs/style.md.` */
const TRAILING = /[.,;:!?)\]}>"']+$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

function realOrUndefined(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch (e) {
    // Missing, or a folder of the path is a file: nothing to import. Anything else is for the caller to see.
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP') return undefined;
    throw e;
  }
}

function within(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}

/** The first `max` bytes of a file (whole when smaller), without reading the rest. */
function readHead(path: string, max: number): string {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(Math.max(0, max));
    let got = 0;
    while (got < buf.length) {
      const n = readSync(fd, buf, got, buf.length - got, got);
      if (n === 0) break;
      got += n;
    }
    return buf.subarray(0, got).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** The line with its inline code spans blanked out (same length), so an `@x` in them is not seen. */
function withoutCodeSpans(line: string): string {
  return line.replace(/(`+)(?:(?!\1)[\s\S])*?\1/g, (m) => ' '.repeat(m.length));
}

/** `text` with its HTML comments blanked out (newlines kept), so an import hidden in one is not seen. */
function withoutHtmlComments(text: string): string {
  return text.replace(/<!--[\s\S]*?(?:-->|$)/g, (m) => m.replace(/[^\n]/g, ' '));
}

/** The import paths of `text`, with their line numbers, outside code spans, fenced blocks and HTML comments. */
export function findClaudeImports(text: string): Array<{ line: number; path: string }> {
  const out: Array<{ line: number; path: string }> = [];
  let fence: string | undefined;
  withoutHtmlComments(text)
    .split('\n')
    .forEach((line, i) => {
      const f = FENCE.exec(line);
      if (f) {
        const mark = f[1];
        if (fence === undefined) fence = mark;
        else if (mark[0] === fence[0] && mark.length >= fence.length && line.trim() === mark) fence = undefined;
        return;
      }
      if (fence !== undefined) return;
      for (const m of withoutCodeSpans(line).matchAll(IMPORT)) {
        const path = m[2].replace(TRAILING, '');
        if (path) out.push({ line: i + 1, path });
      }
    });
  return out;
}

function target(path: string, from: string, home: string): string {
  if (path === '~' || path.startsWith('~/')) return join(home, path.slice(1));
  return isAbsolute(path) ? path : resolve(from, path);
}

/** Expands the imports of `text`, the content of `file` (a CLAUDE.md). Never throws for a bad import. */
export function expandClaudeImports(file: string, text: string, opts: ClaudeImportOptions): ClaudeImportResult {
  // A home or project that is `/` (a service account, a launch from the root) would confine nothing: not a root.
  const roots = [opts.projectRoot, opts.home].map((d) => realOrUndefined(d) ?? d).filter((d) => d !== sep);
  const imported: string[] = [];
  const warnings: string[] = [];
  let left = opts.maxBytes - Buffer.byteLength(text);
  let cut = 0;
  const rootReal = realOrUndefined(file) ?? file;
  // A chain that starts in the project (a repository the user opened) is the repository's author's, not the
  // user's: it may not reach the home's hidden files (`~/.bash_history`, `~/.ssh/config`) but for ~/.claude/.
  const [project, home] = [opts.projectRoot, opts.home].map((d) => realOrUndefined(d) ?? d);
  const fromProject = project !== sep && home !== sep && project !== home && within(rootReal, project);
  const hiddenInHome = (real: string): boolean => {
    if (!within(real, home) || within(real, project)) return false;
    const segments = real.slice(home.length).split(sep).filter(Boolean);
    return segments.some((seg, i) => seg.startsWith('.') && !(i === 0 && seg === '.claude'));
  };

  const expand = (path: string, body: string, chain: string[]): string => {
    const imports = findClaudeImports(body);
    if (!imports.length) return body;
    const real = chain[chain.length - 1];
    const byLine = new Map<number, string[]>();
    for (const imp of imports) {
      const where = `${path}:${imp.line}: @${imp.path}`;
      const add = (block: string) => byLine.set(imp.line, [...(byLine.get(imp.line) ?? []), block]);
      try {
        importOne(imp.path, where, real, chain, add);
      } catch (e) {
        // A file that exists and cannot be read (permissions, a race): said, and the launch goes on without it.
        warnings.push(`claude-import-unreadable: ${where}: ${(e as Error).message}; not imported`);
      }
    }
    if (!byLine.size) return body;
    return body
      .split('\n')
      .flatMap((line, i) => [line, ...(byLine.get(i + 1) ?? [])])
      .join('\n');
  };

  const importOne = (
    written: string,
    where: string,
    real: string,
    chain: string[],
    add: (block: string) => void,
  ): void => {
    const dest = target(written, dirname(real), opts.home);
    const destReal = realOrUndefined(dest);
    // A bare word (`@alice`, `@param`) is an import only when such a file exists.
    if (destReal === undefined && !/[./~]/.test(written)) return;
    if (isSensitivePath(dest) || (destReal !== undefined && isSensitivePath(destReal))) {
      warnings.push(`claude-import-refused: ${where}: a secret file (.env, key, credentials) is never imported`);
      return;
    }
    if (destReal === undefined) {
      warnings.push(`claude-import-missing: ${where}: no such file (${dest}); the line is kept as text`);
      return;
    }
    if (fromProject && hiddenInHome(destReal)) {
      warnings.push(
        `claude-import-refused: ${where}: ${destReal} is a hidden file or folder of the home folder; a project's ` +
          'files import from the home only outside hidden folders, or under ~/.claude/',
      );
      return;
    }
    if (!roots.some((r) => within(destReal, r))) {
      warnings.push(
        `claude-import-refused: ${where}: ${destReal} is outside the project and the home folder; not imported`,
      );
      return;
    }
    if (!statSync(destReal).isFile()) {
      warnings.push(`claude-import-missing: ${where}: ${destReal} is not a file; the line is kept as text`);
      return;
    }
    if (chain.includes(destReal)) {
      warnings.push(`claude-import-cycle: ${where}: ${destReal} is already being imported; not imported again`);
      return;
    }
    if (chain.length > CLAUDE_IMPORT_MAX_HOPS) {
      warnings.push(`claude-import-depth: ${where}: imports go at most ${CLAUDE_IMPORT_MAX_HOPS} hops deep`);
      return;
    }
    if (left <= 0 && cut > 0) {
      // Said once in all, so a file of 1000 imports cannot grow the text past its budget by notices.
      cut++;
      return;
    }
    if (left <= 0) {
      cut++;
      warnings.push(`claude-import-cut: ${where}: the ${opts.maxBytes}-byte budget of instruction files is spent`);
      add(`[not imported: ${destReal} — the instruction budget is spent; read it with the Read tool]`);
      return;
    }
    // One byte past the budget, so that a file cut here still shows as cut (the caller adds the notice).
    const head = readHead(destReal, left + 1);
    imported.push(destReal);
    const open = `<imported path="${destReal}">\n`;
    const close = '\n</imported>';
    left -= Buffer.byteLength(head) + open.length + close.length;
    add(`${open}${expand(dest, head.trim(), [...chain, destReal])}${close}`);
  };

  const expanded = expand(file, text, [rootReal]);
  if (cut > 1) warnings.push(`claude-import-cut: ${file}: ${cut - 1} more imports were not made; the budget is spent`);
  return { text: expanded, imported, warnings };
}
