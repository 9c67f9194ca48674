// `[sandbox] unix_sockets` and `allow_unix_sockets` (docs/sandbox.md#unix-sockets-and-seccomp): bad values are config
// errors naming the key and the shape; entries resolve to socket paths ($SSH_AUTH_SOCK, a D-Bus address, ~/); and
// the bwrap arguments that hide the socket folders, unset the socket variables, bind allowed sockets back in and,
// where commands may make their own sockets, cover the socket files the host has bound.
import { chmodSync, chownSync, readdirSync, readlinkSync, realpathSync, rmSync, mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxSettingsFromConfig } from '../../../src/engine/runtime/startup/sandboxStartup';
import {
  SOCKET_ENV,
  socketEnvArgs,
  socketEnvToKeep,
  socketFileArgs,
  socketFolderArgs,
  socketPathIn,
} from '../../../src/platform/sandbox/unixSockets';
import { parseConfigText } from '../../../src/store/config';
import { configTextError } from '../../helpers/configErrors';

const parse = (text: string) => parseConfigText(text, '/cfg/config.toml');

describe('[sandbox] unix_sockets and allow_unix_sockets in config.toml', () => {
  it('defaults to refusing Unix sockets, none allowed', () => {
    const { config } = parse('');
    expect(config.sandbox.unix_sockets).toBe('refuse');
    expect(config.sandbox.allow_unix_sockets).toEqual([]);
  });

  it('reads the rule and the entries, and resolves each to a path', () => {
    const { config } = parse(
      '[sandbox]\nunix_sockets = "own"\n' +
        'allow_unix_sockets = ["$SSH_AUTH_SOCK", "~/.gnupg/S.gpg-agent", "/run/user/1000/bus", ' +
        '"$DBUS_SESSION_BUS_ADDRESS", "$DOCKER_HOST", "$UNSET_SOCKET", "$ABSTRACT_BUS"]\n',
    );
    const env = {
      HOME: '/home/u',
      SSH_AUTH_SOCK: '/tmp/ssh-XXXX/agent.1',
      DBUS_SESSION_BUS_ADDRESS: 'unix:path=/run/user/1000/bus,guid=abc',
      DOCKER_HOST: 'unix:///run/docker.sock',
      ABSTRACT_BUS: 'unix:abstract=/tmp/dbus-x',
    };
    const settings = sandboxSettingsFromConfig(config, env);
    expect(settings.unixSockets).toBe('own');
    expect(settings.allowUnixSockets).toEqual([
      '/tmp/ssh-XXXX/agent.1',
      '/home/u/.gnupg/S.gpg-agent',
      '/run/user/1000/bus',
      '/run/user/1000/bus',
      '/run/docker.sock',
    ]);
  });

  it.each([
    ['unix_sockets = "allow"', 'sandbox.unix_sockets', '"refuse", "own"'],
    ['unix_sockets = true', 'sandbox.unix_sockets', '"refuse", "own"'],
    ['allow_unix_sockets = "/run/x.sock"', 'sandbox.allow_unix_sockets', 'an array of strings'],
    ['allow_unix_sockets = ["agent.sock"]', 'sandbox.allow_unix_sockets[0]', 'an absolute path'],
    ['allow_unix_sockets = ["/ok", "~user/x"]', 'sandbox.allow_unix_sockets[1]', 'got "~user/x"'],
    ['allow_unix_sockets = ["$"]', 'sandbox.allow_unix_sockets[0]', '$NAME'],
    ['allow_unix_sockets = ["$SSH AUTH"]', 'sandbox.allow_unix_sockets[0]', '$NAME'],
    ['allow_unix_sockets = [""]', 'sandbox.allow_unix_sockets[0]', 'an absolute path'],
  ])('refuses %s naming the key and what is expected', (line, key, expected) => {
    const e = configTextError(`[sandbox]\n${line}\n`);
    expect(e.message).toContain(key);
    expect(e.message).toContain(expected);
  });
});

describe('the socket variables', () => {
  it.each([
    ['/tmp/ssh-a/agent.1', '/tmp/ssh-a/agent.1'],
    ['unix:path=/run/user/0/bus', '/run/user/0/bus'],
    ['unix:path=/run/user/0/bus,guid=1', '/run/user/0/bus'],
    ['unix:///var/run/docker.sock', '/var/run/docker.sock'],
    ['unix:abstract=/tmp/dbus-1', undefined],
    ['tcp://127.0.0.1:2375', undefined],
    ['relative.sock', undefined],
    ['', undefined],
  ])('%s names the socket %s', (value, path) => {
    expect(socketPathIn(value)).toBe(path);
  });

  it('unsets each one inside, except those naming an allowed socket', () => {
    expect(socketEnvArgs({ rule: 'refuse', allowed: [], keepEnv: [] })).toEqual(
      SOCKET_ENV.flatMap((n) => ['--unsetenv', n]),
    );
    const kept = socketEnvArgs({ rule: 'allow', allowed: ['/a'], keepEnv: ['SSH_AUTH_SOCK'] });
    expect(kept).not.toContain('SSH_AUTH_SOCK');
    expect(kept).toContain('DBUS_SESSION_BUS_ADDRESS');
    const env = { SSH_AUTH_SOCK: '/tmp/a.sock', DOCKER_HOST: 'unix:///run/d.sock', XDG_RUNTIME_DIR: '/run/user/0' };
    expect(socketEnvToKeep(['/tmp/a.sock'], env)).toEqual(['SSH_AUTH_SOCK']);
    expect(socketEnvToKeep(['/run/d.sock', '/run/user/0'], env)).toEqual(['XDG_RUNTIME_DIR', 'DOCKER_HOST']);
    expect(socketEnvToKeep([], env)).toEqual([]);
  });
});

