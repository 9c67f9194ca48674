// Lsp: definitions, references, hover, symbols and diagnostics from the session's language servers (docs/lsp.md).
// Read-only; the server for the file's language starts on first use.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { LspDiagnostic, LspDocumentSymbol, LspHover, LspSymbolInformation } from '../../platform/lsp/lspTypes';
import { fileUri, type LspClient } from '../../platform/lsp/lspClient';
import { defineTool, type ToolResult } from '../defineTool';
import { fileAccess } from '../file/checkedOpen';
import { resolveToolPath } from '../file/pathPolicy';
import { boundedLines, formatDiagnostic, shownPath } from './diagnosticLines';
import {
  flattenSymbols,
  formatLocation,
  formatSymbolInformation,
  hoverText,
  LineSource,
  normaliseLocations,
} from './lspFormat';
import { LSP_SERVICE } from './lspService';
import description from './lsp.md';

export const MAX_RESULTS = 100;
export const MAX_HOVER_CHARS = 4_000;
const MAX_OUTPUT_BYTES = 32 * 1024;
/** How long one call waits for a server (its start included) on a loaded machine. */
export const LSP_CALL_TIMEOUT_MS = 60_000;

const OPERATIONS = [
  'definition',
  'references',
  'hover',
  'document_symbols',
  'workspace_symbols',
  'diagnostics',
] as const;
const AT_POSITION = new Set(['definition', 'references', 'hover']);

const schema = z
  .object({
    operation: z.enum(OPERATIONS),
    path: z.string(),
    line: z.number().int().min(1).optional(),
    column: z.number().int().min(1).optional(),
    query: z.string().optional(),
    offset: z.number().int().min(0).default(0),
  })
  .refine((a) => !AT_POSITION.has(a.operation) || (a.line !== undefined && a.column !== undefined), {
    error: 'definition, references and hover need line and column (1-based) of the symbol in path',
    path: ['line'],
  })
  .refine((a) => a.operation !== 'workspace_symbols' || !!a.query?.trim(), {
    error: 'workspace_symbols needs a query (part of a symbol name)',
    path: ['query'],
  });

const error = (content: string): ToolResult => ({ content, isError: true });

function paged(lines: string[], offset: number, what: string): ToolResult {
  if (lines.length === 0) return { content: `No ${what} found.`, summary: `0 ${what}` };
  const page = lines.slice(offset, offset + MAX_RESULTS);
  const shown = boundedLines(page, MAX_RESULTS, MAX_OUTPUT_BYTES).filter((l) => !l.endsWith('more not shown)'));
  const next = offset + shown.length;
  const more = next < lines.length ? `\n(${lines.length - next} more: call again with offset ${next})` : '';
  return { content: `${lines.length} ${what}:\n${shown.join('\n')}${more}`, summary: `${lines.length} ${what}` };
}

/** Operations whose answer covers the whole project: they wait until the server has loaded it. */
const PROJECT_WIDE = new Set(['references', 'workspace_symbols']);

const withNote = (result: ToolResult, note: string): ToolResult =>
  note ? { ...result, content: `${String(result.content)}\n\n${note}` } : result;

/**
 * Waits (up to `waitMs`) until the server has checked `path` and finished loading its project; a note saying why the
 * answer may be partial when it did not, or when TypeScript has no project file to load (docs/lsp.md).
 */
async function projectNote(client: LspClient, path: string, text: string, waitMs: number, cwd: string) {
  const settled = await client.settled(path, text, Date.now() + waitMs);
  if (!settled)
    return (
      `(Partial: the ${client.launch.name} language server was still loading the project after ` +
      `${Math.round(waitMs / 1000)} s, so files it had not loaded are missing. Ask again in a moment.)`
    );
  const root = client.launch.root;
  if (client.launch.name === 'typescript' && !['tsconfig.json', 'jsconfig.json'].some((f) => existsSync(join(root, f))))
    return (
      `(Partial: ${root === cwd ? 'the session folder' : shownPath(root, cwd)} has no tsconfig.json or jsconfig.json, so TypeScript knows only the ` +
      'files opened so far and what they import; files that are never imported from them are missing.)'
    );
  return '';
}

