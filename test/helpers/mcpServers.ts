// The real MCP servers the tests talk to: `@modelcontextprotocol/server-everything` from npm over stdio
// and over streamable HTTP on loopback, plus a small SDK-built server whose tool list grows on demand.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import type { McpServerConfig } from '../../src/store/mcpConfig';

export const EVERYTHING_BIN = resolve(
  __dirname,
  '../../node_modules/@modelcontextprotocol/server-everything/dist/index.js',
);
export const GROWING_SERVER = resolve(__dirname, '../fixtures/mcp/growingServer.mjs');

/** A complete server entry with defaults; override what the test is about. */
export function mcpEntry(name: string, over: Partial<McpServerConfig> = {}): McpServerConfig {
  return {
    name,
    scope: 'user',
    file: '/tmp/mcp.json',
    transport: 'stdio',
    command: process.execPath,
    args: [EVERYTHING_BIN, 'stdio'],
    env: {},
    headers: {},
    enabled: true,
    startupTimeoutMs: 60_000,
    toolTimeoutMs: 60_000,
    ...over,
  };
}

async function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.once('error', rej);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => res(port));
    });
  });
}

/** server-everything's streamable HTTP transport on a loopback port; resolves once it listens. */
export async function startEverythingHttp(): Promise<{ url: string; child: ChildProcess; stop(): Promise<void> }> {
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    const child = spawn(process.execPath, [EVERYTHING_BIN, 'streamableHttp'], {
      env: { ...process.env, PORT: String(port) },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    const listening = await new Promise<boolean>((res) => {
      child.stderr!.on('data', (d: Buffer) => {
        err += d.toString();
        if (err.includes('listening on port')) res(true);
        if (err.includes('already in use')) res(false);
      });
      child.once('exit', () => res(false));
    });
    if (listening) {
      const stop = async () => {
        if (child.exitCode !== null || child.signalCode) return;
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      };
      return { url: `http://127.0.0.1:${port}/mcp`, child, stop };
    }
    child.kill('SIGKILL');
    if (attempt >= 3) throw new Error(`server-everything did not start on loopback: ${err}`);
  }
}
