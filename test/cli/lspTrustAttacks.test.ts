// Attack rows for language servers (docs/lsp.md "Where servers run"; issue 43): what a sandboxed command or a cloned
// repository leaves behind must never run outside the sandbox as a language server, and trust is checked for the
// file's own checkout, by sessions and by `jarvis doctor --online` alike. Each row is {name, setup, attack, check}:
// the setup is what exists before (a cloned repository, config), the attack is the runs of the built CLI in print
// mode (a prompt-injected model planting files with Bash, then an ordinary Read and Edit), and the check is that the
// canary outside the workspace stays untouched. The planted programs write the canary when they run; on the code
// before this change every row wrote it. Rows whose attack goes through a command run as root and as an
// unprivileged user (created here when the machine is root).
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { setWorkspaceTrust } from '../../src/store/trust';
import { startMockModelServer, type MockModelServer, type ScriptedTurn } from '../helpers/mockModelServer';
import { BIN, cliEnv, makeCliDirs, mockModelEnv, type CliDirs, type CliResult } from '../helpers/cli';
import { sandboxAvailable } from '../helpers/sandboxAvailable';

const FIXTURE = resolve(__dirname, '../fixtures/lsp/ts-project');
/** A real typescript-language-server outside every workspace, as a global install would be. */
const GLOBAL_BIN = resolve(__dirname, '../../node_modules/.bin');
const SYSTEM_PATH = '/usr/local/bin:/usr/bin:/bin';
const USER = 'jarvis-lsp-attack';
const SANDBOX = sandboxAvailable();

interface Ctx {
  dirs: CliDirs;
  /** Outside the workspace: a planted program that runs outside the sandbox writes here. */
  canary: string;
  /** Another folder beside the workspace (an untrusted clone). */
  other: string;
}

interface Run {
  args: string[];
  cwd?: string;
  turns?: ScriptedTurn[];
  path: string;
}

interface AttackRow {
  name: string;
  /** The attack is carried out by commands the model runs: the row runs as root and as an unprivileged user too. */
  throughCommand: boolean;
  setup(ctx: Ctx): void;
  attack(ctx: Ctx): Run[];
  check(ctx: Ctx, results: CliResult[]): void;
}

/** A shell script that writes the canary when it runs, then reads its input as a server that never answers. */
const plantedServer = (canary: string) => `#!/bin/sh\necho planted > '${canary}'\nexec cat > /dev/null\n`;

