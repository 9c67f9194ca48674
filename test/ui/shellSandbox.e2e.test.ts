// The TUI's `!` shell mode inside the command sandbox (docs/sandbox.md "Shell mode"), the real binary in tmux:
// a secret file reads as the sandbox's note, a write outside the workspace is refused with the boundary named and
// the canary stays absent, a write inside works, and the environment's secrets are not passed in. The user's own
// `[sandbox] shell_mode = "unsandboxed"` runs `!` commands outside; `required = true` without bwrap refuses them.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { requireSystemPart } from '../helpers/requireAll';
import { sandboxAvailable } from '../helpers/sandboxAvailable';
import { appsClosedAfterEach, send, tempDir } from './e2eHarness';

const hasTmux = requireSystemPart('tmux', 'the terminal UI is tested inside tmux');
const available = hasTmux && sandboxAvailable();
const start = appsClosedAfterEach();
const MODEL_KEY = 'sk-tui-model-key-canary';
const canary = `/jarvis-outside-canary-${process.pid}`;

afterEach(() => rmSync(canary, { force: true }));

function workspace(config?: string): { home: string; cwd: string } {
  const home = tempDir('jarvis-shellsb-home-');
  const cwd = tempDir('jarvis-shellsb-cwd-');
  writeFileSync(join(cwd, '.env'), 'API_KEY=sk-dotenv-secret-123\n');
  if (config) writeFileSync(join(home, 'config.toml'), config);
  return { home, cwd };
}

describe.skipIf(!available)('! shell mode in the command sandbox (tmux)', { timeout: 90_000 }, () => {
  it('hides .env, refuses a write outside naming the boundary, writes inside, passes no secret env', async () => {
    const app = await start({
      ...workspace(),
      env: { JARVIS_MODEL_API_KEY: MODEL_KEY, DEPLOY_TOKEN: 'tui-deploy-token-canary' },
      turns: [{ text: 'Noted.' }],
    });
    send(app, '!cat .env');
    await app.tmux.waitFor('Hidden by the Jarvis command sandbox');
    expect(app.tmux.screen()).not.toContain('sk-dotenv-secret-123');
    // The note's lines are not broken mid-sentence by the card, and the user is told what they can do.
    const note = await app.tmux.waitFor("That is the sandbox's note in place of a hidden file");
    expect(note).toContain('# keys, credentials) and home dotfiles are not readable from commands\n');
    expect(note.replace(/\s+/g, ' ')).toContain('set [sandbox] shell_mode = "unsandboxed" in config.toml');

    send(app, `!touch ${canary}`);
    await app.tmux.waitFor('sandbox filesystem boundary');
    expect(existsSync(canary)).toBe(false);

    send(app, '!echo hi > inside.txt && echo wrote-inside');
    await app.tmux.waitFor(/^\s+wrote-inside\s*$/m); // the output line, not the typed command
    expect(readFileSync(join(app.cwd, 'inside.txt'), 'utf8')).toBe('hi\n');

    send(app, '!printenv; echo env-listed');
    await app.tmux.waitFor('env-listed');
    send(app, 'what happened?');
    await app.tmux.waitFor('Noted.');
    // The model sees what the user saw: the note, the boundary and how to run outside; never a secret.
    const body = JSON.stringify(app.server.requests[0].body);
    expect(body).toContain('Hidden by the Jarvis command sandbox');
    expect(body).toContain('Read-only file system');
    expect(body).toContain('shell_mode = \\"unsandboxed\\"');
    expect(body).toContain('JARVIS_CODE_HOME=');
    for (const secret of ['sk-dotenv-secret-123', MODEL_KEY, 'tui-deploy-token-canary']) {
      expect(body).not.toContain(secret);
    }
  });

  it('runs ! commands outside with [sandbox] shell_mode = "unsandboxed"', async () => {
    const app = await start(workspace('[sandbox]\nshell_mode = "unsandboxed"\n'));
    send(app, `!touch ${canary} && cat .env`);
    await app.tmux.waitFor('sk-dotenv-secret-123');
    expect(existsSync(canary)).toBe(true);
  });
});

describe.skipIf(!hasTmux)('! shell mode where the sandbox cannot run (tmux)', { timeout: 90_000 }, () => {
  it('with required = true refuses the command and says why', async () => {
    const app = await start(workspace('[sandbox]\nrequired = true\nbwrap_path = "/nonexistent/bwrap"\n'));
    send(app, '!echo ran > ran.txt');
    await app.tmux.waitFor('[sandbox] required = true, and the sandbox cannot run here');
    expect(existsSync(join(app.cwd, 'ran.txt'))).toBe(false);
  });

  it('without required runs the command unconfined, as before, after the one start-up notice', async () => {
    const app = await start(workspace('[sandbox]\nbwrap_path = "/nonexistent/bwrap"\n'));
    await app.tmux.waitFor('the command sandbox cannot run');
    send(app, '!echo ran > ran.txt && cat .env');
    await app.tmux.waitFor('sk-dotenv-secret-123');
    expect(readFileSync(join(app.cwd, 'ran.txt'), 'utf8')).toBe('ran\n');
  });
});
