// How a language server's diagnostics read in a tool result (docs/lsp.md): `path:line:column: message [source code]`,
// paths relative to the session folder, bounded in count and bytes. Used by the Lsp tool and by the check after edits
// and commands (engine/extensions/lspDiagnostics.ts).
import { relative, isAbsolute } from 'node:path';
import type { LspDiagnostic } from '../../platform/lsp/lspTypes';

/** `path` as the model should pass it back to Read: relative to the session folder when inside it. */
export function shownPath(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
}

export function formatDiagnostic(d: LspDiagnostic, shown: string): string {
  const code = d.code === undefined ? '' : ` [${d.source ? `${d.source} ` : ''}${d.code}]`;
  const where = `${shown}:${d.range.start.line + 1}:${d.range.start.character + 1}`;
  return `${where}: ${d.message.replace(/\s*\n\s*/g, ' ')}${code}`;
}

/** Lines for `errors`, at most `maxCount` of them and `maxBytes` in all, with a closing count of the rest. */
export function boundedLines(lines: readonly string[], maxCount: number, maxBytes: number): string[] {
  const kept: string[] = [];
  let bytes = 0;
  for (const line of lines.slice(0, maxCount)) {
    const size = Buffer.byteLength(line, 'utf8') + 1;
    if (bytes + size > maxBytes) break;
    kept.push(line);
    bytes += size;
  }
  if (kept.length < lines.length) kept.push(`(${lines.length - kept.length} more not shown)`);
  return kept;
}