describe('the socket folders and files', () => {
  const dir = `/var/tmp/jarvis-unix-sockets-${process.pid}`;
  let servers: Server[] = [];
  const listen = (path: string) =>
    new Promise<void>((resolve) => {
      const server = createServer().listen(path, resolve);
      servers.push(server);
    });
  beforeAll(async () => {
    mkdirSync(join(dir, 'xdg'), { recursive: true });
    await listen(join(dir, 'outside.sock'));
    await listen(join(dir, 'allowed.sock'));
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
    servers = [];
    rmSync(dir, { recursive: true, force: true });
  });

  it('empties /run, an XDG_RUNTIME_DIR outside it, and makes the links directly in /run again', () => {
    const args = socketFolderArgs([{ XDG_RUNTIME_DIR: join(dir, 'xdg') }]);
    expect(args.slice(0, 2)).toEqual(['--tmpfs', realpathSync('/run')]);
    expect(args).toContain(join(dir, 'xdg'));
    for (const entry of readdirSync('/run', { withFileTypes: true }).filter((e) => e.isSymbolicLink())) {
      const link = join('/run', entry.name);
      expect(args.join(' ')).toContain(`--symlink ${readlinkSync(link)} ${link}`);
    }
    expect(socketFolderArgs([{ XDG_RUNTIME_DIR: '/run/user/0' }]).filter((a) => a === '--tmpfs')).toHaveLength(1);
    for (const wrong of ['/', homedir(), 'relative/dir']) {
      expect(socketFolderArgs([{ XDG_RUNTIME_DIR: wrong }]).filter((a) => a === '--tmpfs')).toHaveLength(1);
    }
  });

  it("empties the runtime folder of the process's environment and of a session's own (an SDK query's env)", () => {
    const own = join(dir, 'xdg-session');
    mkdirSync(own, { recursive: true });
    const args = socketFolderArgs([{ XDG_RUNTIME_DIR: join(dir, 'xdg') }, { XDG_RUNTIME_DIR: own }]);
    expect(args).toContain(join(dir, 'xdg'));
    expect(args).toContain(own);
  });

  it('binds only the allowed sockets back in where Unix sockets are refused', () => {
    const allowed = join(dir, 'allowed.sock');
    const args = socketFileArgs({ rule: 'refuse', allowed: [allowed, join(dir, 'gone.sock')], keepEnv: [] }, []);
    expect(args).toEqual(['--ro-bind', allowed, allowed]);
  });

  it('covers every other socket the host has bound where commands may make their own', () => {
    const outside = join(dir, 'outside.sock');
    const allowed = join(dir, 'allowed.sock');
    const args = socketFileArgs({ rule: 'allow', allowed: [allowed], keepEnv: [] }, []).join(' ');
    expect(args).toContain(`--ro-bind /dev/null ${outside}`);
    expect(args).toContain(`--ro-bind ${allowed} ${allowed}`);
    expect(args).not.toContain(`/dev/null ${allowed}`);
    const inHidden = socketFileArgs({ rule: 'allow', allowed: [], keepEnv: [] }, [dir]).join(' ');
    expect(inHidden).not.toContain(outside);
  });

  it("as root: a socket in another user's closed folder gets no cover (nothing without capabilities reaches it)", async () => {
    if (process.getuid?.() !== 0) return; // as another user the socket cannot even be seen
    const closed = join(dir, 'closed');
    const open = join(dir, 'open');
    mkdirSync(closed);
    mkdirSync(open);
    await listen(join(closed, 'their.sock'));
    await listen(join(open, 'their.sock'));
    chownSync(closed, 65534, 65534);
    chmodSync(closed, 0o700);
    chownSync(open, 65534, 65534);
    chmodSync(open, 0o711);
    const args = socketFileArgs({ rule: 'allow', allowed: [], keepEnv: [] }, []).join(' ');
    expect(args).not.toContain(join(closed, 'their.sock'));
    expect(args).toContain(`--ro-bind /dev/null ${join(open, 'their.sock')}`);
  });
});
