// `jarvis web` (docs/web.md): `jarvis serve` with the web UI. Starts the server with the same flags, then prints a
// one-time login link (its code rides in the URL fragment, so it never reaches a log) and opens it in the default
// browser where there is a display (`xdg-open`/`open`, never through a shell); `--no-open` only prints it.
// `--link` starts nothing: it asks the server already running on `--port` for a new link, with the token.
import type { RunningServer } from '../server/httpServer';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LOGIN_CODE_TTL_MS } from '../server/webLogin';
import { loadOrCreateToken, TokenFileError, tokenPath } from '../server/serverToken';
import { openInBrowser } from '../platform/openInBrowser';
import { jarvisHome } from '../store/paths';
import { UsageError } from './program';
import { DEFAULT_PORT, runServeCommand, type ServeFlags } from './serveCommand';

export interface WebFlags extends ServeFlags {
  /** Commander's `--no-open`: false when given. */
  open?: boolean;
  link?: boolean;
}

async function show(
  serverUrl: string,
  link: { url: string; expires_at: string },
  open: boolean | undefined,
): Promise<void> {
  process.stdout.write(
    `Web UI: ${serverUrl}/\n` +
      `Open this one-time link to log in (good once, until ${link.expires_at}):\n${link.url}\n` +
      `A new link: jarvis web --link${serverUrl.endsWith(`:${DEFAULT_PORT}`) ? '' : ` --port ${new URL(serverUrl).port}`}\n`,
  );
  // The link as a QR code for a phone's camera (docs/remote.md "The QR code").
  const { renderQr, qrColorFor } = await import('../platform/terminalQr');
  process.stdout.write(`${renderQr(link.url, { color: qrColorFor(process.stdout, process.env) }).join('\n')}\n`);
  if (open !== false) openInBrowser(loginPage(link.url));
}

/**
 * The browser is opened on a private file (0600, in JARVIS_CODE_HOME) that sends it on to the link, so the link's
 * code is not on xdg-open's command line, where other local users could read it. The file goes when the code does.
 */
function loginPage(link: string): string {
  const dir = mkdtempSync(join(jarvisHome(process.env), 'web-login-'));
  const file = join(dir, 'login.html');
  // The link is made of URL-safe characters only (webLogin.ts); checked anyway before it goes into markup.
  if (!/^http:\/\/[A-Za-z0-9.:[\]]+\/#login=[A-Za-z0-9_-]+$/.test(link))
    throw new Error(`unexpected login link ${link}`);
  writeFileSync(
    file,
    `<!doctype html><meta charset="utf-8"><meta name="referrer" content="no-referrer">` +
      `<meta http-equiv="refresh" content="0;url=${link}"><title>Jarvis</title><p>Opening Jarvis…</p>\n`,
    { mode: 0o600 },
  );
  const remove = () => rmSync(dir, { recursive: true, force: true });
  setTimeout(remove, LOGIN_CODE_TTL_MS).unref();
  process.once('exit', remove);
  return pathToFileURL(file).href;
}

/** A new link from the server already running on this machine's loopback. */
async function askForLink(flags: WebFlags): Promise<number> {
  const port = flags.port === undefined ? DEFAULT_PORT : Number(flags.port);
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new UsageError(`--port ${flags.port}: give the port the running server listens on`);
  const home = jarvisHome(process.env);
  if (!existsSync(tokenPath(home)))
    throw new UsageError(`no server token in ${home} yet: start the server with jarvis web first`);
  let token: string;
  try {
    token = loadOrCreateToken(home).token;
  } catch (e) {
    if (e instanceof TokenFileError) throw new UsageError(e.message);
    throw e;
  }
  const base = `http://127.0.0.1:${port}`;
  let answer: { code: number; msg: string; data: { url: string; expires_at: string } };
  try {
    const res = await fetch(`${base}/api/v1/auth/links`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    answer = (await res.json()) as typeof answer;
  } catch (e) {
    throw new UsageError(
      `no Jarvis server answered at ${base} (${(e as Error).message}); start one with jarvis web, or give its --port`,
    );
  }
  if (answer.code !== 0) throw new UsageError(`the server at ${base} refused a link: ${answer.msg}`);
  await show(base, answer.data, flags.open);
  return 0;
}

export async function runWebCommand(flags: WebFlags, version: string): Promise<number> {
  if (flags.link) return askForLink(flags);
  const { open, link: _link, ...serve } = flags;
  return runServeCommand(serve, version, (server: RunningServer) => show(server.url, server.mintLoginLink(), open));
}
