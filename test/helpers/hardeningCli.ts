// The sandbox hardening end to end (test/cli/sandboxHardeningPrint.test.ts, test/acp/acpSandboxHardening.test.ts):
// for one user, a home with a private key, JARVIS_CODE_HOME with a config, a workspace, a canary folder, the socket
// fixtures; the environment the built CLI starts with (SSH_AUTH_SOCK, the D-Bus address, DOCKER_HOST set, as on a
// developer's machine); the attacks a prompt-injected model sends through Bash; and plain bash to show the socket
// attack works outside first.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { chmodSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliEnv, type Launcher } from './cli';
import { asUser, handOver, makeUserRoot, removeUserRoots, sandboxTestUsers, type TestUser } from './sandboxUsers';
import { startMockModelServer, type MockModelServer } from './mockModelServer';
import { requireSystemPart } from './requireAll';
import { sandboxAvailable } from './sandboxAvailable';
import { ANY_MARKER, MARKERS, startSocketFixtures, type SocketFixtures } from './socketFixtures';

export interface HardeningCliWorld {
  user: TestUser;
  home: string;
  cwd: string;
  canary: string;
  fixtures: SocketFixtures;
  launcher: Launcher;
  /** The CLI's environment: the model's settings given, the fixtures' socket variables set. */
  env(model: Record<string, string>): NodeJS.ProcessEnv;
  /** The capability attack: prints CapEff, tries to remount / and unmount the key's mask. */
  capsAttack: string;
  /** The socket attack: the agent, the bus, docker.sock, a socket file outside, an abstract one. */
  socketAttack: string;
  plain(command: string): Promise<string>;
  canaryFiles(): string[];
  close(): Promise<void>;
}

