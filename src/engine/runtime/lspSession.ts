// Part of step 4 of openRuntime (sharedServices.ts): the session's language servers (docs/lsp.md), lent to the Lsp
// tool and checked after tools by the diagnostics extension (extensions/lspDiagnostics.ts). When the session opens in
// a trusted folder with a project file (tsconfig.json, package.json, pyproject.toml…) its servers start in the
// background; others start on the first file of their language. A server runs only for a trusted checkout, inside the
// sandbox where it runs; all are stopped when the session closes. A missing or failing server is one notice.
import { LspManager } from '../../platform/lsp/lspManager';
import type { LspSettings } from '../../platform/lsp/lspServers';
import { LSP_SERVICE } from '../../tools/lsp';
import { BOUNDARY_SERVICE, type CommandBoundary } from '../../tools/boundary/commandBoundary';
import { commandWritableRoots, languageServerSandbox } from '../../tools/boundary/languageServerSandbox';
import { isCheckoutTrusted } from '../../store/trust';
import { MAIN_AGENT_ID } from '../loop/events';
import type { Assembly } from './assembly';

/** How long a closing session waits for each server to answer shutdown and exit (force: a hard quit). */
const STOP_GRACE_MS = 2_000;
const FORCED_STOP_GRACE_MS = 200;

export function lendLanguageServers(
  a: Assembly,
  shared: Map<string, unknown>,
  settings: LspSettings,
  scratchDir: string,
): LspManager {
  const { cwd, home } = a.opts;
  // The session's trust boundary (sharedServices.ts): servers run inside its sandbox, read-only.
  const boundary = () => shared.get(BOUNDARY_SERVICE.name) as CommandBoundary | undefined;
  const folders = { workspace: [cwd, ...(a.opts.additionalDirs ?? [])], scratch: scratchDir, jarvisHome: home, home };
  const manager = new LspManager(settings, {
    cwd,
    env: a.opts.env ?? process.env,
    // Read at each first need: trusting the folder mid-session lets its servers start.
    trusted: (root) => isCheckoutTrusted(home, root),
    sandbox: () => languageServerSandbox(boundary()),
    writableRoots: () => commandWritableRoots(boundary(), folders),
    onNotice: (text) => a.emit({ type: 'notice', level: 'info', text, agentId: MAIN_AGENT_ID }),
  });
  shared.set(LSP_SERVICE.name, manager);
  a.disposables.add({
    name: 'language servers',
    dispose: ({ force }) => manager.close(force ? FORCED_STOP_GRACE_MS : STOP_GRACE_MS),
  });
  // After the session is open: starting a server spawns processes, which opening the session does not wait for.
  setImmediate(() => manager.warmProject());
  return manager;
}
