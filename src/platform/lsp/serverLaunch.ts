// How a configured language server starts for a workspace root (docs/lsp.md, "Where servers run" and "When a server
// cannot run"): where its program comes from (lspPlacement.ts), whether that install can run here (lspInstall.ts), and
// the launch — inside the sandbox where one runs. The session's manager and `jarvis doctor --online` both start
// servers only through this.
import { checkInstall } from './lspInstall';
import type { LspLaunch } from './lspClient';
import { serverPlacement, type ServerSandbox } from './lspPlacement';
import { languageIdFor, type LspServerConfig } from './lspServers';
import { pullTypescriptDiagnostics } from './tsserverDiagnostics';

export type ServerLaunchPlan =
  | { ok: true; launch: LspLaunch }
  /** `missing`: not installed where it may run from; `unusable`: installed, but it cannot run here. */
  | { ok: false; state: 'missing' | 'unusable'; program?: string; why: string };

export interface LaunchContext {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** The sandbox servers run in; undefined where none can run. */
  sandbox: ServerSandbox | undefined;
  /**
   * The folders commands may write: nothing is run from them outside the sandbox (no `node` asked its version; without
   * a sandbox, no server program or project TypeScript).
   */
  writableRoots: readonly string[];
}

export function planServerLaunch(
  name: string,
  config: LspServerConfig,
  root: string,
  ctx: LaunchContext,
): ServerLaunchPlan {
  const placement = serverPlacement(name, config, root, ctx);
  if (!placement.ok) return { ok: false, state: 'missing', why: placement.why };
  const check = checkInstall(name, placement.program, root, ctx.env, {
    install: config.install,
    configuredTsserver: !!config.initializationOptions && 'tsserver' in config.initializationOptions,
    projectAllowed: placement.allowed,
    mayRun: (file) => !placement.writableByCommands(file),
  });
  if (!check.ok)
    return {
      ok: false,
      state: 'unusable',
      program: placement.program,
      why: `the ${name} language server cannot run here: ${check.problem}. Fix: ${check.fix} (docs/lsp.md)`,
    };
  const sandbox = ctx.sandbox;
  const readable = placement.readable(check.tsserver);
  // Built when the server starts (LspClient), from the sandbox's policy as it is then.
  const spawn = sandbox && (() => sandbox.spawn(placement.program, config.args, root, readable, ctx.env));
  const initializationOptions = initializationOptionsFor(name, config.initializationOptions, check.tsserver);
  return {
    ok: true,
    launch: {
      name,
      command: placement.program,
      args: config.args,
      root,
      languageId: (p) => languageIdFor(p, name),
      ...(initializationOptions ? { initializationOptions } : {}),
      env: placement.env,
      ...(spawn ? { spawn } : {}),
      ...(name === 'typescript' ? { pull: pullTypescriptDiagnostics } : {}),
    },
  };
}

/**
 * typescript: the tsserver chosen by the install check (the project's when it may run, else the one beside the
 * server), and no automatic type acquisition (it runs npm to download types). A configured `tsserver` is kept.
 */
function initializationOptionsFor(
  name: string,
  configured: Record<string, unknown> | undefined,
  tsserver: string | undefined,
): Record<string, unknown> | undefined {
  if (name !== 'typescript') return configured;
  return {
    disableAutomaticTypingAcquisition: true,
    ...configured,
    ...(tsserver && !(configured && 'tsserver' in configured) ? { tsserver: { path: tsserver } } : {}),
  };
}