export const lspTool = defineTool({
  name: 'Lsp',
  services: [LSP_SERVICE],
  // Used when the model needs exact navigation; every request would otherwise pay for its schema (docs/tools.md).
  deferred: true,
  description,
  constants: { MAX_RESULTS, MAX_HOVER_CHARS },
  schema,
  readOnly: true,
  defaultApproval: 'auto',
  subject: (args, ctx) => `Lsp(${resolveToolPath(ctx, args.path)})`,
  accesses: (args, ctx) => [fileAccess('read', resolveToolPath(ctx, args.path))],
  async execute(args, ctx) {
    const lsp = ctx.services.get(LSP_SERVICE);
    const path = resolveToolPath(ctx, args.path);
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return error(`${path} does not exist; give a file of the project (Glob finds files).`);
      return error(`Could not read ${path}: ${(e as Error).message}`);
    }
    const client = lsp.clientFor(path);
    if (!client) return error(lsp.whyUnavailable(path));
    const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(LSP_CALL_TIMEOUT_MS)]);
    try {
      await Promise.race([
        client.ready,
        new Promise((_, reject) =>
          signal.addEventListener('abort', () => reject(new Error('timed out')), { once: true }),
        ),
      ]);
    } catch {
      // `ready` rejected (the failure is in whyUnavailable) or the wait ended first.
      if (client.failure) return error(lsp.whyUnavailable(path));
      return error(`The ${client.launch.name} language server did not start within ${LSP_CALL_TIMEOUT_MS / 1000} s.`);
    }
    const textDocument = { uri: fileUri(path) };
    const position = { line: (args.line ?? 1) - 1, character: (args.column ?? 1) - 1 };
    const lines = new LineSource();
    try {
      if (args.operation === 'diagnostics') {
        const found = await client.sync(path, text, Date.now() + LSP_CALL_TIMEOUT_MS);
        const all = found ?? client.published(path);
        if (!all) return error(`The ${client.launch.name} server sent no diagnostics for ${path} in time; try again.`);
        const shown = shownPath(path, ctx.cwd);
        const severity = (d: LspDiagnostic) => ['', 'error', 'warning', 'info', 'hint'][d.severity ?? 1];
        return paged(
          all.map((d) => `- ${severity(d)} ${formatDiagnostic(d, shown)}`),
          args.offset,
          'diagnostics',
        );
      }
      client.update(path, text);
      // Answers about the whole project are complete only once it is loaded: they wait for it, or say they are partial.
      const partial = PROJECT_WIDE.has(args.operation)
        ? await projectNote(client, path, text, lsp.settings.firstDiagnosticsWaitMs, ctx.cwd)
        : '';
      if (args.operation === 'definition' || args.operation === 'references') {
        const method = args.operation === 'definition' ? 'textDocument/definition' : 'textDocument/references';
        const params = {
          textDocument,
          position,
          ...(args.operation === 'references' ? { context: { includeDeclaration: true } } : {}),
        };
        const found = normaliseLocations(await client.request(method, params, signal));
        const what = args.operation === 'definition' ? 'definitions' : 'references';
        return withNote(
          paged(
            found.map((l) => `- ${formatLocation(l, ctx.cwd, lines)}`),
            args.offset,
            what,
          ),
          partial,
        );
      }
      if (args.operation === 'hover') {
        const hover = await client.request<LspHover | null>('textDocument/hover', { textDocument, position }, signal);
        const body = hoverText(hover);
        if (!body) return { content: `Nothing to show at ${shownPath(path, ctx.cwd)}:${args.line}:${args.column}.` };
        const cut = body.length > MAX_HOVER_CHARS ? `${body.slice(0, MAX_HOVER_CHARS)}\n(cut)` : body;
        return { content: cut, summary: 'hover' };
      }
      if (args.operation === 'document_symbols') {
        const symbols = await client.request<Array<LspDocumentSymbol | LspSymbolInformation> | null>(
          'textDocument/documentSymbol',
          { textDocument },
          signal,
        );
        const list = symbols ?? [];
        const out = list.flatMap((s) =>
          'location' in s ? [formatSymbolInformation(s, ctx.cwd)] : flattenSymbols([s], path, ctx.cwd),
        );
        return paged(out, args.offset, 'symbols');
      }
      const found = await client.request<LspSymbolInformation[] | null>(
        'workspace/symbol',
        { query: args.query },
        signal,
      );
      return withNote(
        paged(
          (found ?? []).map((s) => formatSymbolInformation(s, ctx.cwd)),
          args.offset,
          'symbols',
        ),
        partial,
      );
    } catch (e) {
      return error(
        `The ${client.launch.name} language server could not answer ${args.operation}: ${(e as Error).message}`,
      );
    }
  },
});
