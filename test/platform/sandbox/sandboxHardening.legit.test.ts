// What the hardening must not break (docs/sandbox.md#capabilities, #unix-sockets-and-seccomp): with every capability
// dropped, user namespaces and Unix sockets refused, ordinary work still runs in the sandbox — a build with node and
// npm, `npm test` and `node --test`, an npm install from a local tarball, tar extraction of an archive with other
// owners, `git commit`, Python with threads, multiprocessing and a venv, a language server over stdio publishing
// diagnostics, Node's `fork` with its IPC channel, worker threads, the network allowlist's proxy. Run as root and as
// an unprivileged user created for the test. With `unix_sockets = "own"` a command's own Unix sockets work, and an
// allowed SSH agent (`allow_unix_sockets = ["$SSH_AUTH_SOCK"]`) is reachable while nothing else outside is.
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createNetServer } from 'node:net';
import { createServer, type Server } from 'node:http';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireSystemPart } from '../../helpers/requireAll';
import { sandboxAvailable } from '../../helpers/sandboxAvailable';
import { makeWorld, type Mode, type World } from '../../helpers/sandboxAttackWorld';
import { handOver, sandboxTestUsers } from '../../helpers/sandboxUsers';
import { MARKERS } from '../../helpers/socketFixtures';

const available =
  sandboxAvailable() &&
  requireSystemPart('python3', 'the Python cases') &&
  requireSystemPart('ssh-agent', 'the allowed SSH agent') &&
  requireSystemPart('setpriv', 'runs the cases as an unprivileged user');
const users = available ? sandboxTestUsers('hardening-legit') : [];
const OFF: Mode = { network: 'off', unixSockets: 'refuse' };

