// `jarvis web` (docs/web.md): `jarvis serve` with the web UI. Starts the server with the same flags, then prints a
// one-time login link (its code rides in the URL fragment, so it never reaches a log) and opens it in the default
// browser where there is a display (`xdg-open`/`open`, never through a shell); `--no-open` only prints it.
import type { RunningServer } from '../server/httpServer';
import { openInBrowser } from '../platform/openInBrowser';
import { runServeCommand, type ServeFlags } from './serveCommand';

export interface WebFlags extends ServeFlags {
  /** Commander's `--no-open`: false when given. */
  open?: boolean;
}

export async function runWebCommand(flags: WebFlags, version: string): Promise<number> {
  const { open, ...serve } = flags;
  return runServeCommand(serve, version, async (server: RunningServer) => {
    const link = server.mintLoginLink();
    process.stdout.write(
      `Web UI: ${server.url}/\n` +
        `Open this one-time link to log in (good once, until ${link.expires_at}):\n${link.url}\n` +
        `A new link: POST ${server.url}/api/v1/auth/links with the token.\n`,
    );
    if (open !== false) openInBrowser(link.url);
  });
}
