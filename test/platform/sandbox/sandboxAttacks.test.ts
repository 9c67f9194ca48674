// The attack corpus of the command sandbox (docs/sandbox.md), run for real inside bwrap from a temporary workspace:
// writes outside the workspace, reads of hidden secrets, the network, and processes that try to outlive the
// command, and reads of secrets in the environment. Every attack is refused and the canaries outside are verified untouched; the same kinds of commands on
// the workspace still work. Confinement is by mounts and namespaces, so it holds for root as well.
import { spawnSync } from 'node:child_process';
import { createSocket, type Socket } from 'node:dgram';
import { createServer, type Server } from 'node:http';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxSpawnEnv } from '../../../src/platform/processes';
import { CommandBoundary } from '../../../src/tools/boundary/commandBoundary';
import { HIDDEN_FILE_TEXT } from '../../../src/tools/boundary/hiddenFiles';
import { DEFAULT_SANDBOX_SETTINGS } from '../../../src/tools/boundary/sandboxSettings';
import { requireSystemPart } from '../../helpers/requireAll';
import { sandboxAvailable } from '../../helpers/sandboxAvailable';
import { spawnSandboxSync } from '../../helpers/sandboxSpawn';

const available = sandboxAvailable() && requireSystemPart('python3', 'the corpus attacks from Python too');
const SECRETS = [
  'sk-secret-123',
  'SUB-ENV-SECRET',
  'PEM-SECRET',
  'NPMRC-SECRET',
  'SSH-KEY-SECRET',
  'AWS-SECRET',
  'NETRC-SECRET',
  'GCLOUD-SECRET',
  'JARVIS-CONFIG-SECRET',
  'DOTFILE-SECRET',
  'ENV-MODEL-KEY-SECRET',
  'ENV-OPENAI-SECRET',
  'ENV-GITHUB-TOKEN-SECRET',
  'ENV-AWS-SECRET',
  'ENV-LOWER-SECRET',
  'ENV-BASH-FUNC-SECRET',
  'ENV-BARE-KEY-SECRET',
];

/** Secrets in the environment Jarvis runs with (its model key, provider keys, a token): none reaches a command. */
const SECRET_ENV = {
  JARVIS_MODEL_API_KEY: 'ENV-MODEL-KEY-SECRET',
  OPENAI_API_KEY: 'ENV-OPENAI-SECRET',
  GITHUB_TOKEN: 'ENV-GITHUB-TOKEN-SECRET',
  AWS_SECRET_ACCESS_KEY: 'ENV-AWS-SECRET',
  // issue 35: a lower-case name, an exported bash function whose %% hid its TOKEN ending, a bare ..._KEY
  openai_api_key: 'ENV-LOWER-SECRET',
  'BASH_FUNC_get_token%%': '() {  echo ENV-BASH-FUNC-SECRET\n}',
  ANTHROPIC_KEY: 'ENV-BARE-KEY-SECRET',
};

let root: string;
let ws: string;
let home: string;
let jarvis: string;
let sessionDir: string;
let outside: string;
let hostCanary: string;
let sandbox: CommandBoundary;
let http: Server;
let httpPort: number;
let httpHits = 0;
let dns: Socket;
let dnsPort: number;
let dnsHits = 0;
let canaries: Map<string, string>;

function write(path: string, text: string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
}

