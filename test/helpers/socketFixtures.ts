// Unix-socket fixtures outside the sandbox, the kinds a machine really has (docs/sandbox.md#unix-sockets-and-seccomp):
// a real ssh-agent holding a key, a D-Bus-like bus under /run and under XDG_RUNTIME_DIR, a fake Docker API on a
// docker.sock under /run, a socket file in an ordinary readable folder, an abstract socket and an X11-like abstract
// one (`@/tmp/.X11-unix/X…`). Each answers with a marker of its own and counts the connections it accepted, so an
// attack is proved to work (plain bash reaches it) and then proved refused (the sandbox reaches nothing).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type Server } from 'node:net';
import { createInterface } from 'node:readline';
import { basename, join } from 'node:path';
import { asUser, handOver, type TestUser } from './sandboxUsers';

export const MARKERS = {
  agent: 'jarvis-fixture-key',
  runBus: 'RUN-BUS-FIXTURE',
  xdgBus: 'XDG-BUS-FIXTURE',
  docker: 'FAKE-DOCKER-API',
  outside: 'OUTSIDE-SOCKET-FIXTURE',
  abstract: 'ABSTRACT-FIXTURE',
  x11: 'X11-FIXTURE',
} as const;

/** Any fixture's answer in an output: the attack reached a socket outside. */
export const ANY_MARKER = new RegExp(Object.values(MARKERS).join('|'));

export interface SocketFixtures {
  /** Variables the attacks use: the usual ones (SSH_AUTH_SOCK, DBUS_SESSION_BUS_ADDRESS…) and each path by name. */
  env: Record<string, string>;
  /** Connections the fixtures' own servers accepted so far (the ssh-agent is counted by its marker instead). */
  hits(): number;
  close(): Promise<void>;
}

export async function startSocketFixtures(user: TestUser): Promise<SocketFixtures> {
  // Unique for each user root (each test file has its own), also where files share a process.
  const id = basename(user.root);
  const run = `/run/${id}`;
  const xdg = join(user.root, 'xdg-runtime');
  const outside = join(user.root, 'outside-sockets');
  for (const dir of [run, xdg, outside]) mkdirSync(dir, { recursive: true, mode: 0o755 });
  chmodSync(run, 0o755);
  let hits = 0;
  const servers: Server[] = [];
  const answer = async (where: string, marker: string, http = false) => {
    const server = http
      ? createHttpServer((_req, res) => res.end(`{"Version":"${marker}"}`))
      : createServer((socket) => socket.on('error', () => socket.destroy()).end(`${marker}\n`));
    server.on('connection', () => hits++);
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(where, resolve));
    if (!where.startsWith('\0')) chmodSync(where, 0o777);
    servers.push(server);
  };
  const display = 1000 + ([...id].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7) % 50_000);
  await answer(join(run, 'bus'), MARKERS.runBus);
  await answer(join(xdg, 'bus'), MARKERS.xdgBus);
  await answer(join(run, 'docker.sock'), MARKERS.docker, true);
  await answer(join(outside, 'srv.sock'), MARKERS.outside);
  const abstractName = id;
  const dgram = join(outside, 'journal.sock');
  const abstract = await startPythonFixtures(dgram, [
    [abstractName, MARKERS.abstract],
    [`/tmp/.X11-unix/X${display}`, MARKERS.x11],
  ]);
  handOver(user, xdg);
  chmodSync(xdg, 0o700);
  const agent = await startAgent(user);
  return {
    env: {
      SSH_AUTH_SOCK: agent.socket,
      AGENT: agent.socket,
      XDG_RUNTIME_DIR: xdg,
      DBUS_SESSION_BUS_ADDRESS: `unix:path=${join(xdg, 'bus')}`,
      XDG_BUS: join(xdg, 'bus'),
      RUN_BUS: join(run, 'bus'),
      DOCKER_HOST: `unix://${join(run, 'docker.sock')}`,
      DOCKER_SOCK: join(run, 'docker.sock'),
      VAR_RUN_DOCKER_SOCK: join('/var/run', run.slice('/run/'.length), 'docker.sock'),
      OUT_SOCK: join(outside, 'srv.sock'),
      OUT_DGRAM: dgram,
      ABSTRACT: abstractName,
      DISPLAY: `:${display}`,
      X11_ABSTRACT: `/tmp/.X11-unix/X${display}`,
    },
    hits: () => hits + abstract.hits(),
    close: async () => {
      agent.process.kill();
      abstract.process.kill();
      await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
      rmSync(run, { recursive: true, force: true });
    },
  };
}

