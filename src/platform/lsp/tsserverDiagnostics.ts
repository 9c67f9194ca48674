// typescript-language-server publishes nothing when a file's diagnostics stay empty, so a client waiting for a
// publication cannot tell "no errors" from "not done yet". For it the diagnostics are asked for instead, through its
// `typescript.tsserverRequest` command, which answers after tsserver has seen the preceding change (docs/lsp.md).
import type { LspDiagnostic, LspSeverity } from './lspTypes';

export type LspRequest = <T>(method: string, params: unknown, signal?: AbortSignal) => Promise<T>;

interface TsDiagnostic {
  start: { line: number; offset: number };
  end: { line: number; offset: number };
  text: string;
  code?: number;
  category?: string;
}

const SEVERITY: Record<string, LspSeverity> = { error: 1, warning: 2, suggestion: 4, message: 3 };

function toLsp(d: TsDiagnostic): LspDiagnostic {
  return {
    range: {
      start: { line: d.start.line - 1, character: d.start.offset - 1 },
      end: { line: d.end.line - 1, character: d.end.offset - 1 },
    },
    severity: SEVERITY[d.category ?? 'error'] ?? 1,
    ...(d.code === undefined ? {} : { code: d.code }),
    source: 'typescript',
    message: d.text,
  };
}

async function ask(request: LspRequest, command: string, path: string, signal: AbortSignal): Promise<TsDiagnostic[]> {
  const response = await request<{ body?: unknown } | null>(
    'workspace/executeCommand',
    { command: 'typescript.tsserverRequest', arguments: [command, { file: path }] },
    signal,
  );
  const body = response?.body;
  if (!Array.isArray(body)) throw new Error(`tsserver's ${command} answered without a list of diagnostics`);
  return body as TsDiagnostic[];
}

export async function pullTypescriptDiagnostics(
  request: LspRequest,
  path: string,
  signal: AbortSignal,
): Promise<LspDiagnostic[]> {
  const [syntactic, semantic] = await Promise.all([
    ask(request, 'syntacticDiagnosticsSync', path, signal),
    ask(request, 'semanticDiagnosticsSync', path, signal),
  ]);
  return [...syntactic, ...semantic].map(toLsp);
}
