// `jarvis` with no prompt on a terminal: configuration → the interactive UI → exit code.
import type { MainOptions } from './program';
import { installLastResort } from './lastResort';
import type { ReloadedOptions } from '../ui/appOptions';
import { loadExtensions, loadStartup, StartupError, type Startup } from '../engine/runtime/startup/startup';

declare const __JARVIS_VERSION__: string;

export async function runInteractiveCommand(options: MainOptions): Promise<number> {
  let startup;
  try {
    startup = loadStartup(options, { nonInteractive: false });
    await loadExtensions(startup, options);
  } catch (e) {
    if (e instanceof StartupError) {
      process.stderr.write(`${e.message}\n`);
      return 1;
    }
    throw e;
  }
  installLastResort(startup.home);
  const { runApp } = await import('../ui/app');
  return runApp({
    version: typeof __JARVIS_VERSION__ === 'string' ? __JARVIS_VERSION__ : '0.0.0',
    home: startup.home,
    cwd: startup.cwd,
    env: process.env,
    ...reloadable(startup),
    pickSession: options.session === true,
    // `/remote` (docs/remote.md): the session server loads only when asked for.
    startRemote: async (target, settings) => {
      const { startRemoteServer } = await import('../server/remoteServer');
      return startRemoteServer(target, settings, {
        home: startup.home,
        env: process.env,
        version: typeof __JARVIS_VERSION__ === 'string' ? __JARVIS_VERSION__ : '0.0.0',
      });
    },
    // The same flags read everything again; the session to reopen is the UI's current one, not --continue/--session.
    reloadOptions: async () => {
      try {
        const again = loadStartup({ ...options, continue: false, session: undefined }, { nonInteractive: false });
        await loadExtensions(again, options);
        return reloadable(again);
      } catch (e) {
        throw e instanceof StartupError ? new Error(e.message.replace(/^jarvis: /, '')) : e;
      }
    },
  });
}

/** What the UI takes from a startup, at launch and on /reload. */
function reloadable(startup: Startup): ReloadedOptions {
  return {
    config: startup.config,
    configPath: startup.configPath,
    warnings: startup.warnings,
    runtime: startup.runtime,
    tokenCounting: startup.settings.tokenCounting.strategy,
    mcp: startup.mcp,
    mcpClientName: startup.settings.identity.slug,
  };
}
