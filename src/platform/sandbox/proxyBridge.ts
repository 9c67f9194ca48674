// The inside half of the sandbox's network allowlist (docs/sandbox.md#the-network-allowlist). A command in allowlist
// mode keeps its own network namespace, with no route out, and may not create a Unix socket (seccompFilter.ts), so
// the proxy's socket is not reachable from inside at all. A small bridge run by Node (already readable inside)
// listens on 127.0.0.1 of the namespace's own loopback; for each connection it asks Jarvis, over the IPC channel
// Node sets up at BRIDGE_CHANNEL_FD, for a connection to the proxy, which Jarvis opens outside and passes in as a
// file descriptor. It then runs the command with the proxy variables set, its stdio inherited, the channel's fd
// covered, and passes its exit status on (128 + the signal's number when a signal ended it).
import type { ChildProcess } from 'node:child_process';
import { connect, type Socket } from 'node:net';

/** Exit status of the bridge when it cannot start its listener (no command was run). */
export const BRIDGE_FAILED_EXIT = 125;

// Run by `node -e` as CommonJS; argv after the script: the fds to cover (comma-separated), the shell and its arguments.
const BRIDGE_SCRIPT = String.raw`'use strict';
const net = require('net');
const fs = require('fs');
const { spawn } = require('child_process');
const { constants } = require('os');
const [cover, shell, ...shellArgs] = process.argv.slice(1);
const fail = (why) => {
  process.stderr.write('jarvis sandbox: the network proxy bridge could not start: ' + why + '\n');
  process.exit(${BRIDGE_FAILED_EXIT});
};
if (!process.send) fail('no channel to Jarvis');
process.channel.unref();
const waiting = new Map();
let next = 0;
process.on('message', (msg, proxy) => {
  const done = msg && waiting.get(msg.id);
  if (!done) return proxy && proxy.destroy();
  waiting.delete(msg.id);
  done(proxy);
});
const server = net.createServer((inside) => {
  const id = ++next;
  inside.on('error', () => inside.destroy());
  waiting.set(id, (proxy) => {
    if (!proxy) return inside.destroy();
    inside.pipe(proxy);
    proxy.pipe(inside);
    proxy.on('error', () => inside.destroy());
    inside.on('close', () => proxy.destroy());
    proxy.on('close', () => inside.destroy());
  });
  process.send({ open: id });
});
server.on('error', (e) => fail(e.message));
server.listen(0, '127.0.0.1', () => {
  const url = 'http://127.0.0.1:' + server.address().port;
  const env = Object.assign({}, process.env);
  for (const k of ['HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY']) env[k] = env[k.toLowerCase()] = url;
  env.NO_PROXY = env.no_proxy = '';
  // The command gets /dev/null where the seccomp data and the channel were, never the channel itself.
  const none = fs.openSync('/dev/null', 'r');
  const stdio = ['inherit', 'inherit', 'inherit'];
  for (const fd of cover.split(',').map(Number)) stdio[fd] = none;
  const child = spawn(shell, shellArgs, { stdio, env });
  for (const s of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(s, () => child.kill(s));
  child.on('error', (e) => {
    process.stderr.write('jarvis sandbox: cannot run ' + shell + ': ' + e.message + '\n');
    process.exit(127);
  });
  child.on('exit', (code, signal) => process.exit(code === null ? 128 + (constants.signals[signal] || 0) : code));
});
`;

/**
 * What runs inside bwrap in allowlist mode instead of `shell -c command`: Node running the bridge. `cover` are the
 * descriptors above stderr the command must not inherit (the seccomp data's and the channel's).
 */
export function bridgeCommand(shell: string, command: string, cover: readonly number[]): string[] {
  return [process.execPath, '-e', BRIDGE_SCRIPT, '--', cover.join(','), shell, '-c', command];
}

/** At most this many proxy connections are being opened for one command at once; more requests wait their turn. */
const MAX_OPENING = 32;
/** Requests past this many waiting get no connection (the bridge never has that many clients at once). */
const MAX_WAITING = 1024;

/**
 * Jarvis's half: answers the bridge's requests on `child`'s IPC channel with connections to the proxy at
 * `proxySocket`. The channel does not keep Jarvis running. A message of any other shape gets no answer: only the
 * bridge, or a command that took it over, speaks on it, and neither gets more than a connection to the proxy.
 */
export function serveBridge(child: ChildProcess, proxySocket: string): void {
  child.channel?.unref();
  const waiting: number[] = [];
  let opening = 0;
  const open = (id: number) => {
    opening++;
    const proxy = connect(proxySocket);
    const answer = (reply: { id: number; error?: string }, handle?: Socket) => {
      opening--;
      // Node closes a socket it has passed on; one it could not pass (the command ended) is closed here.
      if (child.connected) child.send(reply, handle, () => handle?.destroy());
      else handle?.destroy();
      while (opening < MAX_OPENING && waiting.length > 0) open(waiting.shift()!);
    };
    proxy.once('connect', () => answer({ id }, proxy));
    proxy.once('error', (e) => answer({ id, error: e.message }));
  };
  child.on('message', (msg: unknown, handle: unknown) => {
    // Nothing is ever passed to Jarvis on this channel: a handle sent anyway is closed, not kept.
    if (handle) closeHandle(handle);
    const id = (msg as { open?: unknown } | null)?.open;
    if (typeof id !== 'number' || !Number.isSafeInteger(id)) return;
    if (opening < MAX_OPENING) open(id);
    else if (waiting.length < MAX_WAITING) waiting.push(id);
  });
}

function closeHandle(handle: unknown): void {
  const h = handle as { destroy?: unknown; close?: unknown };
  if (typeof h.destroy === 'function') (h.destroy as () => void).call(h);
  else if (typeof h.close === 'function') (h.close as () => void).call(h);
}
