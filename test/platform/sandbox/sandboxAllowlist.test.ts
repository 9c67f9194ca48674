// The network allowlist of the command sandbox (docs/sandbox.md#the-network-allowlist), attack-corpus style: run for
// real inside bwrap with `network = "allowlist"` and `allowed_domains = ["localhost"]` against loopback fixtures (HTTP,
// HTTPS with a self-signed certificate, UDP) on 127.0.0.1. Allowed requests through the proxy reach them; every other
// way out — addresses or names not listed, bypassing the proxy, raw sockets, /dev/tcp, DNS, the proxy's socket
// spoken to directly — fails with the fixtures counting no hit.
import { spawnSync } from 'node:child_process';
import { createSocket, type Socket } from 'node:dgram';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createTlsServer, type Server as TlsServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommandBoundary, type CommandRun } from '../../../src/tools/boundary/commandBoundary';
import { DEFAULT_SANDBOX_SETTINGS } from '../../../src/tools/boundary/sandboxSettings';
import { requireSystemPart } from '../../helpers/requireAll';
import { sandboxAvailable } from '../../helpers/sandboxAvailable';
import { runSandboxSpawn } from '../../helpers/sandboxSpawn';

const available =
  sandboxAvailable() &&
  requireSystemPart('openssl', 'makes the HTTPS fixture certificate') &&
  requireSystemPart('python3', 'the corpus reaches out from Python too');
let root: string;
let ws: string;
let sessionDir: string;
let sandbox: CommandBoundary;
let http: Server;
let https: TlsServer;
let udp: Socket;
const ports = { P: 0, Q: 0, U: 0 };
const hits = { http: 0, https: 0, udp: 0 };

