// The hardening of the command sandbox, attack by attack (docs/sandbox.md#capabilities and #unix-sockets-and-seccomp):
// each row is first shown to work — in plain bash, or for a capability attack (which plain bash would aim at the host
// itself) in the sandbox as it was before, with capabilities and without the filter — and is then refused by the
// sandbox: nothing reached outside (the fixtures count no connection and print no marker), canaries untouched. Run as
// root and as an unprivileged user created for the test (test/helpers/sandboxUsers.ts), in every network mode and
// with `[sandbox] unix_sockets = "own"` as well, where commands may make their own sockets and only the file rule
// (and, network off or on the allowlist, the network namespace) keeps the outside ones away.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireSystemPart } from '../../helpers/requireAll';
import { sandboxAvailable } from '../../helpers/sandboxAvailable';
import { makeWorld, type Mode, type World } from '../../helpers/sandboxAttackWorld';
import { sandboxTestUsers } from '../../helpers/sandboxUsers';
import { ANY_MARKER, MARKERS } from '../../helpers/socketFixtures';

const available =
  sandboxAvailable() &&
  requireSystemPart('python3', 'attacks from Python') &&
  requireSystemPart('ssh-agent', 'the SSH agent fixture') &&
  requireSystemPart('setpriv', 'runs the attacks as an unprivileged user');

const REFUSE_MODES: Mode[] = [
  { network: 'off', unixSockets: 'refuse' },
  { network: 'allowlist', unixSockets: 'refuse' },
  { network: 'on', unixSockets: 'refuse' },
];
const PATH_MODES: Mode[] = [
  ...REFUSE_MODES,
  { network: 'off', unixSockets: 'own' },
  { network: 'on', unixSockets: 'own' },
];
/** An abstract socket has no file to hide: with commands making their own sockets, only a closed network holds it. */
const ABSTRACT_MODES: Mode[] = [...REFUSE_MODES, { network: 'off', unixSockets: 'own' }];
const CAPS_MODES: Mode[] = [{ network: 'off', unixSockets: 'refuse' }];

interface Attack {
  name: string;
  /** bash; `$VARS` come from the fixtures (socketFixtures.ts) and the user's folders. */
  attack: string;
  /** Whether the attack worked, judged from what it printed. */
  worked: (out: string) => boolean;
  /** How it is first shown to work; `old-sandbox` and `root` only where the running user is root. */
  proof: 'bash' | 'bash as root' | 'old sandbox as root';
  modes: Mode[];
  needs?: string;
}

