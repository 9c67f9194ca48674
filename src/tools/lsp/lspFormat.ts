// How the Lsp tool shows what a language server answers (docs/lsp.md): 1-based path:line:column the model can pass
// to Read, with the line's text, symbols as an indented outline.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type {
  LspDocumentSymbol,
  LspHover,
  LspLocation,
  LspLocationLink,
  LspSymbolInformation,
} from '../../platform/lsp/lspTypes';
import { shownPath } from './diagnosticLines';

const SYMBOL_KINDS = [
  '',
  'file',
  'module',
  'namespace',
  'package',
  'class',
  'method',
  'property',
  'field',
  'constructor',
  'enum',
  'interface',
  'function',
  'variable',
  'constant',
  'string',
  'number',
  'boolean',
  'array',
  'object',
  'key',
  'null',
  'enum member',
  'struct',
  'event',
  'operator',
  'type parameter',
];
const LINE_TEXT_CHARS = 200;

export const symbolKind = (kind: number): string => SYMBOL_KINDS[kind] ?? `kind ${kind}`;

/** Reads each file once per answer, for the text of the lines shown. */
export class LineSource {
  private readonly files = new Map<string, string[] | undefined>();
  line(path: string, line: number): string | undefined {
    if (!this.files.has(path)) {
      let lines: string[] | undefined;
      try {
        lines = readFileSync(path, 'utf8').split(/\r?\n/);
      } catch (e) {
        // A location in a file we cannot read (a library's file gone since) is still shown, without its text.
        if (!['ENOENT', 'EACCES', 'EISDIR'].includes((e as NodeJS.ErrnoException).code ?? '')) throw e;
        lines = undefined;
      }
      this.files.set(path, lines);
    }
    return this.files.get(path)?.[line];
  }
}

export function uriPath(uri: string): string {
  return uri.startsWith('file:') ? fileURLToPath(uri) : uri;
}

export function normaliseLocations(answer: unknown): LspLocation[] {
  if (!answer) return [];
  const list = (Array.isArray(answer) ? answer : [answer]) as Array<LspLocation | LspLocationLink>;
  return list.map((l) => ('targetUri' in l ? { uri: l.targetUri, range: l.targetSelectionRange } : l));
}

export function formatLocation(l: LspLocation, cwd: string, lines: LineSource): string {
  const path = uriPath(l.uri);
  const where = `${shownPath(path, cwd)}:${l.range.start.line + 1}:${l.range.start.character + 1}`;
  const text = lines.line(path, l.range.start.line)?.trim().slice(0, LINE_TEXT_CHARS);
  return text ? `${where}: ${text}` : where;
}

export function flattenSymbols(symbols: LspDocumentSymbol[], path: string, cwd: string, depth = 0): string[] {
  return symbols.flatMap((s) => [
    `${'  '.repeat(depth)}- ${s.name} (${symbolKind(s.kind)}) ` +
      `${shownPath(path, cwd)}:${s.selectionRange.start.line + 1}:${s.selectionRange.start.character + 1}`,
    ...flattenSymbols(s.children ?? [], path, cwd, depth + 1),
  ]);
}

export function formatSymbolInformation(s: LspSymbolInformation, cwd: string): string {
  const path = shownPath(uriPath(s.location.uri), cwd);
  const where =
    'range' in s.location ? `${path}:${s.location.range.start.line + 1}:${s.location.range.start.character + 1}` : path;
  return `- ${s.name} (${symbolKind(s.kind)}${s.containerName ? ` in ${s.containerName}` : ''}) ${where}`;
}

export function hoverText(hover: LspHover | null): string {
  if (!hover) return '';
  const parts = Array.isArray(hover.contents) ? hover.contents : [hover.contents];
  return parts
    .map((p) => (typeof p === 'string' ? p : p.value))
    .join('\n\n')
    .trim();
}
