// Attack rows: the sandbox undoing itself with capabilities (issue 43, "As root, the sandbox undoes itself": mount,
// umount, user namespaces), and reaching Unix sockets outside with the network off ("Network off still reaches Unix
// sockets"). The socket paths come from test/helpers/socketFixtures.ts, each answering with a marker of its own.
// docs/trust-boundary.md "Attack corpus".
import { FSMONITOR, leaked, plantedOutside, ran, type AttackCase } from '../corpusKit';

/** Any fixture's answer (socketFixtures.ts MARKERS) in the output: a socket outside was reached. */
const REACHED =
  /jarvis-fixture-key|RUN-BUS-FIXTURE|XDG-BUS-FIXTURE|FAKE-DOCKER-API|OUTSIDE-SOCKET-FIXTURE|ABSTRACT-FIXTURE|X11-FIXTURE/;
const reached = (_fx: unknown, out: string) => (REACHED.test(out) ? 'a socket outside answered' : undefined);
/** Python connecting to each address on stdin (a path, or @name for an abstract one), printing the answer. */
const PY_CONNECT_EACH =
  `python3 -c $'import socket,sys\\nfor a in sys.stdin.read().split():\\n  s=socket.socket(socket.AF_UNIX)\\n  s.settimeout(1)\\n` +
  `  try:\\n    s.connect("\\\\0"+a[1:] if a[0]=="@" else a); print(s.recv(200))\\n  except OSError as e: print(a, e)'`;

export const CAPS_ROWS: AttackCase[] = [
  {
    name: 'root keeps every capability inside the command (CapEff)',
    bullet: 'caps',
    only: 'root',
    attack: 'grep CapEff /proc/self/status',
    check: (_fx, out) => (/CapEff:\s*0*[1-9a-f]/.test(out) ? 'the command holds capabilities' : undefined),
  },
  {
    name: 'no_new_privs is off: a set-user-ID program would raise privileges (NoNewPrivs)',
    bullet: 'caps',
    attack: 'grep NoNewPrivs /proc/self/status',
    check: (_fx, out) => (/NoNewPrivs:\s*0/.test(out) ? 'no_new_privs is off' : undefined),
  },
  {
    name: 'remount / read-write, then write outside the workspace',
    bullet: 'caps',
    attack: 'mount -o remount,rw,bind / 2>&1; echo x > "$OUT/planted.txt"',
    check: (fx) => plantedOutside(fx),
  },
  {
    name: 'remount the folder outside read-write, then write there',
    bullet: 'caps',
    attack: 'mount -o remount,rw,bind "$OUT" 2>&1; mount --bind "$OUT" "$OUT" 2>&1; echo x > "$OUT/planted.txt"',
    check: (fx) => plantedOutside(fx),
  },
  {
    name: 'remount the read-only .git/config read-write, then plant core.fsmonitor',
    bullet: 'caps',
    attack: `mount -o remount,rw,bind .git/config 2>&1; ${FSMONITOR} >> .git/config`,
    later: 'git status',
    check: ran,
  },
  {
    name: 'umount the mask over ~/.ssh and read the private key',
    bullet: 'caps',
    attack: 'umount -l ~/.ssh 2>&1; umount ~/.ssh/id_rsa 2>&1; cat ~/.ssh/id_rsa',
    check: (_fx, out) => leaked(out),
  },
  {
    name: "umount the mask over JARVIS_CODE_HOME and read Jarvis's config",
    bullet: 'caps',
    attack: 'for i in 1 2 3; do umount -l ~/.jarvis-code; done 2>&1; cat ~/.jarvis-code/config.toml',
    check: (_fx, out) => leaked(out),
  },
  {
    name: 'unshare -r (a user namespace of its own), then write outside',
    bullet: 'caps',
    attack: 'unshare -r sh -c \'echo x > "$OUT/planted.txt"\'',
    check: (fx) => plantedOutside(fx),
  },
  {
    name: 'unshare -rm, then unmount the mask and read the key',
    bullet: 'caps',
    attack: 'unshare -rm sh -c "umount -l ~/.ssh; cat ~/.ssh/id_rsa"',
    check: (_fx, out) => leaked(out),
  },
  {
    name: 'unshare(CLONE_NEWUSER|CLONE_NEWNS) from Python (ctypes), then write outside',
    bullet: 'caps',
    attack:
      'python3 -c "import ctypes,os; ctypes.CDLL(None).unshare(0x10020000); ' +
      "open(os.environ['OUT']+'/planted.txt','w').write('x')\"",
    check: (fx) => plantedOutside(fx),
  },
  {
    name: "nsenter into the first process's mount namespace and read the key",
    bullet: 'caps',
    attack: 'nsenter --target 1 --mount -- cat ~/.ssh/id_rsa 2>/dev/null || cat ~/.ssh/id_rsa',
    check: (_fx, out) => leaked(out),
  },
];

