// Bundled by bench/lsp.bench.mjs: the session's language-server manager, as the engine uses it.
export { LspManager } from '../src/platform/lsp/lspManager';
export { DEFAULT_LSP_SETTINGS } from '../src/platform/lsp/lspServers';
export { snapshotBeforeBash, withBashErrors } from '../src/tools/lsp/bashDiagnostics';