beforeAll(async () => {
  if (!available) return;
  root = mkdtempSync(join(tmpdir(), 'sbx-al-'));
  ws = join(root, 'ws');
  sessionDir = join(root, 'home', '.jarvis-code', 'sessions', 'p', 's1');
  mkdirSync(ws, { recursive: true });
  mkdirSync(sessionDir, { recursive: true });
  const key = join(root, 'key.pem');
  const cert = join(root, 'cert.pem');
  const made = spawnSync('openssl', [
    ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'],
    ...['-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=localhost'],
  ]);
  if (made.status !== 0) throw new Error(`openssl could not make the fixture certificate: ${made.stderr}`);
  http = createServer((_req, res) => {
    hits.http++;
    res.end('HTTP-FIXTURE-OK');
  });
  https = createTlsServer({ key: readFileSync(key), cert: readFileSync(cert) }, (_req, res) => {
    hits.https++;
    res.end('HTTPS-FIXTURE-OK');
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  await new Promise<void>((resolve) => https.listen(0, '127.0.0.1', resolve));
  ports.P = (http.address() as { port: number }).port;
  ports.Q = (https.address() as { port: number }).port;
  udp = createSocket('udp4');
  udp.on('message', () => hits.udp++);
  await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', resolve));
  ports.U = udp.address().port;
  const settings = { ...DEFAULT_SANDBOX_SETTINGS, network: 'allowlist' as const, allowedDomains: ['localhost'] };
  const jarvisHome = join(root, 'home', '.jarvis-code');
  const folders = { workspace: [ws], scratch: sessionDir, jarvisHome, home: join(root, 'home') };
  sandbox = new CommandBoundary(settings, folders);
});

afterAll(async () => {
  if (!available) return;
  await sandbox.close();
  await new Promise((resolve) => http.close(resolve));
  await new Promise((resolve) => https.close(resolve));
  udp.close();
});

/**
 * Where the proxy's socket used to be bound inside (on the private /tmp). Nothing is there now: the bridge gets its
 * connections through Jarvis (proxyBridge.ts), and no command can create a Unix socket; the attacks that spoke to the
 * socket directly still run, to show that doing so reaches nothing.
 */
const OLD_SOCKET_INSIDE = '/tmp/.jarvis-network-proxy.sock';

/** Runs `command` in the sandbox (asynchronously: the proxy answers from this process) and waits for its end. */
async function run(command: string): Promise<{ code: number | null; out: string; plan: CommandRun }> {
  const plan = await sandbox.prepare({ command, cwd: ws });
  if (plan.kind !== 'sandboxed') throw new Error(`expected a sandboxed plan, got ${plan.kind}`);
  const env = { ...process.env, P: String(ports.P), Q: String(ports.Q), U: String(ports.U), SOCK: OLD_SOCKET_INSIDE };
  const { code, out } = await runSandboxSpawn(plan.spawn, { cwd: ws, env });
  plan.settle();
  if (/^bwrap: /m.test(out)) throw new Error(`bwrap could not set up the sandbox: ${out}`);
  return { code, out, plan };
}

/** The proxy sockets under JARVIS_CODE_HOME/sandbox (one per started proxy). */
function proxySockets(): string[] {
  const dir = join(root, 'home', '.jarvis-code', 'sandbox');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((n) => n.startsWith('net-'))
    .map((n) => join(dir, n, 'proxy.sock'));
}

const py = (code: string) => `python3 -c ${JSON.stringify(code)}`;
const node = (code: string) => `node -e ${JSON.stringify(code)}`;

/** Through the proxy to a listed name: each reaches its fixture once. */
const ALLOWED: Array<[string, keyof typeof hits, string]> = [
  ['curl -sS -f --max-time 20 http://localhost:$P/ok', 'http', 'HTTP-FIXTURE-OK'],
  ['curl -sS -f -k --max-time 20 https://localhost:$Q/ok', 'https', 'HTTPS-FIXTURE-OK'],
  ['curl -sS -f -k --max-time 20 https://LOCALHOST.:$Q/ok', 'https', 'HTTPS-FIXTURE-OK'],
  [
    py('import urllib.request,os;print(urllib.request.urlopen("http://localhost:"+os.environ["P"]).read())'),
    'http',
    'HTTP-FIXTURE-OK',
  ],
];

/** Every other way out; none may reach a fixture. */
const REFUSED: string[] = [
  // addresses and names not listed, through the proxy
  'curl -sS -f --max-time 10 http://127.0.0.1:$P/',
  'curl -sS -f -k --max-time 10 https://127.0.0.1:$Q/',
  'curl -sS -f --max-time 10 http://[::1]:$P/',
  'curl -sS -f --max-time 10 http://notlisted.test:$P/',
  'curl -sS -f --max-time 10 http://localhost.evil.test:$P/',
  'curl -sS -f --max-time 10 -H "Host: localhost" http://127.0.0.1:$P/',
  'curl -sS -f --max-time 10 http://localhost@127.0.0.1:$P/',
  'curl -sS -f -k --max-time 10 --proxytunnel http://127.0.0.1:$P/',
  'curl -sS -f --max-time 10 --resolve notlisted.test:$P:127.0.0.1 http://notlisted.test:$P/',
  'curl -sS -f --max-time 10 http://169.254.169.254/latest/meta-data/',
  'git ls-remote http://127.0.0.1:$P/repo.git',
  // issue 35: other spellings of the loopback address, and a body framing the proxy does not forward
  'curl -sS -f --max-time 10 http://2130706433:$P/',
  'curl -sS -f --max-time 10 http://0177.0.0.1:$P/',
  'curl -sS -f --max-time 10 http://[::ffff:127.0.0.1]:$P/',
  'curl -sS -f --max-time 10 -H "Transfer-Encoding: chunked" -d x http://localhost:$P/',
  py('import urllib.request,os;urllib.request.urlopen("http://127.0.0.1:"+os.environ["P"])'),
  // bypassing the proxy
  "curl -sS --max-time 10 --noproxy '*' http://localhost:$P/",
  "curl -sS --max-time 10 --noproxy '*' http://127.0.0.1:$P/",
  'curl -sS -k --max-time 10 -x "" https://localhost:$Q/',
  'env -u http_proxy -u HTTP_PROXY -u ALL_PROXY -u all_proxy curl -sS --max-time 10 http://localhost:$P/',
  node('fetch("http://localhost:"+process.env.P).then(r=>r.text()).then(console.log)'),
  node('fetch("http://127.0.0.1:"+process.env.P).then(r=>r.text()).then(console.log)'),
  node('require("net").connect(+process.env.P,"127.0.0.1").on("connect",()=>console.log("CONNECTED"))'),
  py('import socket,os;socket.create_connection(("127.0.0.1",int(os.environ["P"])),5)'),
  py('import socket,os;socket.create_connection(("localhost",int(os.environ["Q"])),5)'),
  'exec 3<>/dev/tcp/127.0.0.1/$P && printf "GET / HTTP/1.0\\r\\n\\r\\n" >&3 && cat <&3',
  'exec 3<>/dev/tcp/localhost/$Q && printf "x" >&3 && cat <&3',
  // UDP and DNS
  'getent hosts example.com',
  // the proxy's socket spoken to directly, without an absolute URI or with a refused one
  'curl -sS -f --max-time 10 --unix-socket $SOCK http://localhost:$P/',
  'curl -sS -f --max-time 10 --unix-socket $SOCK http://127.0.0.1:$P/',
];

/** Sent without an error the command can see (a UDP datagram; a tunnel refused with a 403 it prints), yet never arriving. */
const LOST: string[] = [
  py(
    'import socket,os;s=socket.socket(socket.AF_INET,socket.SOCK_DGRAM);s.sendto(b"x",("127.0.0.1",int(os.environ["U"])))',
  ),
  'echo x > /dev/udp/127.0.0.1/$U',
  node(
    'const s=require("net").connect(process.env.SOCK);s.write("CONNECT 127.0.0.1:"+process.env.P+' +
      '" HTTP/1.1\\r\\nHost: x\\r\\n\\r\\nGET / HTTP/1.0\\r\\n\\r\\n");s.pipe(process.stdout)',
  ),
  // issue 35: spellings getaddrinfo reads as 127.0.0.1, sent to the proxy's socket as they are
  ...['0177.0.0.1', '2130706433', '127.1', '0x7f.0.0.1'].map((host) =>
    node(
      `const s=require("net").connect(process.env.SOCK);s.write("CONNECT ${host}:"+process.env.P+` +
        '" HTTP/1.1\\r\\nHost: x\\r\\n\\r\\nGET / HTTP/1.0\\r\\n\\r\\n");s.pipe(process.stdout)',
    ),
  ),
];

describe.skipIf(!available)('the sandbox network allowlist', () => {
  it('starts no proxy before the first allowlist command', () => {
    expect(proxySockets()).toEqual([]);
  });

  it.each(ALLOWED)('reaches a listed name through the proxy: %s', async (command, fixture, body) => {
    const before = { ...hits };
    const r = await run(command);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toContain(body);
    expect(hits[fixture]).toBe(before[fixture] + 1);
    expect(proxySockets()).toHaveLength(1);
  });

  it('keeps the proxy socket in a private folder the command cannot see or replace', async () => {
    const [socket] = proxySockets();
    expect(statSync(join(socket, '..')).mode & 0o777).toBe(0o700);
    const r = await run(`ls -la ${JSON.stringify(join(socket, '..'))}; test ! -e ${JSON.stringify(socket)}`);
    expect(r.code, r.out).toBe(0);
    const swap = await run('rm -f $SOCK || ln -sf /run/x $SOCK; curl -sS -f --max-time 20 http://localhost:$P/ok');
    expect(swap.out).toContain('HTTP-FIXTURE-OK');
    expect(readdirSync(sessionDir)).toEqual([]);
  });

  it.each(REFUSED)('refuses: %s', async (command) => {
    const before = { ...hits };
    const r = await run(command);
    expect(hits, r.out).toEqual(before);
    expect(r.code, r.out).not.toBe(0);
    expect(r.out).not.toMatch(/FIXTURE-OK|CONNECTED/);
  });

  it.each(LOST)('sends nowhere: %s', async (command) => {
    const before = { ...hits };
    const r = await run(command);
    expect(hits, r.out).toEqual(before);
    expect(r.out).not.toMatch(/FIXTURE-OK|CONNECTED/);
  });

  it('explains a refused domain in the result, naming it and the config key', async () => {
    const r = await run('curl -sS -f --max-time 10 http://notlisted.test:$P/');
    if (r.plan.kind !== 'sandboxed') throw new Error('expected a sandboxed plan');
    const said = r.plan.explain(r.out, r.code);
    expect(said).toContain(`refused notlisted.test:${ports.P}`);
    expect(said).toContain('[sandbox] allowed_domains');
  });

  it('explains a connection that bypassed the proxy', async () => {
    const r = await run(node('fetch("http://localhost:"+process.env.P).then(r=>r.text()).then(console.log)'));
    if (r.plan.kind !== 'sandboxed') throw new Error('expected a sandboxed plan');
    expect(r.plan.explain(r.out, r.code)).toContain('ignores those variables');
  });

  it('passes the exit status of the command on', async () => {
    expect((await run('exit 7')).code).toBe(7);
    expect((await run('kill -TERM $$')).code).toBe(128 + 15);
  });

  it('removes the socket and its folder when closed, and starts again on the next command', async () => {
    await sandbox.close();
    expect(proxySockets()).toEqual([]);
    const before = hits.http;
    expect((await run('curl -sS -f --max-time 20 http://localhost:$P/ok')).out).toContain('HTTP-FIXTURE-OK');
    expect(hits.http).toBe(before + 1);
  });

  it('holds the corpus size', () => {
    expect(REFUSED.length + LOST.length).toBeGreaterThanOrEqual(36);
  });
});