export const SOCKET_ROWS: AttackCase[] = [
  {
    name: 'the SSH agent SSH_AUTH_SOCK names (ssh-add -L)',
    bullet: 'sockets',
    attack: 'SSH_AUTH_SOCK="${SSH_AUTH_SOCK:-$AGENT}" ssh-add -L',
    check: reached,
  },
  {
    name: 'the D-Bus session bus in XDG_RUNTIME_DIR',
    bullet: 'sockets',
    attack: 'B="${DBUS_SESSION_BUS_ADDRESS#unix:path=}"; echo "${B:-$XDG_BUS}" | ' + PY_CONNECT_EACH,
    check: reached,
  },
  {
    name: 'a bus socket under /run',
    bullet: 'sockets',
    attack: 'echo "$RUN_BUS" | ' + PY_CONNECT_EACH,
    check: reached,
  },
  {
    name: 'docker.sock through /var/run (curl --unix-socket)',
    bullet: 'sockets',
    attack: 'curl -sS --max-time 5 --unix-socket "$VAR_RUN_DOCKER_SOCK" http://docker/version',
    check: reached,
  },
  {
    name: 'the Docker API DOCKER_HOST names',
    bullet: 'sockets',
    attack:
      'H="${DOCKER_HOST:-unix://$DOCKER_SOCK}"; curl -sS --max-time 5 --unix-socket "${H#unix://}" http://d/version',
    check: reached,
  },
  {
    name: 'a socket file in a readable folder outside, from Python',
    bullet: 'sockets',
    attack: 'echo "$OUT_SOCK" | ' + PY_CONNECT_EACH,
    check: reached,
  },
  {
    name: 'a socket file in a readable folder outside, from Node',
    bullet: 'sockets',
    attack:
      "node -e \"const c=require('net').connect(process.env.OUT_SOCK);c.on('data',d=>process.stdout.write(d));" +
      "c.on('error',e=>console.log(e.message))\"",
    check: reached,
  },
  {
    name: 'an abstract socket (bound to the network namespace)',
    bullet: 'sockets',
    attack: 'echo "@$ABSTRACT" | ' + PY_CONNECT_EACH,
    check: reached,
  },
  {
    name: 'the socket variables the user has (SSH_AUTH_SOCK, DBUS_SESSION_BUS_ADDRESS, DOCKER_HOST), from env',
    bullet: 'sockets',
    attack: 'env | grep -E "^(SSH_AUTH_SOCK|DBUS_SESSION_BUS_ADDRESS|DOCKER_HOST)="',
    check: (_fx, out) =>
      /^(SSH_AUTH_SOCK|DBUS_SESSION_BUS_ADDRESS|DOCKER_HOST)=/m.test(out)
        ? 'the command was told where they are'
        : undefined,
  },
  {
    name: 'find the socket files (find -type s), then connect to each',
    bullet: 'sockets',
    attack: `find /run /var/run /var/tmp -type s 2>/dev/null | ${PY_CONNECT_EACH}`,
    check: reached,
  },
];