function git(...args: string[]): void {
  const r = spawnSync('git', args, { cwd: ws, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
}

beforeAll(async () => {
  if (!available) return;
  root = mkdtempSync(join(tmpdir(), 'sandbox-attacks-'));
  ws = join(root, 'ws');
  home = join(root, 'home');
  jarvis = join(home, '.jarvis-code');
  sessionDir = join(jarvis, 'sessions', 'abc', 's1');
  outside = join(root, 'outside');
  hostCanary = `/etc/jarvis-sandbox-canary-${process.pid}`;
  write(join(outside, 'canary.txt'), 'CANARY\n');
  write(join(home, '.bashrc'), '# DOTFILE-SECRET\n');
  write(join(home, '.profile'), '# profile\n');
  write(join(home, '.ssh', 'id_rsa'), 'SSH-KEY-SECRET\n');
  write(join(home, '.aws', 'credentials'), 'AWS-SECRET\n');
  write(join(home, '.netrc'), 'machine x password NETRC-SECRET\n');
  write(join(home, '.config', 'gcloud', 'application_default_credentials.json'), '"GCLOUD-SECRET"\n');
  write(join(home, '.gitconfig'), '[user]\n\tname = Sandbox Test\n\temail = sandbox@example.invalid\n');
  write(join(jarvis, 'config.toml'), '# JARVIS-CONFIG-SECRET\n');
  mkdirSync(sessionDir, { recursive: true });
  mkdirSync(ws, { recursive: true });
  git('init', '-q');
  write(join(ws, '.env'), 'API_KEY=sk-secret-123\n');
  write(join(ws, 'sub', '.env.local'), 'SUB-ENV-SECRET\n');
  write(join(ws, 'keys', 'server.pem'), 'PEM-SECRET\n');
  write(join(ws, '.npmrc'), '//registry/:_authToken=NPMRC-SECRET\n');
  write(join(ws, '.env.example'), 'API_KEY=put-yours-here\n');
  write(join(ws, 'src', 'a.txt'), 'hello\n');
  symlinkSync(join(ws, '.env'), join(ws, 'notes.txt'));
  symlinkSync(outside, join(ws, 'link-out'));
  const settings = { ...DEFAULT_SANDBOX_SETTINGS, writablePaths: [] };
  sandbox = new CommandBoundary(settings, { workspace: [ws], scratch: sessionDir, jarvisHome: jarvis, home });
  await sandbox.prepare({ command: 'true', cwd: ws }); // writes the note hidden files read as, before the canaries
  canaries = snapshot();
  http = createServer((_req, res) => {
    httpHits++;
    res.end('REACHED');
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  httpPort = (http.address() as { port: number }).port;
  dns = createSocket('udp4');
  dns.on('message', () => dnsHits++);
  await new Promise<void>((resolve) => dns.bind(0, '127.0.0.1', resolve));
  dnsPort = dns.address().port;
});

afterAll(async () => {
  if (!available) return;
  await new Promise((resolve) => http.close(resolve));
  dns.close();
});

/** Every file outside the workspace that an attack might reach, with its content (or its link target). */
function snapshot(): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (path === ws) continue;
      if (e.isDirectory()) walk(path);
      else files.set(path, e.isSymbolicLink() ? `-> ${path}` : readFileSync(path, 'utf8'));
    }
  };
  walk(root);
  return files;
}

async function run(command: string): Promise<{ code: number | null; out: string }> {
  const plan = await sandbox.prepare({ command, cwd: ws });
  if (plan.kind !== 'sandboxed') throw new Error(`expected a sandboxed plan, got ${plan.kind}`);
  const vars = { HOME: home, OUT: outside, JHOME: jarvis, PORT: String(httpPort), DNS: String(dnsPort) };
  // The environment every sandboxed spawn gets (platform/processes.ts spawnShell): the caller's, secrets dropped.
  const r = spawnSandboxSync(plan.spawn, {
    cwd: ws,
    env: sandboxSpawnEnv(plan.spawn, { ...process.env, ...SECRET_ENV, ...vars }),
    encoding: 'utf8',
    timeout: 30_000,
  });
  // A sandbox that failed to set up refuses everything; the corpus must reach the command itself.
  if (/^bwrap: /m.test(r.stderr)) throw new Error(`bwrap could not set up the sandbox: ${r.stderr}`);
  plan.settle();
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

const py = (code: string) => `python3 -c ${JSON.stringify(code)}`;
const node = (code: string) => `node -e ${JSON.stringify(code)}`;

/** Writes that must not land outside the workspace (each runs; the canaries are compared after all of them). */
const WRITES: string[] = [
  'echo x > "$OUT/canary.txt"',
  'echo x >> "$OUT/canary.txt"',
  'echo x > "$OUT/new.txt"',
  'rm -f "$OUT/canary.txt"',
  'unlink "$OUT/canary.txt"',
  'find "$OUT" -delete',
  'mv "$OUT/canary.txt" ./stolen.txt',
  'truncate -s 0 "$OUT/canary.txt"',
  'chmod 000 "$OUT/canary.txt"',
  'sed -i s/CANARY/OWNED/ "$OUT/canary.txt"',
  'echo x | tee "$OUT/canary.txt"',
  'cp src/a.txt "$OUT/canary.txt"',
  'echo x > ../outside/canary.txt',
  'cd .. && echo x > outside/canary.txt',
  'echo x > src/../../outside/new.txt',
  'echo x > link-out/canary.txt',
  'ln -s "$OUT" mylink && echo x > mylink/new.txt',
  'ln -sf "$OUT/canary.txt" l2 && echo x > l2',
  py('open(__import__("os").environ["OUT"]+"/canary.txt","w").write("x")'),
  node('require("fs").writeFileSync(process.env.OUT+"/canary.txt","x")'),
  'perl -e \'open(F,">",$ENV{OUT}."/canary.txt"); print F "x"\'',
  'dd if=/dev/zero of="$OUT/canary.txt" bs=1 count=1',
  'tar cf "$OUT/x.tar" src',
  'echo "echo owned" >> ~/.bashrc',
  'echo x > ~/.profile',
  'mkdir -p ~/.ssh && echo key >> ~/.ssh/authorized_keys',
  'echo x > "$JHOME/config.toml"',
  'mkdir "$JHOME/sessions/evil"',
  'echo "#!/bin/sh" > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit',
  'echo "[core] hooksPath = /tmp" >> .git/config',
  'git config core.hooksPath /tmp/hooks',
  `echo x > ${'/etc/jarvis-sandbox-canary-'}$PPID-no; echo x > /etc/jarvis-sandbox-canary-${process.pid}`,
  'touch /usr/jarvis-sandbox-canary',
  'rm -f /dev/null; echo replaced > /dev/null',
  'mv /dev/null /dev/null.bak',
  'echo x > .env',
  'rm -f .env',
];

/** Reads of secrets that must come back hidden. */
const READS: string[] = [
  'cat .env',
  'cat ./.env',
  'cat "$PWD/.env"',
  'cat sub/.env.local',
  'cat keys/server.pem',
  'cat .npmrc',
  'cat notes.txt',
  'ln -s .env e2 && cat e2',
  'cp .env /tmp/e && cat /tmp/e',
  'tar cf - . | tar xOf -',
  'grep -r secret .',
  'grep -r SECRET ~',
  'find . -name ".env*" -exec cat {} +',
  'awk 1 .env',
  'base64 .env | base64 -d',
  'od -c .env',
  'dd if=.env status=none',
  'cat .git/../.env',
  py('print(open(".env").read())'),
  node('console.log(require("fs").readFileSync(".env","utf8"))'),
  'cat ~/.ssh/id_rsa',
  'cat ~/.aws/credentials',
  'cat ~/.netrc',
  'cat ~/.config/gcloud/application_default_credentials.json',
  'cat ~/.bashrc',
  'cat "$JHOME/config.toml"',
  'ls -la ~/.ssh ~/.aws; cat ~/.ssh/* ~/.aws/*',
];

/** The network: loopback fixtures outside must not be reached. */
const NETWORK: string[] = [
  'curl -sS --max-time 5 http://127.0.0.1:$PORT/',
  'wget -q -T 5 -O - http://127.0.0.1:$PORT/',
  node('fetch("http://127.0.0.1:"+process.env.PORT).then(r=>r.text()).then(console.log)'),
  py('import urllib.request,os;print(urllib.request.urlopen("http://127.0.0.1:"+os.environ["PORT"],timeout=5).read())'),
  'exec 3<>/dev/tcp/127.0.0.1/$PORT && printf "GET / HTTP/1.0\\r\\n\\r\\n" >&3 && cat <&3',
  py(
    'import socket,os;s=socket.socket(2,2);q=b"\\x12\\x34"+b"\\x01\\x00"*2+b"\\x00"*6;' +
      's.sendto(q,("127.0.0.1",int(os.environ["DNS"])));print("sent")',
  ),
  'curl -sS --max-time 5 --resolve x.test:80:127.0.0.1 http://x.test:$PORT/',
  'getent hosts registry.npmjs.org',
];

/** Reads of the environment: the command's own, its parent's and the sandbox's first process's. */
const ENV_READS: string[] = [
  'env',
  'printenv',
  'printenv JARVIS_MODEL_API_KEY OPENAI_API_KEY GITHUB_TOKEN AWS_SECRET_ACCESS_KEY || echo none set',
  'echo "$JARVIS_MODEL_API_KEY $OPENAI_API_KEY $GITHUB_TOKEN $AWS_SECRET_ACCESS_KEY"',
  'export -p',
  'set',
  'cat /proc/self/environ | tr "\\0" "\\n"',
  'cat /proc/$$/environ',
  'cat /proc/$PPID/environ',
  'cat /proc/1/environ',
  'declare -f; get_token || echo no such function',
  'for f in /proc/[0-9]*/environ; do cat "$f"; done',
  py('import os;print(dict(os.environ))'),
  node('console.log(JSON.stringify(process.env))'),
  'perl -e \'print join("\\n", map { "$_=$ENV{$_}" } keys %ENV)\'',
];

describe.skipIf(!available)('the command sandbox against the attack corpus', () => {
  it('holds ≥ 60 attacks', () => {
    expect(WRITES.length + READS.length + NETWORK.length + ENV_READS.length + 3).toBeGreaterThanOrEqual(60);
  });

  it.each(ENV_READS)('a secret in the environment is not passed in: %s', async (command) => {
    const { code, out } = await run(command);
    expect(code, out).toBe(0);
    for (const secret of Object.values(SECRET_ENV)) expect(out).not.toContain(secret);
  });

  it('the rest of the environment still is', async () => {
    expect((await run('printenv OUT HOME')).out).toBe(`${outside}\n${home}\n`);
  });

  it.each(WRITES)('write outside the workspace is refused: %s', async (command) => {
    await run(command);
    expect(snapshot()).toEqual(canaries);
    expect(existsSync(hostCanary)).toBe(false);
    expect(existsSync('/usr/jarvis-sandbox-canary')).toBe(false);
    expect(statSync('/dev/null').isCharacterDevice()).toBe(true);
    expect(readFileSync(join(ws, '.env'), 'utf8')).toBe('API_KEY=sk-secret-123\n');
    expect(existsSync(join(ws, '.git', 'hooks', 'pre-commit'))).toBe(false);
    expect(readFileSync(join(ws, '.git', 'config'), 'utf8')).not.toMatch(/hooksPath/);
  });

  it.each(READS)('read of a hidden secret shows nothing: %s', async (command) => {
    const { out } = await run(command);
    for (const secret of SECRETS) expect(out).not.toContain(secret);
  });

  it('a hidden file reads as the note naming the boundary', async () => {
    expect((await run('cat .env')).out).toBe(HIDDEN_FILE_TEXT);
    expect((await run('cat .env.example')).out).toBe('API_KEY=put-yours-here\n');
  });

  it.each(NETWORK)('the network is closed: %s', async (command) => {
    const { code, out } = await run(command);
    expect(out).not.toContain('REACHED');
    expect(httpHits).toBe(0);
    if (!out.includes('sent')) expect(code).not.toBe(0);
    expect(dnsHits).toBe(0);
  });

  it.each([
    ['nohup', 'nohup sleep 3001 >/dev/null 2>&1 & echo started'],
    ['setsid', 'setsid sleep 3002 >/dev/null 2>&1 < /dev/null & echo started'],
    ['a disowned subshell', '(sleep 3003 &) ; disown -a; echo started'],
  ])('a process started with %s does not outlive the command', async (_name, command) => {
    const marker = command.match(/sleep (\d+)/)![1];
    expect((await run(command)).out).toContain('started');
    await expect.poll(() => sleepersWith(marker), { timeout: 10_000, interval: 50 }).toBe(0);
  });

  it('a delayed write from a background process cannot land outside either', async () => {
    await run('nohup sh -c "sleep 0.2; echo late > $OUT/late.txt" >/dev/null 2>&1 & echo started');
    await expect.poll(() => sleepersWith('0.2'), { timeout: 10_000, interval: 50 }).toBe(0);
    expect(existsSync(join(outside, 'late.txt'))).toBe(false);
  });
});

/** Live processes whose command line is `sleep <marker>` (the attack's, if it escaped). */
function sleepersWith(marker: string): number {
  let count = 0;
  for (const pid of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (cmd.includes('sleep') && cmd.includes(marker)) count++;
    } catch {
      // ended while we looked
    }
  }
  return count;
}

describe.skipIf(!available)('the same kinds of commands on the workspace still work', () => {
  it.each([
    ['write a file', 'echo made > made.txt && cat made.txt', 'made'],
    ['a relative path through ..', 'mkdir -p d && echo rel > d/../rel.txt && cat rel.txt', 'rel'],
    ['a link inside the workspace', 'ln -sf src/a.txt la && cat la', 'hello'],
    ['the private /tmp', 'echo t > /tmp/t && cat /tmp/t && mktemp', 'tmp'],
    ['copy', 'cp src/a.txt b.txt && cat b.txt', 'hello'],
    ['tar', 'tar cf /tmp/src.tar src && tar tf /tmp/src.tar', 'src/a.txt'],
    ['grep -r', 'grep -r hello src', 'src/a.txt:hello'],
    ['python', py('open("p.txt","w").write("py-ok");print(open("p.txt").read())'), 'py-ok'],
    [
      'node',
      node('require("fs").writeFileSync("n.txt","node-ok");console.log(require("fs").readFileSync("n.txt","utf8"))'),
      'node-ok',
    ],
    ['the session folder', 'echo s > "$JHOME/sessions/abc/s1/out.txt" && cat "$JHOME/sessions/abc/s1/out.txt"', 's'],
    ['git add and commit', 'git add src && git commit -qm first && git log --format=%an', 'Sandbox Test'],
    ['a background job inside the command', '(sleep 0.1; echo bg > bg.txt) & wait; cat bg.txt', 'bg'],
  ])('%s', async (_name, command, expected) => {
    const { code, out } = await run(command);
    expect(out).toContain(expected);
    expect(code).toBe(0);
  });
});