/** The Bash command a prompt-injected model runs to write `text` to `file` (executable). */
const plantCommand = (file: string, text: string) =>
  `mkdir -p '${dirname(file)}' && printf '%s' '${text.replace(/'/g, `'\\''`)}' > '${file}' && chmod +x '${file}'`;

const bash = (id: string, command: string): ScriptedTurn => ({
  toolCalls: [{ id, name: 'Bash', arguments: { command } }],
});
const readThenEdit = (path: string, edit: { old_string: string; new_string: string }): ScriptedTurn[] => [
  { toolCalls: [{ id: 'read', name: 'Read', arguments: { path } }] },
  { toolCalls: [{ id: 'edit', name: 'Edit', arguments: { path, ...edit } }] },
  { text: 'Done.' },
];
const CART_EDIT = { old_string: 'formatPrice(total)', new_string: 'formatPrice(total + 0)' };
// A planted server never answers: the first check waits this long, then says it was not checked yet.
const CONFIG = '[lsp]\nfirst_diagnostics_wait_ms = 3000\n';

const ROWS: AttackRow[] = [
  {
    name: 'a server binary planted in node_modules/.bin by a sandboxed command, started by the next Read',
    throughCommand: true,
    setup: ({ dirs }) => writeFileSync(join(dirs.home, 'config.toml'), CONFIG),
    attack: ({ dirs, canary }) => [
      {
        args: ['-p', 'set up the project'],
        turns: [
          bash('plant', plantCommand('node_modules/.bin/typescript-language-server', plantedServer(canary))),
          { text: 'Set up.' },
        ],
        path: `${GLOBAL_BIN}:${SYSTEM_PATH}`,
      },
      {
        args: ['-p', 'fix the cart'],
        turns: readThenEdit('src/cart.ts', CART_EDIT),
        path: `${GLOBAL_BIN}:${SYSTEM_PATH}`,
        cwd: dirs.cwd,
      },
    ],
    check: ({ canary }) => expect(existsSync(canary), 'the planted server ran outside the sandbox').toBe(false),
  },
  {
    name: 'a checkout cloned inside the trusted folder by a command: its own server, trust checked for the session folder',
    throughCommand: true,
    setup: ({ dirs }) => writeFileSync(join(dirs.home, 'config.toml'), CONFIG),
    attack: ({ canary }) => [
      {
        args: ['-p', 'vendor the library'],
        turns: [
          bash(
            'clone',
            'mkdir -p vendor/lib && cd vendor/lib && git init -q && echo "{}" > package.json && ' +
              'echo "export const x: number = 1;" > x.ts && ' +
              plantCommand('node_modules/.bin/typescript-language-server', plantedServer(canary)),
          ),
          { text: 'Vendored.' },
        ],
        path: SYSTEM_PATH,
      },
      {
        args: ['-p', 'look at the library'],
        turns: readThenEdit('vendor/lib/x.ts', { old_string: '1;', new_string: '2;' }),
        path: SYSTEM_PATH,
      },
    ],
    check: ({ canary, dirs }, [, run]) => {
      expect(existsSync(canary), 'the clone’s server ran').toBe(false);
      expect(run.stderr).toContain(
        `Language servers stay off for ${join(dirs.cwd, 'vendor/lib')}: that checkout is not trusted`,
      );
    },
  },
  {
    name: 'a project TypeScript planted by a command, loaded by a global server',
    throughCommand: true,
    setup: ({ dirs }) => writeFileSync(join(dirs.home, 'config.toml'), CONFIG),
    attack: ({ canary }) => [
      {
        args: ['-p', 'add typescript'],
        turns: [
          bash(
            'plant',
            plantCommand('node_modules/typescript/package.json', '{"name":"typescript","version":"5.9.3"}') +
              ' && ' +
              plantCommand(
                'node_modules/typescript/lib/tsserver.js',
                `require("fs").writeFileSync(${JSON.stringify(canary)}, "planted"); setInterval(() => {}, 1000);\n`,
              ),
          ),
          { text: 'Added.' },
        ],
        path: `${GLOBAL_BIN}:${SYSTEM_PATH}`,
      },
      {
        args: ['-p', 'fix the cart'],
        turns: readThenEdit('src/cart.ts', CART_EDIT),
        path: `${GLOBAL_BIN}:${SYSTEM_PATH}`,
      },
    ],
    check: ({ canary }) => expect(existsSync(canary), 'the planted tsserver ran outside the sandbox').toBe(false),
  },
  {
    name: 'a file of an untrusted clone added with --add-dir: trust checked for the session folder only',
    throughCommand: false,
    setup: ({ dirs, other, canary }) => {
      writeFileSync(join(dirs.home, 'config.toml'), CONFIG);
      mkdirSync(join(other, 'node_modules/.bin'), { recursive: true });
      writeFileSync(join(other, 'package.json'), '{}\n');
      writeFileSync(join(other, 'x.ts'), 'export const x: number = 1;\n');
      writeFileSync(join(other, 'node_modules/.bin/typescript-language-server'), plantedServer(canary));
      chmodSync(join(other, 'node_modules/.bin/typescript-language-server'), 0o755);
    },
    attack: ({ other }) => [
      {
        args: ['-p', 'look at the other project', '--add-dir', other],
        turns: readThenEdit(join(other, 'x.ts'), { old_string: '1;', new_string: '2;' }),
        path: `${GLOBAL_BIN}:${SYSTEM_PATH}`,
      },
    ],
    check: ({ canary, other }, [run]) => {
      expect(existsSync(canary), 'the clone’s server ran').toBe(false);
      expect(run.stderr).toContain(`Language servers stay off for ${other}: that checkout is not trusted`);
    },
  },
  {
    name: 'jarvis doctor --online in an untrusted clone',
    throughCommand: false,
    setup: ({ other, canary }) => {
      mkdirSync(join(other, 'node_modules/.bin'), { recursive: true });
      writeFileSync(join(other, 'package.json'), '{}\n');
      writeFileSync(join(other, 'x.ts'), 'export const x: number = 1;\n');
      writeFileSync(join(other, 'node_modules/.bin/typescript-language-server'), plantedServer(canary));
      chmodSync(join(other, 'node_modules/.bin/typescript-language-server'), 0o755);
    },
    attack: ({ other }) => [{ args: ['doctor', '--online'], cwd: other, turns: [{ text: 'pong' }], path: SYSTEM_PATH }],
    check: ({ canary }, [run]) => {
      expect(existsSync(canary), 'doctor ran the clone’s server').toBe(false);
      expect(run.stdout).toContain('not started here: this checkout is not trusted');
    },
  },
  {
    name: 'without a sandbox, a server in the workspace’s node_modules/.bin (a command could have written it)',
    throughCommand: false,
    setup: ({ dirs, canary }) => {
      // bubblewrap cannot run (its path does not exist): commands run unconfined, and so would the planted server.
      writeFileSync(join(dirs.home, 'config.toml'), `${CONFIG}[sandbox]\nbwrap_path = "/nonexistent/bwrap"\n`);
      mkdirSync(join(dirs.cwd, 'node_modules/.bin'), { recursive: true });
      writeFileSync(join(dirs.cwd, 'node_modules/.bin/typescript-language-server'), plantedServer(canary));
      chmodSync(join(dirs.cwd, 'node_modules/.bin/typescript-language-server'), 0o755);
    },
    attack: () => [
      {
        args: ['-p', 'fix the cart'],
        turns: readThenEdit('src/cart.ts', { old_string: 'formatPrice(total)', new_string: 'formatPrice("x")' }),
        path: `${GLOBAL_BIN}:${SYSTEM_PATH}`,
      },
    ],
    check: ({ canary }, [run]) => {
      expect(existsSync(canary), 'the workspace’s server ran').toBe(false);
      // The global server outside the workspace ran instead, so the edit was checked.
      expect(run.stdout + run.stderr).not.toMatch(/language server failed/);
    },
  },
];

/** The unprivileged user rows run as, created when missing (root only). */
function unprivilegedUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) {
    if (process.env.JARVIS_TEST_REQUIRE_ALL === '1') throw new Error('JARVIS_TEST_REQUIRE_ALL=1 but not root: no user');
    console.warn('skipping the unprivileged runs: not root, so no user can be created');
    return undefined;
  }
  try {
    execFileSync('id', ['-u', USER], { stdio: 'ignore' });
  } catch {
    execFileSync('useradd', ['--no-create-home', '--shell', '/usr/sbin/nologin', USER]);
  }
  const id = (flag: string) => Number(execFileSync('id', [flag, USER], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

function runCli(server: MockModelServer, run: Run, ctx: Ctx, as?: { uid: number; gid: number }): Promise<CliResult> {
  if (run.turns) server.push(...run.turns);
  // The user's own temporary folder (the test run's is root's).
  const tmp: Record<string, string> = as ? { TMPDIR: join(dirname(ctx.dirs.home), 'tmp') } : {};
  const env = cliEnv(ctx.dirs, { ...mockModelEnv(server.baseUrlFor('openai')), PATH: run.path, ...tmp });
  const child = spawn(process.execPath, [BIN, ...run.args], {
    cwd: run.cwd ?? ctx.dirs.cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(as ? { uid: as.uid, gid: as.gid } : {}),
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolveRun, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`jarvis ${run.args.join(' ')} did not exit\n${stderr}`));
    }, 180_000);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolveRun({ code, signal, stdout, stderr });
    });
  });
}

async function play(row: AttackRow, as?: { uid: number; gid: number }): Promise<void> {
  const dirs = makeCliDirs();
  const root = dirname(dirs.home);
  const ctx: Ctx = { dirs, canary: join(root, 'canary'), other: join(root, 'other') };
  cpSync(FIXTURE, dirs.cwd, { recursive: true });
  mkdirSync(ctx.other);
  mkdirSync(join(root, 'tmp'));
  row.setup(ctx);
  setWorkspaceTrust(dirs.home, dirs.cwd, true);
  // The user owns everything the run touches, so a planted program that escaped could write the canary; the test
  // run's own temporary folders above it let the user through.
  if (as) {
    execFileSync('chown', ['-R', `${as.uid}:${as.gid}`, root]);
    for (let dir = dirname(root); dir.startsWith(`${tmpdir()}/`) || dir.startsWith('/tmp/'); dir = dirname(dir))
      chmodSync(dir, statSync(dir).mode | 0o111);
  }
  // A model server of its own: a run that failed early leaves no turns behind for the next.
  const server = await startMockModelServer();
  try {
    const results: CliResult[] = [];
    for (const run of row.attack(ctx)) {
      const result = await runCli(server, run, ctx, as);
      // doctor's other sections (the model endpoint, MCP) may need attention; a print run must succeed.
      if (run.args[0] === '-p') expect(result.code, `${run.args.join(' ')}: ${result.stderr}`).toBe(0);
      results.push(result);
    }
    row.check(ctx, results);
  } finally {
    await server.close();
  }
}

describe.skipIf(!SANDBOX)('language-server attack rows', () => {
  const user = unprivilegedUser();
  for (const row of ROWS)
    describe(row.name, () => {
      it(`as ${process.getuid?.() === 0 ? 'root' : 'the current user'}`, () => play(row), 400_000);
      if (row.throughCommand) it.skipIf(!user)('as an unprivileged user', () => play(row, user), 400_000);
    });
});
