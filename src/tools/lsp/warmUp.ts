// The warm-up on Read and Grep (docs/lsp.md "Servers"): the first file of a language the model reads or greps into
// starts that language's server in the background, so the first edit finds it ready; once it runs, read files are
// opened in it, so their diagnostics are known before an edit. The tool's result never waits for it.
import { resolve } from 'node:path';
import type { ToolContext } from '../defineTool';
import { LSP_SERVICE } from './lspService';

/** Grep matches many files: only the first few are opened. */
export const WARM_MAX_FILES = 3;

export function warmServersFor(ctx: ToolContext<typeof LSP_SERVICE>, paths: Iterable<string>): void {
  const lsp = ctx.services.find(LSP_SERVICE);
  if (!lsp || !lsp.settings.enabled) return;
  const picked = new Set<string>();
  for (const p of paths) {
    if (picked.size >= WARM_MAX_FILES) break;
    picked.add(resolve(ctx.cwd, p));
  }
  if (picked.size === 0) return;
  // After the result is handed back: starting a server spawns a process, which the result does not wait for.
  setImmediate(() => {
    for (const path of picked) lsp.warm(path);
  });
}
