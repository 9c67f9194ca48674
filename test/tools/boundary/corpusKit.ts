// What the rows of the trust boundary's attack corpus are made of (attackCorpus.ts, docs/trust-boundary.md "Attack
// corpus"): the row type, the fixture a row sees, and the small helpers rows share (node:fs and git only, so the same
// table runs as root and as an unprivileged user).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The issue's bullets (issue 43, the list at its top); docs/trust-boundary.md maps each to its rows. */
export const BULLETS = {
  caps: 'As root, the sandbox undoes itself (capabilities, mount, umount)',
  session: 'The session folder is writable inside the sandbox, and Jarvis trusts what it finds there',
  cwd: 'The Bash cwd argument becomes a writable root (dotfiles planted through the working folder)',
  git: 'Code git runs later, planted without touching .git/hooks or .git/config',
  'runs-later': '.vscode/tasks.json and the agent and editor files the next session or editor runs',
  lsp: 'Language servers planted by a command, started outside the sandbox',
  mcp: 'MCP trust covers the bytes of .mcp.json, not the script it launches',
  approval: 'A session approval of a sandboxed command also covers running it unsandboxed',
  sockets: '"Network off" still reaches Unix sockets',
  secrets: 'Secrets: readable home folders, hard links, files made during a background command, the walk cap',
} as const;
export type Bullet = keyof typeof BULLETS;

/** The sessions the corpus runs, each on its own folder (corpusWorld.ts). */
export const SESSIONS = ['workspace', 'fresh', 'home'] as const;
export type SessionName = (typeof SESSIONS)[number];

export interface AttackFixture {
  /** The world's folder (everything of the test user's is under it). */
  root: string;
  /** The row's own folder inside the session's workspace (a git repository with one commit). */
  ws: string;
  /** The session's workspace (holds every row's folder). */
  workspace: string;
  home: string;
  /** JARVIS_CODE_HOME (inside the home folder). */
  jarvis: string;
  /** A folder outside the workspace with the user's files, the row's own. */
  outside: string;
  /** Where planted code leaves its mark when it runs later (outside the workspace), the row's own. */
  marks: string;
  /** The Unix-socket fixtures' paths (test/helpers/socketFixtures.ts), by name. */
  sockets: Record<string, string>;
  /** The folder of the session the row's command runs in, once it is known (the session rows attack it). */
  session?: string;
}

export interface AttackCase {
  name: string;
  bullet: Bullet;
  /** The workspace and home as they are before the session (the repository, the user's files). */
  setup?(fx: AttackFixture): void;
  /**
   * The attacker's command (bash); `$MARKS`, `$OUT` and the socket paths are set for it. A function of the fixture
   * when it names the session's folder (known once the session started).
   */
  attack: string | ((fx: AttackFixture) => string);
  /** The row's folder is a repository of its own (default), or a folder of the workspace's own checkout. */
  checkout?: 'own' | 'workspace';
  /** Where it runs (default: the row's folder). */
  cwd?(fx: AttackFixture): string;
  /**
   * The session the row's command runs in (default `workspace`): `home` is Jarvis started in the home folder; `fresh`
   * is a second project whose top no other row touches (for rows needing the top as the user left it).
   */
  session?: SessionName;
  /** Run with `dangerously_unsandboxed` after the same command ran sandboxed (an escalation of an approval). */
  escalate?: boolean;
  /** The command runs in the background; `during` happens while it runs, then `.release` appears in its folder. */
  during?(fx: AttackFixture): void;
  /** Only as root, or only as an unprivileged user (a failure as root would reach the whole machine). */
  only?: 'root' | 'unprivileged';
  /** What happens next outside any sandbox, as the user: `git status`, a login shell. */
  later?: string;
  /**
   * What Jarvis itself does next, after the command: the next session in the workspace (project MCP servers), or a
   * Read of a file (language servers). In plain bash, `plainJarvis` stands for it: what Jarvis ran before the fix.
   */
  jarvis?: { nextSession?: true; read?: string; edit?: { old_string: string; new_string: string } };
  plainJarvis?: string;
  /** A description of what the attack got, or undefined when it got nothing. */
  check(fx: AttackFixture, output: string): string | undefined;
}

export const SECRET = 'sk-live-SECRET-4242';

export function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/** The environment every command of the corpus runs with, outside Jarvis: the fixture's home, and where marks go. */
export function fixtureEnv(fx: AttackFixture): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    LANG: 'C',
    HOME: fx.home,
    MARKS: fx.marks,
    OUT: fx.outside,
    GIT_CONFIG_NOSYSTEM: '1',
    ...fx.sockets,
  };
}

/** What a user's shell (and Jarvis) has from the fixtures; the attacker's command names the other paths itself. */
const SOCKET_VARIABLES = ['SSH_AUTH_SOCK', 'XDG_RUNTIME_DIR', 'DBUS_SESSION_BUS_ADDRESS', 'DOCKER_HOST', 'DISPLAY'];

/** The variables an attacker's command names, set at its start (the same text in plain bash and through Jarvis). */
export function attackText(c: AttackCase, fx: AttackFixture): string {
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const paths = Object.entries(fx.sockets).filter(([k]) => !SOCKET_VARIABLES.includes(k));
  const vars = { MARKS: fx.marks, OUT: fx.outside, ...(c.bullet === 'sockets' ? Object.fromEntries(paths) : {}) };
  const attack = typeof c.attack === 'string' ? c.attack : c.attack(fx);
  return `export ${Object.entries(vars)
    .map(([k, v]) => `${k}=${q(v)}`)
    .join(' ')}\n${attack}`;
}

/** Git as the user runs it, outside any sandbox. */
export function git(fx: AttackFixture, cwd: string, ...args: string[]): string {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8', env: fixtureEnv(fx) });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')} in ${cwd}: ${r.stderr}`);
  return r.stdout;
}

export const ran = (fx: AttackFixture) => (existsSync(join(fx.marks, 'pwned')) ? 'the planted code ran' : undefined);
export const leaked = (output: string) => (output.includes(SECRET) ? 'the secret was read' : undefined);
export const contains = (path: string, text: string) =>
  existsSync(path) && readFileSync(path, 'utf8').includes(text) ? `${path} holds the planted text` : undefined;
export const plantedOutside = (fx: AttackFixture, name = 'planted.txt') =>
  existsSync(join(fx.outside, name)) ? `${name} was planted outside` : undefined;

/** Planting `core.fsmonitor` the way an attacker writes it: appended to a config file (git runs it on `status`). */
export const FSMONITOR = `printf '[core]\\n\\tfsmonitor = "touch %s/pwned; false"\\n' "$MARKS"`;

/** A hook script that leaves the mark, as printf writes it. */
export const HOOK = 'printf "#!/bin/sh\\ntouch %s/pwned\\n" "$MARKS"';
