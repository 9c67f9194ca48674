// The post-edit step of Write and Edit (docs/lsp.md "Diagnostics after edits"): the language server's errors that
// the change introduced are appended to the result, bounded in count and bytes. Nothing is added when no server
// serves the file, it is missing, or it does not answer within [lsp] diagnostics_wait_ms.
import { relative, isAbsolute } from 'node:path';
import type { LspDiagnostic } from '../../platform/lsp/lspTypes';
import type { ToolContext, ToolResult } from '../defineTool';
import { LSP_SERVICE } from './lspService';

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

/** Appends the new errors of a successful Write/Edit whose result carries the before/after diff. */
export async function withNewErrors(result: ToolResult, ctx: ToolContext<typeof LSP_SERVICE>): Promise<ToolResult> {
  const lsp = ctx.services.find(LSP_SERVICE);
  const diff = result.display?.kind === 'diff' ? result.display : undefined;
  if (!lsp || result.isError || !diff || typeof result.content !== 'string' || ctx.signal.aborted) return result;
  const { path, before, after } = diff;
  const errors = await lsp.errorsAfterEdit(path, before, after, Date.now() + lsp.settings.diagnosticsWaitMs);
  if (!errors) return result;
  const count = errors.length;
  const withCount = { ...result, diagnostics: { errors: count } };
  if (count === 0) return withCount;
  const shown = shownPath(path, ctx.cwd);
  const lines = boundedLines(
    errors.map((d) => `- ${formatDiagnostic(d, shown)}`),
    lsp.settings.maxDiagnostics,
    lsp.settings.maxDiagnosticBytes,
  );
  const head = `\n\nThis change introduced ${count} new error${count === 1 ? '' : 's'} (language server):`;
  return {
    ...withCount,
    diagnostics: { errors: count, lines },
    content: `${result.content}${head}\n${lines.join('\n')}`,
  };
}
