// The session's language servers as tools reach them (docs/lsp.md): the engine lends one LspManager per session
// (engine/runtime/lspSession.ts); Edit and Write append new errors with it, the Lsp tool asks it for positions.
import type { LspManager } from '../../platform/lsp/lspManager';
import { serviceKey } from '../defineTool';

export const LSP_SERVICE = serviceKey<LspManager>()('lsp');
