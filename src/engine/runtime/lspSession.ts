// Part of step 4 of openRuntime (sharedServices.ts): the session's language servers (docs/lsp.md), lent to Write,
// Edit and the Lsp tool. Nothing starts here; a server starts on the first file of its language and is stopped when
// the session closes. A missing or failing server is one notice for the session.
import { LspManager } from '../../platform/lsp/lspManager';
import type { LspSettings } from '../../platform/lsp/lspServers';
import { LSP_SERVICE } from '../../tools/lsp';
import { MAIN_AGENT_ID } from '../loop/events';
import type { Assembly } from './assembly';
import { isWorkspaceTrusted } from '../../store/trust';

/** How long a closing session waits for each server to answer shutdown and exit (force: a hard quit). */
const STOP_GRACE_MS = 2_000;
const FORCED_STOP_GRACE_MS = 200;

export function lendLanguageServers(a: Assembly, shared: Map<string, unknown>, settings: LspSettings): LspManager {
  const manager = new LspManager(settings, {
    cwd: a.opts.cwd,
    env: process.env,
    // Read at each first need: trusting the folder mid-session lets its servers start.
    trusted: () => isWorkspaceTrusted(a.opts.home, a.opts.cwd),
    onNotice: (text) => a.emit({ type: 'notice', level: 'info', text, agentId: MAIN_AGENT_ID }),
  });
  shared.set(LSP_SERVICE.name, manager);
  a.disposables.add({
    name: 'language servers',
    dispose: ({ force }) => manager.close(force ? FORCED_STOP_GRACE_MS : STOP_GRACE_MS),
  });
  return manager;
}
