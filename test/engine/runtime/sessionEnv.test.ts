// The session's environment (RuntimeOptions.env; docs/sdk.md "Concurrency and isolation"): what Bash in the foreground
// and the background, hooks and language servers start from, with the sandbox's secret scrubbing applied to it as to
// process.env; and Jarvis's own git calls (platform/git.ts, Tower's TowerGit) run with the environment they are given.
// Nothing here writes process.env except the one comparison case, which restores it.
import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeEngine, runPrompt, verifyEnginesAfterEach } from '../../helpers/engineHarness';
import { sandboxAvailable } from '../../helpers/sandboxAvailable';
import { bashTool } from '../../../src/tools/shell/bashTool';
import { DEFAULT_SANDBOX_SETTINGS, type SandboxSettings } from '../../../src/tools/boundary/sandboxSettings';
import { BUILTIN_LSP_SERVERS, DEFAULT_LSP_SETTINGS } from '../../../src/platform/lsp/lspServers';
import { runGit } from '../../../src/platform/git';
import { TowerGit } from '../../../src/engine/tower/towerGit';
import { setWorkspaceTrust } from '../../../src/store/trust';
import type { HookSpec } from '../../../src/ext/hooks/hookRunner';

verifyEnginesAfterEach();

const ENV_PROBE = resolve(__dirname, '../../fixtures/lsp/lsp-env-probe.mjs');
const TS_SERVER = resolve(__dirname, '../../../node_modules/.bin/typescript-language-server');
const TS_PROJECT = resolve(__dirname, '../../fixtures/lsp/ts-project');

/** process.env as each test found it, compared after it: the session's env never leaks into it. */
let processEnvBefore = '';
beforeEach(() => {
  processEnvBefore = JSON.stringify(process.env);
});
afterEach(() => {
  expect(JSON.stringify(process.env)).toBe(processEnvBefore);
});

function toolText(h: ReturnType<typeof makeEngine>, name: string): string[] {
  return h.runtime.session.state.messages.flatMap((m) =>
    m.role === 'tool' && m.toolName === name ? [m.content.map((p) => (p.type === 'text' ? p.text : '')).join('')] : [],
  );
}

async function until(check: () => boolean, what: string, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('the session environment reaches what the session starts', () => {
  it('Bash in the foreground and the background, and hook commands, see the session env, not process.env', async () => {
    expect(process.env.SESSION_PROBE).toBeUndefined();
    const hook: HookSpec = {
      event: 'PostToolUse',
      matcher: '^Bash$',
      command: 'printf %s "${SESSION_PROBE-unset}" > "$JARVIS_PROJECT_DIR/hook-env.txt"',
      timeout: 30,
    };
    const h = makeEngine({
      tools: [bashTool],
      mode: 'yolo',
      env: { ...process.env, SESSION_PROBE: 'from-session' },
      hooks: [hook],
      responses: [
        { toolCalls: [{ id: 'c1', name: 'Bash', arguments: { command: 'printf "fg=%s" "$SESSION_PROBE"' } }] },
        {
          toolCalls: [
            {
              id: 'c2',
              name: 'Bash',
              arguments: {
                command: 'printf "bg=%s" "$SESSION_PROBE"',
                run_in_background: true,
                description: 'print the probe',
              },
            },
          ],
        },
        { text: 'done' },
      ],
    });
    await runPrompt(h, 'show the probe');
    expect(toolText(h, 'Bash')[0]).toContain('fg=from-session');
    const [task] = h.runtime.tasks.list();
    await until(() => h.runtime.tasks.get(task.id)?.status !== 'running', 'the background task');
    expect(readFileSync(task.outputPath, 'utf8')).toBe('bg=from-session');
    await until(() => existsSync(join(h.cwd, 'hook-env.txt')), 'the hook');
    expect(readFileSync(join(h.cwd, 'hook-env.txt'), 'utf8')).toBe('from-session');
  });

  it('without env the session keeps the process environment (the CLI)', async () => {
    const h = makeEngine({
      tools: [bashTool],
      mode: 'yolo',
      responses: [
        { toolCalls: [{ id: 'c1', name: 'Bash', arguments: { command: 'printf "home=%s" "$HOME"' } }] },
        { text: 'done' },
      ],
    });
    await runPrompt(h, 'go');
    expect(toolText(h, 'Bash')[0]).toContain(`home=${process.env.HOME}`);
  });

  it('a language server starts from the session env', async () => {
    chmodSync(ENV_PROBE, 0o755);
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'jarvis-lsp-env-')));
    const dirs = { home: join(root, 'home'), cwd: join(root, 'work') };
    cpSync(TS_PROJECT, dirs.cwd, { recursive: true });
    mkdirSync(dirs.home, { recursive: true });
    setWorkspaceTrust(dirs.home, dirs.cwd, true);
    const out = join(root, 'lsp-env.json');
    const h = makeEngine({
      dirs,
      responses: [],
      env: { ...process.env, SESSION_PROBE: 'lsp-session' },
      lsp: {
        ...DEFAULT_LSP_SETTINGS,
        servers: {
          typescript: { ...BUILTIN_LSP_SERVERS.typescript, command: ENV_PROBE, args: [out, TS_SERVER, '--stdio'] },
        },
      },
    });
    // The session's servers start in the background once it is open (engine/runtime/lspSession.ts).
    await until(() => existsSync(out) && readFileSync(out, 'utf8').endsWith('\n'), 'the language server');
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual({ SESSION_PROBE: 'lsp-session' });
    await h.runtime.close({ force: true });
  }, 60_000);
});