/**
 * Abstract sockets bound the way C programs (X servers, D-Bus) bind them, by Python: Node pads an abstract name to
 * the whole address length, so no other client would find it. And a datagram socket like journald's or syslog's,
 * which Node cannot bind. Prints a line for each connection or datagram.
 */
async function startPythonFixtures(
  dgram: string,
  names: Array<[string, string]>,
): Promise<{ hits(): number; process: ChildProcess }> {
  // Bound before anything is printed, so a failure ends the process and is reported; it ends with the test too. A
  // client's request (curl's) is read before the answer, so closing does not reset the connection under it.
  const code = [
    'import ctypes, os, socket, sys, threading',
    'ctypes.CDLL(None).prctl(1, 15)',
    'log = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)',
    'log.bind(sys.argv[1])',
    'os.chmod(sys.argv[1], 0o777)',
    'def read():',
    '    while True:',
    '        log.recv(4096)',
    '        print("hit", flush=True)',
    'def serve(s, marker):',
    '    while True:',
    '        c, _ = s.accept()',
    '        print("hit", flush=True)',
    '        c.settimeout(0.2)',
    '        try: c.recv(4096)',
    '        except OSError: pass',
    '        c.sendall(marker.encode() + b"\\n")',
    '        c.close()',
    'threading.Thread(target=read, daemon=True).start()',
    'for name, marker in zip(sys.argv[2::2], sys.argv[3::2]):',
    '    s = socket.socket(socket.AF_UNIX)',
    '    s.bind("\\0" + name)',
    '    s.listen(16)',
    '    threading.Thread(target=serve, args=(s, marker), daemon=True).start()',
    'print("ready", flush=True)',
    'threading.Event().wait()',
  ].join('\n');
  const child = spawn('python3', ['-c', code, dgram, ...names.flat()], { stdio: ['ignore', 'pipe', 'pipe'] });
  let hits = 0;
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the Python socket fixture ended (${code}): ${stderr}`)));
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      if (line === 'hit') hits++;
      if (line === 'ready') resolve();
    });
  });
  return { hits: () => hits, process: child };
}

/** A real ssh-agent of `user`, in a folder of the user's own outside /tmp, holding a key commented MARKERS.agent. */
async function startAgent(user: TestUser): Promise<{ socket: string; process: ChildProcess }> {
  const dir = join(user.root, 'agent');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const key = join(dir, 'id_ed25519');
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', MARKERS.agent, '-f', key]);
  handOver(user, dir);
  const socket = join(dir, 'agent.sock');
  // Ends with the test process, even one stopped before it could close the fixtures.
  const cmd = asUser(user, 'setpriv', ['--pdeathsig', 'SIGTERM', '--', 'ssh-agent', '-D', '-a', socket]);
  const agent = spawn(cmd.file, cmd.args, { stdio: 'ignore' });
  const deadline = Date.now() + 10_000;
  while (!existsSync(socket)) {
    if (Date.now() > deadline || agent.exitCode !== null) throw new Error('the ssh-agent fixture did not start');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const add = asUser(user, 'ssh-add', ['-q', key]);
  execFileSync(add.file, add.args, { env: { ...process.env, SSH_AUTH_SOCK: socket }, stdio: 'pipe' });
  return { socket, process: agent };
}
