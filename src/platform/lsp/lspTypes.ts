// The parts of the LSP 3.17 types the client reads (https://microsoft.github.io/language-server-protocol/): positions
// are 0-based lines and UTF-16 columns; docs/lsp.md says how they become the 1-based file:line:column the model sees.

export interface LspPosition {
  line: number;
  character: number;
}

export interface LspRange {
  start: LspPosition;
  end: LspPosition;
}

/** 1 error, 2 warning, 3 information, 4 hint. */
export type LspSeverity = 1 | 2 | 3 | 4;

export interface LspDiagnostic {
  range: LspRange;
  severity?: LspSeverity;
  code?: string | number;
  source?: string;
  message: string;
}

export interface LspLocation {
  uri: string;
  range: LspRange;
}

export interface LspLocationLink {
  targetUri: string;
  targetRange: LspRange;
  targetSelectionRange: LspRange;
}

export interface LspDocumentSymbol {
  name: string;
  kind: number;
  range: LspRange;
  selectionRange: LspRange;
  children?: LspDocumentSymbol[];
}

export interface LspSymbolInformation {
  name: string;
  kind: number;
  location: LspLocation | { uri: string };
  containerName?: string;
}

export interface LspHover {
  contents: string | { kind?: string; language?: string; value: string } | Array<string | { value: string }>;
  range?: LspRange;
}
