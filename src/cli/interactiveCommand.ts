// `jarvis` with no prompt on a terminal: configuration → the interactive UI → exit code.
import type { MainOptions } from './program';
import { installLastResort } from './lastResort';
import { loadExtensions, loadStartup, StartupError } from './startup';

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
  const { runtime } = startup;
  return runApp({
    version: typeof __JARVIS_VERSION__ === 'string' ? __JARVIS_VERSION__ : '0.0.0',
    home: startup.home,
    cwd: startup.cwd,
    config: startup.config,
    configPath: startup.configPath,
    env: process.env,
    warnings: startup.warnings,
    runtime,
    pickSession: options.session === true,
    tokenCounting: startup.settings.tokenCounting.strategy,
    mcp: startup.mcp,
    mcpClientName: startup.settings.identity.slug,
  });
}