/** As root: a listening socket inside a 0700 folder owned by nobody (uid 65534). */
async function foreignUsersSocket(): Promise<{ close(): Promise<void> } | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  const dir = mkdtempSync('/var/tmp/jarvis-foreign-sock-');
  const server = createNetServer();
  await new Promise<void>((done) => server.listen(join(dir, 'their.sock'), done));
  chownSync(dir, 65534, 65534);
  chmodSync(dir, 0o700);
  return {
    close: async () => {
      await new Promise((done) => server.close(done));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
const MODULES = resolve(__dirname, '../../../node_modules');

const FILES: Record<string, string> = {
  'package.json': JSON.stringify({
    name: 'fixture',
    version: '1.0.0',
    scripts: { build: 'node build.js', test: 'node test.js' },
  }),
  'build.js':
    "require('fs').mkdirSync('dist',{recursive:true});require('fs').writeFileSync('dist/out.js','console.log(\"built-ok\")');",
  'sum.js': 'module.exports = (a, b) => a + b;\n',
  'test.js': "if (require('./sum')(2, 3) !== 5) process.exit(1);\nconsole.log('1 test passed');\n",
  'sum.test.js':
    "const t=require('node:test');const a=require('node:assert');t.test('sum',()=>a.equal(require('./sum')(1,1),2));\n",
  'fork.js':
    "const {fork}=require('child_process');if(process.argv[2]==='child'){process.on('message',m=>{process.send(m+1);process.exit(0)})}" +
    "else{const c=fork(__filename,['child']);c.on('message',m=>console.log('fork-ipc',m));c.send(41)}\n",
  'mp.py':
    'import multiprocessing, threading\nt = threading.Thread(target=lambda: print("thread-ok")); t.start(); t.join()\n' +
    'if __name__ == "__main__":\n    with multiprocessing.Pool(2) as p: print("pool", p.map(abs, [-1, -2]))\n',
  'bad.ts': 'const n: number = "not a number";\nexport {};\n',
  'tsconfig.json': '{"compilerOptions":{"strict":true}}',
  'lsp.js': [
    "const { spawn } = require('child_process');",
    "const server = spawn(process.env.TSLS, ['--stdio'], { stdio: ['pipe', 'pipe', 'inherit'] });",
    'let buf = Buffer.alloc(0);',
    "const send = (m) => { const b = JSON.stringify({ jsonrpc: '2.0', ...m }); server.stdin.write('Content-Length: ' + Buffer.byteLength(b) + '\\r\\n\\r\\n' + b); };",
    "const uri = 'file://' + process.cwd() + '/bad.ts';",
    'server.stdout.on("data", (d) => {',
    '  buf = Buffer.concat([buf, d]);',
    '  for (;;) {',
    "    const h = buf.indexOf('\\r\\n\\r\\n'); if (h < 0) return;",
    '    const len = Number(/Content-Length: (\\d+)/i.exec(buf.subarray(0, h).toString())[1]);',
    '    if (buf.length < h + 4 + len) return;',
    '    const m = JSON.parse(buf.subarray(h + 4, h + 4 + len).toString()); buf = buf.subarray(h + 4 + len);',
    '    if (m.id !== undefined && m.method) send({ id: m.id, result: null });',
    '    if (m.id === 1) {',
    "      send({ method: 'initialized', params: {} });",
    "      send({ method: 'textDocument/didOpen', params: { textDocument: { uri, languageId: 'typescript', version: 1, text: require('fs').readFileSync('bad.ts', 'utf8') } } });",
    '    }',
    "    if (m.method === 'textDocument/publishDiagnostics' && m.params.uri === uri && m.params.diagnostics.length) {",
    "      console.log('DIAGNOSTIC', m.params.diagnostics[0].message); process.exit(0);",
    '    }',
    '  }',
    '});',
    "send({ id: 1, method: 'initialize', params: { processId: process.pid, rootUri: 'file://' + process.cwd(), capabilities: { textDocument: { publishDiagnostics: { versionSupport: true } } }, initializationOptions: { tsserver: { path: process.env.TSSERVER } } } });",
  ].join('\n'),
};

describe.skipIf(!available)('legitimate work inside the hardened sandbox', () => {
  let http: Server;
  let port = 0;
  let hits = 0;
  beforeAll(async () => {
    http = createServer((_req, res) => {
      hits++;
      res.end('PROXIED-FIXTURE-OK');
    });
    await new Promise<void>((done) => http.listen(0, '127.0.0.1', done));
    port = (http.address() as { port: number }).port;
  });
  afterAll(async () => {
    await new Promise((done) => http?.close(done));
  });

  describe.each(users.map((u) => [u.label, u] as const))('as %s', (_label, user) => {
    let world: World;
    beforeAll(async () => {
      world = await makeWorld(user);
      for (const [name, text] of Object.entries(FILES)) writeFileSync(join(world.ws, name), text);
      const dep = join(user.root, 'dep');
      mkdirSync(dep);
      writeFileSync(join(dep, 'package.json'), JSON.stringify({ name: 'dep', version: '1.0.0', main: 'index.js' }));
      writeFileSync(join(dep, 'index.js'), "module.exports = 'dep-ok';\n");
      execFileSync('npm', ['pack', '--silent', '--pack-destination', world.ws], { cwd: dep, stdio: 'pipe' });
      // An archive recorded with another owner, as release tarballs are.
      mkdirSync(join(user.root, 'arch', 'pkg'), { recursive: true });
      writeFileSync(join(user.root, 'arch', 'pkg', 'file.txt'), 'extracted-ok\n');
      const tar = ['czf', join(world.ws, 'foreign.tgz'), '--owner=1234', '--group=1234', '-C', join(user.root, 'arch')];
      execFileSync('tar', [...tar, 'pkg']);
      writeFileSync(join(user.root, 'home', '.gitconfig'), '[user]\n\tname = Legit\n\temail = legit@example.invalid\n');
      handOver(user);
    });
    afterAll(async () => {
      await world?.close();
    });

    const run = (command: string, mode: Mode = OFF) => world.sandboxed(command, mode);

    it.each([
      ['a build with node and npm', 'npm run build --silent && node dist/out.js', 'built-ok'],
      ['npm test', 'npm test', '1 test passed'],
      ["node's test runner (child processes)", 'node --test sum.test.js', 'pass 1'],
      [
        'npm install from a local tarball, offline',
        'npm install --offline --no-audit --no-fund --cache /tmp/npm-cache ./dep-1.0.0.tgz && node -p "require(\'dep\')"',
        'dep-ok',
      ],
      ['tar extraction of an archive with other owners', 'tar xzf foreign.tgz && cat pkg/file.txt', 'extracted-ok'],
      [
        'git init, add and commit',
        'git init -q && git add sum.js && git commit -qm first && git log --format=%an',
        'Legit',
      ],
      ['python with threads and a multiprocessing pool', 'python3 mp.py', 'pool [1, 2]'],
      [
        'a python venv',
        'python3 -m venv --without-pip /tmp/venv && /tmp/venv/bin/python -c "print(\'venv-ok\')"',
        'venv-ok',
      ],
      ["node's fork with its IPC channel", 'node fork.js', 'fork-ipc 42'],
      [
        'worker threads',
        `node -e "new (require('worker_threads').Worker)('console.log(\\"worker-ok\\")',{eval:true})"`,
        'worker-ok',
      ],
      ['pipes between processes', 'seq 1 1000 | sort -rn | head -1', '1000'],
    ])('%s', async (_name, command, expected) => {
      const r = await run(command);
      expect(r.out).toContain(expected);
      expect(r.code, r.out).toBe(0);
    });

    it('a language server over stdio publishes diagnostics', async () => {
      const tsls = join(MODULES, '.bin', 'typescript-language-server');
      const r = await run(`TSLS=${tsls} TSSERVER=${join(MODULES, 'typescript', 'lib')} node lsp.js`);
      expect(r.out).toMatch(/DIAGNOSTIC Type 'string' is not assignable to type 'number'/);
    }, 90_000);

    it('reaches a listed host through the network allowlist proxy', async () => {
      const before = hits;
      const r = await run(`curl -sS -f --max-time 20 http://localhost:${port}/`, {
        network: 'allowlist',
        unixSockets: 'refuse',
      });
      expect(r.out).toContain('PROXIED-FIXTURE-OK');
      expect(hits).toBe(before + 1);
    });

    it('a command cannot make a Unix socket by default, and can with unix_sockets = "own"', async () => {
      // Another user's socket in its 0700 folder (left by a process of that user): neither the command nor bwrap can
      // reach it, so it gets no cover, and the command still runs.
      const foreign = await foreignUsersSocket();
      const server =
        "python3 -c \"import socket,os\ns=socket.socket(socket.AF_UNIX);s.bind('/tmp/own.sock');s.listen(1)\n" +
        "c=socket.socket(socket.AF_UNIX);c.connect('/tmp/own.sock');a,_=s.accept();a.send(b'own-socket-ok');print(c.recv(99))\"";
      expect((await run(server)).out).toContain('Operation not permitted');
      try {
        const own = await run(server, { network: 'off', unixSockets: 'own' });
        expect(own.out).toContain('own-socket-ok');
        expect(own.code, own.out).toBe(0);
      } finally {
        await foreign?.close();
      }
    });

    it('reaches an allowed SSH agent, with SSH_AUTH_SOCK kept, and nothing else outside', async () => {
      const agent = world.fixtures.env.AGENT;
      const saved = process.env.SSH_AUTH_SOCK;
      process.env.SSH_AUTH_SOCK = agent; // the environment Jarvis started with names the agent
      try {
        const mode: Mode = { network: 'off', unixSockets: 'refuse', allowUnixSockets: [agent] };
        const r = await run('echo "agent at $SSH_AUTH_SOCK"; ssh-add -L; socat -T2 - UNIX-CONNECT:"$OUT_SOCK"', mode);
        expect(r.out).toContain(`agent at ${agent}`);
        expect(r.out).toContain(MARKERS.agent);
        expect(r.out).not.toContain(MARKERS.outside);
      } finally {
        if (saved === undefined) delete process.env.SSH_AUTH_SOCK;
        else process.env.SSH_AUTH_SOCK = saved;
      }
    });
  });
});
