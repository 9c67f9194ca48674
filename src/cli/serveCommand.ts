// `jarvis serve` (docs/server.md): the session API over HTTP and WebSocket on this machine. Binds 127.0.0.1:58627
// (or the next free port up to +100; `--port 0` lets the system pick); a non-loopback address needs `--host` and
// JARVIS_CODE_PASSWORD. Prints the URL and the token, then serves until SIGINT/SIGTERM.
import { realpathSync, statSync } from 'node:fs';
import type { Server } from 'node:http';
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { jarvisHome } from '../store/paths';
import { loadOrCreateToken, TokenFileError, tokenPath } from '../server/serverToken';
import { startServer, type RunningServer } from '../server/httpServer';
import { installLastResort } from './lastResort';
import { UsageError } from './program';

export const DEFAULT_PORT = 58627;
const PORT_TRIES = 100;

export interface ServeFlags {
  host?: string;
  port?: string;
  root?: string[];
  approvalExpiry?: string;
  allowHost?: string[];
}

export function isLoopback(host: string): boolean {
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}

function listenOn(host: string, port: number): (server: Server) => Promise<number> {
  return async (server) => {
    const last = port === 0 ? 0 : Math.min(port + PORT_TRIES, 65535);
    for (let p = port; ; p++) {
      try {
        await new Promise<void>((ok, fail) => {
          server.once('error', fail);
          server.listen(p, host, () => {
            server.off('error', fail);
            ok();
          });
        });
        const addr = server.address();
        return typeof addr === 'object' && addr ? addr.port : p;
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code !== 'EADDRINUSE' || p >= last) {
          if (code === 'EADDRINUSE')
            throw new UsageError(
              `ports ${port}–${last} on ${host} are all taken; pass --port 0 to let the system pick`,
            );
          throw e;
        }
      }
    }
  };
}

/** `started` runs once the server listens (`jarvis web` prints the login link and opens the browser there). */
export async function runServeCommand(
  flags: ServeFlags,
  version: string,
  started?: (server: RunningServer) => Promise<void>,
): Promise<number> {
  const hostGiven = flags.host !== undefined;
  const host = flags.host ?? '127.0.0.1';
  if (!isIP(host) && host !== 'localhost')
    throw new UsageError(`--host ${host}: give an IP address (127.0.0.1, ::1, 0.0.0.0) or localhost`);
  const password = process.env.JARVIS_CODE_PASSWORD || undefined;
  if (!isLoopback(host) && !(hostGiven && password))
    throw new UsageError(
      `--host ${host} is reachable from other machines: set JARVIS_CODE_PASSWORD too, or keep 127.0.0.1 and use SSH forwarding (docs/server.md)`,
    );
  const port = flags.port === undefined ? DEFAULT_PORT : Number(flags.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`--port ${flags.port}: give a port number 0-65535 (0 picks a free one)`);
  const expiryS = flags.approvalExpiry === undefined ? 86_400 : Number(flags.approvalExpiry);
  if (!Number.isFinite(expiryS) || expiryS <= 0)
    throw new UsageError(`--approval-expiry ${flags.approvalExpiry}: give seconds > 0`);
  const roots = (flags.root?.length ? flags.root : [process.cwd()]).map((r) => {
    let real: string;
    try {
      real = realpathSync(resolve(r));
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') throw new UsageError(`--root ${r}: no such folder`);
      throw new UsageError(`--root ${r}: cannot be read (${(e as Error).message})`);
    }
    if (!statSync(real).isDirectory())
      throw new UsageError(`--root ${r}: not a folder; give the folder sessions may use`);
    return real;
  });
  const home = jarvisHome(process.env);
  installLastResort(home);
  let token: string;
  try {
    token = loadOrCreateToken(home).token;
  } catch (e) {
    if (e instanceof TokenFileError) throw new UsageError(e.message);
    throw e;
  }
  const server = await startServer(
    {
      host,
      port,
      home,
      env: process.env,
      roots,
      allowHosts: (flags.allowHost ?? []).map((h) => {
        if (!/^[A-Za-z0-9.-]{1,253}$/.test(h)) throw new UsageError(`--allow-host ${h}: give a host name`);
        return h.toLowerCase();
      }),
      token,
      password,
      version,
      approvalExpiryMs: expiryS * 1000,
      warn: (text) => process.stderr.write(`jarvis serve: ${text}\n`),
    },
    listenOn(host, port),
  );
  process.stdout.write(
    `Jarvis server at ${server.url}\nToken: ${token}  (${tokenPath(home)})\nWorkspace roots: ${roots.join(', ')}\n`,
  );
  await started?.(server);
  await new Promise<void>((done) => {
    let stopping = false;
    const stop = () => {
      if (stopping) {
        process.stderr.write('jarvis serve: interrupted again; stopping now\n');
        process.exit(130);
      }
      stopping = true;
      process.stderr.write('jarvis serve: stopping (closing sessions)\n');
      void server.close().then(done, (e: unknown) => {
        process.stderr.write(`jarvis serve: closing failed: ${String(e)}\n`);
        done();
      });
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  return 0;
}
