// The inside half of the sandbox's network allowlist (docs/sandbox.md#the-network-allowlist). A command in allowlist
// mode keeps its own network namespace, with no route out; the proxy's Unix socket is bound in, and a small bridge
// run by Node (already readable inside) listens on 127.0.0.1 of the namespace's own loopback, forwards each
// connection to that socket, and then runs the command with the proxy variables set, its stdio inherited, and passes
// its exit status on (128 + the signal's number when a signal ended it).

/** Where the proxy's socket appears inside the sandbox (on the private /tmp, so nothing outside is touched). */
export const BRIDGE_SOCKET_INSIDE = '/tmp/.jarvis-network-proxy.sock';

/** Exit status of the bridge when it cannot start its listener (no command was run). */
export const BRIDGE_FAILED_EXIT = 125;

// Run by `node -e` as CommonJS; argv after the script: socket, shell, and the shell's arguments.
const BRIDGE_SCRIPT = String.raw`'use strict';
const net = require('net');
const { spawn } = require('child_process');
const { constants } = require('os');
const [socketPath, shell, ...shellArgs] = process.argv.slice(1);
const server = net.createServer((inside) => {
  const proxy = net.connect(socketPath);
  inside.pipe(proxy);
  proxy.pipe(inside);
  inside.on('error', () => proxy.destroy());
  proxy.on('error', () => inside.destroy());
  inside.on('close', () => proxy.destroy());
  proxy.on('close', () => inside.destroy());
});
server.on('error', (e) => {
  process.stderr.write('jarvis sandbox: the network proxy bridge could not start: ' + e.message + '\n');
  process.exit(${BRIDGE_FAILED_EXIT});
});
server.listen(0, '127.0.0.1', () => {
  const url = 'http://127.0.0.1:' + server.address().port;
  const env = Object.assign({}, process.env);
  for (const k of ['HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY']) env[k] = env[k.toLowerCase()] = url;
  env.NO_PROXY = env.no_proxy = '';
  const child = spawn(shell, shellArgs, { stdio: 'inherit', env });
  for (const s of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(s, () => child.kill(s));
  child.on('error', (e) => {
    process.stderr.write('jarvis sandbox: cannot run ' + shell + ': ' + e.message + '\n');
    process.exit(127);
  });
  child.on('exit', (code, signal) => process.exit(code === null ? 128 + (constants.signals[signal] || 0) : code));
});
`;

/**
 * What runs inside bwrap in allowlist mode instead of `shell -c command`: Node running the bridge, which then runs
 * `shell -c command`. `socket` is the proxy's socket on the host, bound in at BRIDGE_SOCKET_INSIDE.
 */
export function bridgeArgs(socket: string, shell: string, command: string): { mounts: string[]; run: string[] } {
  return {
    mounts: ['--ro-bind', socket, BRIDGE_SOCKET_INSIDE],
    run: [process.execPath, '-e', BRIDGE_SCRIPT, '--', BRIDGE_SOCKET_INSIDE, shell, '-c', command],
  };
}