const reached = (out: string) => ANY_MARKER.test(out);
const said = (token: string) => (out: string) => out.includes(token);
const capsHeld = (out: string) => /CapEff:\s*0*[1-9a-f]/.test(out);
/** `python3 -c` with the code in bash's $'…' quoting, so its lines stay lines. */
const py = (code: string) => `python3 -c $'${code.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;
const node = (code: string) => `node -e ${JSON.stringify(code)}`;
/** Python connecting to each address on stdin (a path, or @name for an abstract one) and printing what it answers. */
const PY_CONNECT_EACH = py(
  'import socket,sys\nfor a in sys.stdin.read().split():\n  s=socket.socket(socket.AF_UNIX)\n  s.settimeout(0.5)\n' +
    '  try:\n    s.connect("\\0"+a[1:] if a[0]=="@" else a); print(s.recv(200))\n  except OSError as e: print(a, e)',
);

const ATTACKS: Attack[] = [
  // capabilities
  {
    name: 'remount / read-write and write outside',
    attack: 'mount -o remount,rw,bind / && echo x > "$CANARY/remount.txt" && echo ATTACK-WORKED',
    worked: said('ATTACK-WORKED'),
    proof: 'old sandbox as root',
    modes: CAPS_MODES,
  },
  {
    name: 'umount the mask over ~/.ssh and read the private key',
    attack: 'umount -l ~/.ssh; umount ~/.ssh/id_rsa; cat ~/.ssh/id_rsa',
    worked: said('SSH-KEY-SECRET'),
    proof: 'old sandbox as root',
    modes: CAPS_MODES,
  },
  {
    name: "umount the mask over JARVIS_CODE_HOME and read Jarvis's config",
    attack: 'while umount -l "$JHOME"; do :; done; cat "$JHOME/config.toml"',
    worked: said('JARVIS-CONFIG-SECRET'),
    proof: 'old sandbox as root',
    modes: CAPS_MODES,
  },
  {
    name: 'mount a tmpfs over a hidden path',
    attack: 'mount -t tmpfs none ~/.ssh && echo ATTACK-WORKED',
    worked: said('ATTACK-WORKED'),
    proof: 'old sandbox as root',
    modes: CAPS_MODES,
  },
  {
    name: 'bind a writable folder over a read-only one',
    attack: 'mkdir -p w && mount --bind "$PWD/w" /usr/local && echo ATTACK-WORKED',
    worked: said('ATTACK-WORKED'),
    proof: 'old sandbox as root',
    modes: CAPS_MODES,
  },
  {
    name: 'unshare -r to get capabilities back',
    attack: 'unshare -r grep CapEff /proc/self/status',
    worked: capsHeld,
    proof: 'bash',
    modes: CAPS_MODES,
  },
  {
    name: 'unshare -rm, then unmount the mask',
    attack: 'unshare -rm sh -c "umount -l ~/.ssh; cat ~/.ssh/id_rsa; grep CapEff /proc/self/status"',
    worked: (out) => out.includes('SSH-KEY-SECRET') || capsHeld(out),
    proof: 'bash',
    modes: CAPS_MODES,
  },
  {
    name: 'a user namespace from Python (unshare(CLONE_NEWUSER) through ctypes)',
    attack: py(
      'import ctypes,os\nlibc=ctypes.CDLL(None,use_errno=True)\n' +
        'print("unshare",libc.unshare(0x10000000),os.strerror(ctypes.get_errno()))\nprint(open("/proc/self/status").read())',
    ),
    worked: capsHeld,
    proof: 'bash',
    modes: CAPS_MODES,
  },
  {
    name: "nsenter into the first process's mount namespace, then unmount the mask",
    attack: 'nsenter --target 1 --mount sh -c "umount -l ~/.ssh; cat ~/.ssh/id_rsa"',
    worked: said('SSH-KEY-SECRET'),
    proof: 'old sandbox as root',
    modes: CAPS_MODES,
  },
  {
    name: 'the CapEff and no_new_privs of the command (capsh)',
    attack: 'grep -E "CapEff|NoNewPrivs" /proc/self/status; capsh --print | grep -i "^Current"',
    worked: capsHeld,
    proof: 'bash as root',
    modes: CAPS_MODES,
  },
  // Unix sockets, and how an attacker finds them
  {
    name: 'the SSH agent SSH_AUTH_SOCK names (ssh-add -L)',
    attack: 'SSH_AUTH_SOCK="${SSH_AUTH_SOCK:-$AGENT}" ssh-add -L',
    worked: said(MARKERS.agent),
    proof: 'bash',
    modes: PATH_MODES,
  },
  {
    name: 'the D-Bus session bus in XDG_RUNTIME_DIR (DBUS_SESSION_BUS_ADDRESS)',
    attack: 'B="${DBUS_SESSION_BUS_ADDRESS#unix:path=}"; echo "${B:-$XDG_BUS}" | ' + PY_CONNECT_EACH,
    worked: reached,
    proof: 'bash',
    modes: PATH_MODES,
  },
  {
    name: 'a bus socket under /run (like /run/user/N/bus, /run/dbus)',
    attack: 'echo "$RUN_BUS" | ' + PY_CONNECT_EACH,
    worked: reached,
    proof: 'bash',
    modes: PATH_MODES,
  },
  {
    name: 'docker.sock through /var/run (curl --unix-socket)',
    attack: 'curl -sS --max-time 5 --unix-socket "$VAR_RUN_DOCKER_SOCK" http://docker/version',
    worked: reached,
    proof: 'bash',
    modes: PATH_MODES,
  },
  {
    name: 'the Docker API DOCKER_HOST names',
    attack:
      'S="${DOCKER_HOST#unix://}"; curl -sS --max-time 5 --unix-socket "${S:-$DOCKER_SOCK}" http://docker/version',
    worked: reached,
    proof: 'bash',
    modes: PATH_MODES,
  },
  {
    name: 'a socket file in a readable folder outside, from Python',
    attack: 'echo "$OUT_SOCK" | ' + PY_CONNECT_EACH,
    worked: reached,
    proof: 'bash',
    modes: PATH_MODES,
  },
  {
    name: 'a socket file in a readable folder outside, from Node',
    attack: node(
      'require("net").connect(process.env.OUT_SOCK).on("data",(d)=>console.log(String(d))).on("error",console.log)',
    ),
    worked: reached,
    proof: 'bash',
    modes: PATH_MODES,
  },
  {
    name: 'a socket file in a readable folder outside, with socat',
    attack: 'socat -T2 - UNIX-CONNECT:"$OUT_SOCK" </dev/null',
    worked: reached,
    proof: 'bash',
    modes: PATH_MODES,
    needs: 'socat',
  },
  {
    name: 'a socket file in a readable folder outside, with nc -U',
    attack: 'nc -U -w 2 "$OUT_SOCK" </dev/null',
    worked: reached,
    proof: 'bash',
    modes: PATH_MODES,
    needs: 'nc',
  },
  {
    name: 'a socket file in a readable folder outside, from Perl',
    attack: `perl -MIO::Socket::UNIX -e '$s=IO::Socket::UNIX->new(Peer=>$ENV{OUT_SOCK}) or die "$!\\n"; print <$s>'`,
    worked: reached,
    proof: 'bash',
    modes: PATH_MODES,
  },
  {
    name: 'a datagram socket outside (like /dev/log, journald): sendto from Python',
    attack: py(
      'import os,socket\ns=socket.socket(socket.AF_UNIX,socket.SOCK_DGRAM)\n' +
        's.sendto(b"x",os.environ["OUT_DGRAM"]);print("DATAGRAM-SENT")',
    ),
    worked: said('DATAGRAM-SENT'),
    proof: 'bash',
    modes: PATH_MODES,
  },
  {
    name: 'an abstract socket (bound to the network namespace)',
    attack: 'echo "@$ABSTRACT" | ' + PY_CONNECT_EACH,
    worked: reached,
    proof: 'bash',
    modes: ABSTRACT_MODES,
  },
  {
    name: 'an abstract socket with curl --abstract-unix-socket',
    attack: 'curl -sS --http0.9 --max-time 3 --abstract-unix-socket "$ABSTRACT" http://x/ 2>&1',
    worked: reached,
    proof: 'bash',
    modes: ABSTRACT_MODES,
  },
  {
    name: 'the X11 display, abstract @/tmp/.X11-unix/X… (socat)',
    attack: 'socat -T2 - ABSTRACT-CONNECT:"$X11_ABSTRACT" </dev/null',
    worked: reached,
    proof: 'bash',
    modes: ABSTRACT_MODES,
    needs: 'socat',
  },
  {
    name: 'find the socket files (find -type s), then connect to each',
    attack: `find /run /var/run /var/tmp -type s 2>/dev/null | ${PY_CONNECT_EACH}`,
    worked: reached,
    proof: 'bash',
    modes: PATH_MODES,
  },
  {
    name: 'list bound sockets in /proc/net/unix, then connect to each path and abstract name',
    attack: `awk 'NR>1 && $8 != "" {print $8}' /proc/net/unix | sort -u | ${PY_CONNECT_EACH}`,
    worked: reached,
    proof: 'bash',
    modes: ABSTRACT_MODES,
  },
  {
    name: 'list listening sockets with ss -xl, then connect to each',
    attack: `ss -xlnH | awk '{print $5}' | grep -v '^\\*$' | sort -u | ${PY_CONNECT_EACH}`,
    worked: reached,
    proof: 'bash',
    modes: ABSTRACT_MODES,
  },
  {
    name: 'socket() with the upper half of its domain argument set (ctypes)',
    attack: py(
      'import ctypes,os,platform,socket\nlibc=ctypes.CDLL(None,use_errno=True)\n' +
        'nr=41 if platform.machine()=="x86_64" else 198\nfd=libc.syscall(nr,ctypes.c_long(0x100000001),1,0)\n' +
        'print("fd",fd,os.strerror(ctypes.get_errno()))\nif fd>=0:\n  s=socket.socket(fileno=fd);s.connect(os.environ["OUT_SOCK"]);print(s.recv(99))',
    ),
    worked: reached,
    proof: 'bash',
    modes: PATH_MODES,
  },
  {
    name: 'io_uring, which creates sockets without socket() (io_uring_setup)',
    attack: py(
      'import ctypes\nlibc=ctypes.CDLL(None,use_errno=True)\np=ctypes.create_string_buffer(120)\n' +
        'fd=libc.syscall(425,8,p)\nprint("io_uring fd",fd, "ATTACK-WORKED" if fd>=0 else ctypes.get_errno())',
    ),
    worked: said('ATTACK-WORKED'),
    proof: 'bash',
    modes: CAPS_MODES,
  },
  {
    name: 'the socket variables are set (SSH_AUTH_SOCK, D-Bus, XDG_RUNTIME_DIR, DOCKER_HOST)',
    attack: 'env | grep -E "^(SSH_AUTH_SOCK|DBUS_SESSION_BUS_ADDRESS|XDG_RUNTIME_DIR|DOCKER_HOST)=" || true',
    worked: said('SSH_AUTH_SOCK='),
    proof: 'bash',
    modes: REFUSE_MODES,
  },
  {
    name: '/run shows the sockets of the host',
    attack: 'ls -la /run /var/run/ 2>&1; ls -R /run 2>/dev/null | grep -E "bus|docker.sock"',
    worked: said('docker.sock'),
    proof: 'bash',
    modes: REFUSE_MODES,
  },
];

const users = available ? sandboxTestUsers('hardening') : [];

describe.skipIf(!available)('the sandbox hardening against its attack corpus', () => {
  it('holds the corpus size', () => {
    expect(ATTACKS.reduce((n, a) => n + a.modes.length, 0)).toBeGreaterThanOrEqual(100);
  });

  describe.each(users.map((u) => [u.label, u] as const))('as %s', (_label, user) => {
    let world: World;
    beforeAll(async () => {
      world = await makeWorld(user);
    });
    afterAll(async () => {
      await world?.close();
    });

    it.for(ATTACKS.map((a) => [a.name, a] as const))('%s', async ([, row], ctx) => {
      if (row.needs && !requireSystemPart(row.needs, `the row "${row.name}"`)) return ctx.skip();
      await prove(world, row);
      for (const mode of row.modes) {
        const before = world.fixtures.hits();
        const r = await world.sandboxed(row.attack, mode);
        const where = `${mode.network}/${mode.unixSockets}: ${r.out}`;
        expect(row.worked(r.out), where).toBe(false);
        expect(reached(r.out), where).toBe(false);
        expect(world.fixtures.hits(), where).toBe(before);
        world.expectCanariesUntouched();
      }
    });
  });
});

/** Shows the attack working before it is refused; a proof that cannot be made for this user says why. */
async function prove(world: World, row: Attack): Promise<void> {
  const root = world.user.uid === 0;
  if (row.proof !== 'bash' && !root) {
    console.warn(`"${row.name}" is shown to work as root only: for ${world.user.label} the old sandbox held already`);
    return;
  }
  const r = row.proof === 'old sandbox as root' ? await world.oldSandbox(row.attack) : await world.plain(row.attack);
  if (!row.worked(r.out) && row.name.startsWith('io_uring') && /io_uring fd -1/.test(r.out)) {
    console.warn(`io_uring is off on this machine (${r.out.trim()}): the row shows only the sandbox's refusal`);
    return;
  }
  expect(row.worked(r.out), `${row.proof} did not show the attack working: ${r.out}`).toBe(true);
  world.resetCanaries();
}
