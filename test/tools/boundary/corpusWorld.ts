// One world for the whole attack corpus (attackCorpus.ts), for one user: a home with a private key and
// JARVIS_CODE_HOME, a workspace (a git repository) holding one folder per row — each its own repository with one
// commit — and, for the rows about the workspace's own top (editor and agent files, MCP launch scripts), the top
// itself; a folder outside and a marks folder per row. Every row's setup runs, the workspace is trusted, and the
// folders are handed to the user. The same layout twice (world `plain` and world `cli`) lets each row be first proved
// in plain bash and then sent through the built CLI. docs/trust-boundary.md "Attack corpus".
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setWorkspaceTrust } from '../../../src/store/trust';
import { asUser, handOver, type TestUser } from '../../helpers/sandboxUsers';
import type { SocketFixtures } from '../../helpers/socketFixtures';
import { ATTACKS } from './attackCorpus';
import {
  attackText,
  fixtureEnv,
  git,
  SECRET,
  write,
  type AttackCase,
  type AttackFixture,
  type SessionName,
} from './corpusKit';
import { TS_PROJECT } from './attackRows/lspRows';
import { LEGITIMATE, type LegitimateCase } from './legitimateCommands';

export interface CorpusRow {
  id: string;
  c: AttackCase;
  session: SessionName;
  fx: AttackFixture;
  /** The Bash call's working folder. */
  cwd: string;
  /** The command as the model (and plain bash) runs it (a session row's once its session is known). */
  readonly command: string;
}

export interface LegitRow {
  id: string;
  l: LegitimateCase;
  fx: AttackFixture;
  cwd: string;
}

export interface CorpusWorld {
  user: TestUser;
  root: string;
  workspace: string;
  home: string;
  jarvis: string;
  /** Each session's folder (its workspace). */
  sessions: Record<SessionName, string>;
  rows: CorpusRow[];
  legit: LegitRow[];
  /** A copy of test/fixtures/lsp/ts-project in the workspace's checkout, for the legitimate language-server check. */
  lspProject: string;
  /** Tells the session rows of `session` the running session's folder (the newest one). */
  attachSession(session: SessionName): void;
  /** Runs `command` with bash as the user, outside any sandbox; resolves with its output. */
  bash(command: string, cwd: string, env: NodeJS.ProcessEnv): Promise<string>;
  /** What the user does next after `row`, outside any sandbox (its `later`). */
  later(row: CorpusRow): Promise<void>;
  /** Every file outside the workspace and JARVIS_CODE_HOME, with its content (the canaries). */
  outsideFiles(): Map<string, string>;
}

/** Bullets whose rows act on the workspace's top rather than a folder of their own. */
const AT_TOP = new Set(['runs-later', 'mcp']);

/** The rows that run as this user (some only as root, some only as an unprivileged user). */
export function rowsFor(user: TestUser): AttackCase[] {
  const root = user.uid === 0;
  return ATTACKS.filter((c) => !c.only || (c.only === 'root') === root);
}

