// Bundled by bench/lsp.bench.mjs: the session's language-server manager and the check after tools, as the engine uses
// them.
export { LspManager } from '../src/platform/lsp/lspManager';
export { DEFAULT_LSP_SETTINGS } from '../src/platform/lsp/lspServers';
export { lspDiagnosticsExtension } from '../src/engine/extensions/lspDiagnostics';
export { setWorkspaceTrust } from '../src/store/trust';
