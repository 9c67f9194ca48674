// The code intelligence tool group: Lsp. The service is the session's LspManager (lspService.ts).
import type { Tool } from '../defineTool';
import { lspTool } from './lspTool';

export { lspTool };
export { LSP_SERVICE } from './lspService';
export const lspTools: Tool[] = [lspTool];
