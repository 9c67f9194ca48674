// Where a server listens (docs/server.md flags `--host`, `--port`): `jarvis serve` and the terminal UI's `/remote`
// (docs/remote.md) bind the same way — loopback unless told otherwise, the default port or the next free one.
import type { Server } from 'node:http';
import { isIP } from 'node:net';

export const DEFAULT_PORT = 58627;
const PORT_TRIES = 100;

/** All ports from the one asked for to +100 are taken. */
export class PortsTakenError extends Error {}

export function isLoopback(host: string): boolean {
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}

/** Listens on `port`, or the next free one up to +100 (`0`: the system picks); resolves with the port. */
export function listenOn(host: string, port: number): (server: Server) => Promise<number> {
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
            throw new PortsTakenError(
              `ports ${port}–${last} on ${host} are all taken; pass --port 0 to let the system pick`,
            );
          throw e;
        }
      }
    }
  };
}