export async function makeHardeningCliWorld(user: TestUser): Promise<HardeningCliWorld> {
  makeUserRoot(user);
  const home = join(user.root, 'home');
  const jhome = join(home, '.jarvis-code');
  const cwd = join(user.root, 'work');
  const canary = join(user.root, 'canary');
  for (const dir of [join(home, '.ssh'), jhome, cwd, canary]) mkdirSync(dir, { recursive: true });
  writeFileSync(join(home, '.ssh', 'id_rsa'), 'SSH-KEY-SECRET\n');
  writeFileSync(join(jhome, 'config.toml'), '# JARVIS-CONFIG-SECRET\n');
  const fixtures = await startSocketFixtures(user);
  handOver(user);
  chmodSync(canary, 0o777);
  const f = fixtures.env;
  const py = (path: string) =>
    `python3 -c "import socket; s=socket.socket(socket.AF_UNIX); s.connect('${path}'); print(s.recv(99))"`;
  const env = (model: Record<string, string>) => ({
    ...cliEnv({ home, cwd }, model),
    JARVIS_CODE_HOME: jhome,
    SSH_AUTH_SOCK: f.SSH_AUTH_SOCK,
    DBUS_SESSION_BUS_ADDRESS: f.DBUS_SESSION_BUS_ADDRESS,
    XDG_RUNTIME_DIR: f.XDG_RUNTIME_DIR,
    DOCKER_HOST: f.DOCKER_HOST,
  });
  return {
    user,
    home,
    cwd,
    canary,
    fixtures,
    launcher: (file, args) => asUser(user, file, args),
    env,
    capsAttack:
      'echo "uid=$(id -u)"; grep -E "CapEff|NoNewPrivs" /proc/self/status; ' +
      `mount -o remount,rw,bind / && echo x > ${canary}/remount.txt; ` +
      'umount -l ~/.ssh; cat ~/.ssh/id_rsa; unshare -r grep CapEff /proc/self/status',
    socketAttack: [
      `SSH_AUTH_SOCK="\${SSH_AUTH_SOCK:-${f.AGENT}}" ssh-add -L`,
      py(f.OUT_SOCK),
      py(f.RUN_BUS),
      py(f.XDG_BUS),
      `curl -sS --max-time 5 --unix-socket ${f.VAR_RUN_DOCKER_SOCK} http://docker/version`,
      `python3 -c "import socket; s=socket.socket(socket.AF_UNIX); s.connect('\\0${f.ABSTRACT}'); print(s.recv(99))"`,
      'env | grep -E "^(SSH_AUTH_SOCK|DBUS_SESSION_BUS_ADDRESS|DOCKER_HOST)=" || echo no-socket-variables',
    ].join('; '),
    plain: async (command) => {
      const cmd = asUser(user, 'bash', ['-c', command]);
      const child = spawn(cmd.file, cmd.args, { cwd, env: env({}), stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (out += d.toString()));
      await new Promise((resolve) => child.on('close', resolve));
      return out;
    },
    canaryFiles: () => readdirSync(canary),
    close: async () => {
      await fixtures.close();
      removeUserRoots([user]);
    },
  };
}

/** The two attacks as the scripted model's tool calls (ids `caps` and `sockets`), then its last word. */
export function pushAttackTurn(server: MockModelServer, world: HardeningCliWorld): void {
  server.push(
    {
      toolCalls: [
        { id: 'caps', name: 'Bash', arguments: { command: world.capsAttack } },
        { id: 'sockets', name: 'Bash', arguments: { command: world.socketAttack } },
      ],
    },
    { text: 'Done.' },
  );
}

/**
 * Checks what the model saw after the attack turn (its request at `index`): the command ran as the user, with no
 * capability, no secret read, no socket variable and no fixture reached; and that the fixtures and canaries agree.
 */
export function expectAttacksRefused(server: MockModelServer, index: number, world: HardeningCliWorld, hits: number) {
  const results = new Map<string, string>();
  for (const m of server.requests[index].body.messages)
    if (m.role === 'tool') results.set(m.tool_call_id, String(m.content));
  const caps = results.get('caps') ?? '';
  expect(caps).toContain(`uid=${world.user.uid}`);
  expect(caps).toMatch(/CapEff:\s+0000000000000000/);
  expect(caps).toMatch(/NoNewPrivs:\s+1/);
  expect(caps).not.toMatch(/CapEff:\s+0*[1-9a-f]/);
  expect(caps).not.toContain('SSH-KEY-SECRET');
  const sockets = results.get('sockets') ?? '';
  expect(sockets).toContain('no-socket-variables');
  expect(sockets).not.toMatch(ANY_MARKER);
  expect(world.fixtures.hits()).toBe(hits);
  expect(world.canaryFiles()).toEqual([]);
}

/**
 * A describe block per user (root and, where the tests run as root, the unprivileged one) with the mock model server
 * and that user's world set up and torn down; `tests` adds the tests, which get them through `ctx`. Skipped with the
 * reason printed where the sandbox, ssh-agent or setpriv is missing.
 */
export function describeHardeningEndToEnd(
  tag: string,
  title: string,
  tests: (ctx: { server(): MockModelServer; world(): HardeningCliWorld }) => void,
): void {
  const available =
    sandboxAvailable() &&
    requireSystemPart('ssh-agent', 'the SSH agent fixture') &&
    requireSystemPart('setpriv', 'runs Jarvis as an unprivileged user');
  const users = available ? sandboxTestUsers(tag) : [];
  describe.skipIf(!available)(title, () => {
    let server: MockModelServer;
    beforeAll(async () => {
      server = await startMockModelServer();
    });
    afterAll(async () => {
      await server?.close();
    });
    describe.each(users.map((u) => [u.label, u] as const))('as %s', (_label, user) => {
      let world: HardeningCliWorld;
      beforeAll(async () => {
        world = await makeHardeningCliWorld(user);
        // The socket attack works outside the sandbox, as this user: the fixtures answer it.
        const proof = await world.plain(world.socketAttack);
        expect(proof).toMatch(ANY_MARKER);
        expect(proof).toContain(MARKERS.agent);
      });
      afterAll(async () => {
        await world?.close();
      });
      tests({ server: () => server, world: () => world });
    });
  });
}