describe.skipIf(!sandboxAvailable())('secrets of the session env inside the sandbox', () => {
  const settings = (over: Partial<SandboxSettings> = {}): SandboxSettings => ({ ...DEFAULT_SANDBOX_SETTINGS, ...over });
  const PRINT = 'printf "[%s][%s]" "${DEPLOY_API_KEY-unset}" "${PLAIN_PROBE-unset}"';

  async function bashOutput(opts: { env?: NodeJS.ProcessEnv; sandbox: SandboxSettings }): Promise<string> {
    const h = makeEngine({
      tools: [bashTool],
      mode: 'yolo',
      ...opts,
      responses: [{ toolCalls: [{ id: 'c1', name: 'Bash', arguments: { command: PRINT } }] }, { text: 'done' }],
    });
    await runPrompt(h, 'print');
    return toolText(h, 'Bash')[0];
  }

  it('a secret-named variable of env is dropped as one of process.env is; env_pass lets it in; others pass', async () => {
    const env = { ...process.env, DEPLOY_API_KEY: 'sk-session', PLAIN_PROBE: 'plain' };
    expect(await bashOutput({ env, sandbox: settings() })).toContain('[unset][plain]');
    expect(await bashOutput({ env, sandbox: settings({ envPass: ['DEPLOY_API_KEY'] }) })).toContain(
      '[sk-session][plain]',
    );
    // Outside the sandbox the variable is there: the scrubbing, not its absence, made it unset above.
    expect(await bashOutput({ env, sandbox: settings({ enabled: false }) })).toContain('[sk-session][plain]');
    // The same names in process.env (the CLI's case) meet the same rule.
    process.env.DEPLOY_API_KEY = 'sk-process';
    process.env.PLAIN_PROBE = 'plain';
    try {
      expect(await bashOutput({ sandbox: settings() })).toContain('[unset][plain]');
    } finally {
      delete process.env.DEPLOY_API_KEY;
      delete process.env.PLAIN_PROBE;
    }
  }, 60_000);
});

describe("Jarvis's own git calls run with the environment they are given", () => {
  function repo(): string {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'jarvis-git-env-')));
    const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, env: { ...process.env } });
    git('init', '-q', '-b', 'main');
    git('-c', 'user.name=Base', '-c', 'user.email=base@example.com', 'commit', '-q', '--allow-empty', '-m', 'base');
    git('branch', 'side');
    git('-c', 'user.name=Base', '-c', 'user.email=base@example.com', 'commit', '-q', '--allow-empty', '-m', 'main');
    git('checkout', '-q', 'side');
    git('-c', 'user.name=Base', '-c', 'user.email=base@example.com', 'commit', '-q', '--allow-empty', '-m', 'side');
    git('checkout', '-q', 'main');
    return dir;
  }
  const identity = { GIT_COMMITTER_NAME: 'Session Committer', GIT_COMMITTER_EMAIL: 'session@example.com' };

  it('runGit passes env to git (the look at changed files after a command runs through it)', async () => {
    const dir = repo();
    const withEnv = await runGit(['var', 'GIT_COMMITTER_IDENT'], dir, { env: { ...process.env, ...identity } });
    expect(withEnv.stdout).toContain('Session Committer <session@example.com>');
  });

  it("Tower's merge commit is made with the session env's identity", async () => {
    const dir = repo();
    await new TowerGit({
      ...process.env,
      ...identity,
      GIT_AUTHOR_NAME: 'Session Author',
      GIT_AUTHOR_EMAIL: 'a@example.com',
    }).mergeBranch(dir, 'side', 'merge side');
    const log = execFileSync('git', ['log', '-1', '--format=%an|%cn|%s'], { cwd: dir, encoding: 'utf8' }).trim();
    expect(log).toBe('Session Author|Session Committer|merge side');
  });
});