export function makeCorpusWorld(user: TestUser, name: string, sockets: SocketFixtures): CorpusWorld {
  const root = join(user.root, name);
  const home = join(root, 'home');
  const jarvis = join(home, '.jarvis-code');
  const workspace = join(root, 'ws');
  const sessions: Record<SessionName, string> = { workspace, fresh: join(root, 'ws2'), home };
  write(join(home, '.ssh', 'id_rsa'), `${SECRET}\n`);
  write(join(jarvis, 'config.toml'), `# the user's config; a token kept here: ${SECRET}\n`);
  write(join(home, '.gitconfig'), '[user]\n\tname = Corpus\n\temail = corpus@example.invalid\n');
  write(join(home, '.bashrc'), '# the user’s bashrc\n');
  mkdirSync(join(root, 'tmp'));
  const fixture = (id: string, ws: string): AttackFixture => ({
    root,
    ws,
    workspace,
    home,
    jarvis,
    outside: join(root, 'outside', id),
    marks: join(root, 'marks', id),
    sockets: sockets.env,
  });
  const repo = (fx: AttackFixture) => {
    mkdirSync(fx.ws, { recursive: true });
    git(fx, fx.ws, 'init', '-q', '-b', 'main');
    write(join(fx.ws, 'README.md'), '# project\n');
    git(fx, fx.ws, 'add', 'README.md');
    git(fx, fx.ws, 'commit', '-q', '-m', 'first');
  };
  const prepare = (fx: AttackFixture, own: boolean) => {
    mkdirSync(fx.marks, { recursive: true });
    mkdirSync(fx.ws, { recursive: true });
    write(join(fx.outside, 'notes.txt'), 'the user’s notes\n');
    if (own) repo(fx);
  };
  repo(fixture('top', workspace));
  repo(fixture('fresh', sessions.fresh));
  const rows = rowsFor(user).map((c, i): CorpusRow => {
    const id = `r${String(i + 1).padStart(2, '0')}`;
    const session = c.session ?? 'workspace';
    const own = session === 'workspace' && !AT_TOP.has(c.bullet);
    const ws = own ? join(workspace, id) : sessions[session];
    const fx = fixture(id, ws);
    prepare(fx, own && c.checkout !== 'workspace');
    // Proved in plain bash on a session folder of its own, laid out as Jarvis lays one out; through the CLI, on the
    // running session's (attachSession).
    if (c.bullet === 'session' && name === 'plain') {
      fx.session = join(jarvis, 'sessions', 'wd_plain', id);
      write(join(fx.session, 'agents', 'main', 'wire.jsonl'), `${JSON.stringify({ v: 1, type: 'session_start' })}\n`);
    }
    return {
      id,
      c,
      session,
      fx,
      cwd: c.cwd?.(fx) ?? ws,
      get command() {
        return attackText(c, fx);
      },
    };
  });
  const legit = LEGITIMATE.map((l, i): LegitRow => {
    const id = `l${String(i + 1).padStart(2, '0')}`;
    const fx = fixture(id, join(workspace, id));
    prepare(fx, true);
    return { id, l, fx, cwd: l.cwd?.(fx) ?? fx.ws };
  });
  for (const row of rows) row.c.setup?.(row.fx);
  for (const row of legit) row.l.setup?.(row.fx);
  // A project nobody planted in, for the language server's diagnostics (the same Edit the LSP rows' next session makes).
  const lspProject = join(workspace, 'lsp-project');
  cpSync(TS_PROJECT, lspProject, { recursive: true });

  // The user trusted the project (its MCP servers, its language servers) before the session.
  setWorkspaceTrust(jarvis, workspace, true);
  setWorkspaceTrust(jarvis, sessions.fresh, true);
  handOver(user, root);
  const bash = (command: string, cwd: string, env: NodeJS.ProcessEnv) => runAs(user, command, cwd, env);
  return {
    user,
    root,
    workspace,
    home,
    jarvis,
    sessions,
    rows,
    legit,
    lspProject,
    bash,
    attachSession: (session) => {
      const folder = newestSession(jarvis);
      for (const row of rows) if (row.session === session && row.c.bullet === 'session') row.fx.session = folder;
    },
    later: async (row) => {
      if (row.c.later) await bash(row.c.later, row.fx.ws, fixtureEnv(row.fx));
    },
    outsideFiles: () => filesOutside(root, [workspace, sessions.fresh, jarvis, join(root, 'tmp')]),
  };
}

/**
 * Proves `row` works without Jarvis: its command in plain bash as the user (a capability attack as root in a mount
 * namespace of its own, so it cannot reach the machine's mounts), what happens while it runs, what Jarvis did next
 * before the fix, and what the user does next. Resolves with what the attack got.
 */
export async function provePlain(world: CorpusWorld, row: CorpusRow): Promise<{ got?: string; output: string }> {
  const { c, fx } = row;
  const env = fixtureEnv(fx);
  const command =
    c.bullet === 'caps' && world.user.uid === 0
      ? `unshare --mount --propagation private bash -c ${quote(row.command)}`
      : row.command;
  const run = world.bash(command, row.cwd, env);
  if (c.during) {
    c.during(fx);
    writeFileSync(join(fx.ws, '.release'), '');
  }
  const output = await run;
  if (c.plainJarvis) await world.bash(c.plainJarvis, fx.ws, env);
  await world.later(row);
  return { got: c.check(fx, output), output };
}

/** The newest session folder under JARVIS_CODE_HOME (sessions/<workspace key>/<time-ordered id>). */
function newestSession(jarvis: string): string {
  const sessions = join(jarvis, 'sessions');
  const all = readdirSync(sessions).flatMap((key) => readdirSync(join(sessions, key)).map((id) => ({ key, id })));
  const newest = all.sort((a, b) => a.id.localeCompare(b.id)).at(-1);
  if (!newest) throw new Error(`no session under ${sessions}`);
  return join(sessions, newest.key, newest.id);
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

function runAs(user: TestUser, command: string, cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  const cmd = asUser(user, 'bash', ['-c', command]);
  const child = spawn(cmd.file, cmd.args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
  child.stderr.on('data', (d: Buffer) => (out += d.toString('utf8')));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', () => resolve(out));
  });
}

/** Files under `root` outside `skip`, with their content; what the boundary moved aside (renamed) is left out. */
function filesOutside(root: string, skip: string[]): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return; // a folder the test cannot list (the execute-only row's, as another user): nothing to compare
    }
    for (const e of entries) {
      const path = join(dir, e.name);
      if (skip.includes(path) || /\.quarantined-by-jarvis(-\d+)?$/.test(e.name)) continue;
      if (e.isDirectory()) walk(path);
      else if (e.isSymbolicLink()) files.set(path, 'link');
      else if (e.isFile()) files.set(path, readFileSync(path, 'utf8'));
    }
  };
  walk(root);
  return files;
}
