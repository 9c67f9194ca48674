// Claude Code command files as users keep them (test/fixtures/claude-code: `.claude/commands/review.md` saved with a
// BOM and CRLF and `argument-hint: [pr-number] [focus]`, the namespaced `frontend/component.md` with list-valued
// fields and a `model:`, `release/notes.md` with a `!`cmd`` line and a ```! setup block; `~/.claude/commands/` with a
// command of its own and one the project shadows) used through `jarvis -p` against the mock model: each is invoked
// with its arguments, its shell lines run under the ordinary approval and sandbox (a deny rule holds), prose that
// merely holds `!` and backquotes is left as text, and what Jarvis does not apply is said (docs/compatibility.md).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, mockModelEnv, runJarvis, type CliDirs } from '../helpers/cli';
import { type MockModelServer } from '../helpers/mockModelServer';
import { fixtureUserSetup } from '../helpers/fixtureUserSetup';

const FIXTURES = resolve(__dirname, '../fixtures/claude-code');

let model: MockModelServer;
let dirs: CliDirs;
/** The user's home folder (with `~/.claude/`), apart from Jarvis's data folder as on a user's machine. */
let userHome: string;
beforeAll(async () => {
  ({ model, dirs, userHome } = await fixtureUserSetup(FIXTURES));
});
afterAll(async () => {
  await model.close();
});

/** Runs one prompt; returns what the model received as the last user message, and the run. */
async function send(prompt: string) {
  model.push({ text: 'ok' });
  const r = await runJarvis(['-p', prompt], {
    env: cliEnv(dirs, { ...mockModelEnv(model.baseUrlFor('openai')), HOME: userHome }),
    cwd: dirs.cwd,
  });
  const messages = model.requests.at(-1)!.body.messages as Array<{ role: string; content: unknown }>;
  const last = messages.filter((m) => m.role === 'user').at(-1)!;
  return { r, sent: typeof last.content === 'string' ? last.content : JSON.stringify(last.content) };
}

describe('Claude Code commands through jarvis -p', () => {
  it('jarvis doctor lists the commands of each folder, the shadowed one and what is not applied', async () => {
    const r = await runJarvis(['doctor'], { env: cliEnv(dirs, { HOME: userHome }), cwd: dirs.cwd });
    expect(r.stdout).toMatch(
      /commands .*\/work\/\.claude\/commands \(Claude Code, project\): 3 commands \(\/frontend:component, \/release:notes, \/review\)/,
    );
    expect(r.stdout).toContain('commands ~/.claude/commands (Claude Code, user): 1 command (/standup)');
    expect(r.stdout).toMatch(
      /note: ~\/\.claude\/commands\/review\.md: shadowed: \/review is already .*\/work\/\.claude\/commands\/review\.md/,
    );
    expect(r.stdout).toMatch(/note: .*component\.md: "model" is not applied/);
  }, 60_000);

  it('a project command with a BOM and CRLF takes $1 and $2; prose with ! and backquotes is not run', async () => {
    const { r, sent } = await send('/review 42 security');
    expect(r.code, r.stderr).toBe(0);
    expect(sent).toContain('Review pull request #42 with a focus on security.');
    expect(sent).toContain('Look for `ERR!`, or `FATAL` in the build log, and say `!` when something is urgent.');
    expect(sent).not.toContain('was not run');
    expect(sent).not.toContain('PERSONAL REVIEW');
    expect(sent).not.toContain('\r');
    expect(r.stderr).not.toMatch(/Bash|exit 127/);
  }, 60_000);

  it('a namespaced command is /frontend:component; its !`cmd` line runs; `model` is said to be not applied', async () => {
    const { r, sent } = await send('/frontend:component Card title,onClick');
    expect(r.code, r.stderr).toBe(0);
    expect(sent).toContain('Create the component Card in src/components/ with the props: Card title,onClick.');
    expect(sent).toContain('Existing components: Exit code: 0');
    expect(sent).toContain('Button.tsx');
    expect(r.stderr).toMatch(/component\.md: "model" is not applied: the command runs on the session's model/);
  }, 60_000);

  it('a ```! block runs as one shell command before sending; a fenced example is not run', async () => {
    const { r, sent } = await send('/release:notes 1.2.0');
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(dirs.cwd, 'build/notes-input.txt'), 'utf8')).toContain('1.2.0');
    expect(sent).toContain('notes for 1.2.0');
    expect(sent).not.toContain('```!');
    expect(sent).toContain('```bash\n!`rm -rf build`\n```');
    expect(existsSync(join(dirs.cwd, 'build'))).toBe(true);
  }, 60_000);

  it('hostile arguments in a ```! block are data: written as typed, nothing of them runs', async () => {
    const proof = join(dirs.cwd, '..', 'proof');
    const attack = (canary: string) => `2.0 $(touch ${canary}) "; touch ${canary}; echo "`;
    // Put in place as text (what the block's line reads as), the arguments run.
    spawnSync('bash', ['-c', `echo "notes for ${attack(proof)}"`], { cwd: dirs.cwd });
    expect(existsSync(proof)).toBe(true);
    const canary = join(dirs.cwd, 'pwned');
    const { r } = await send(`/release:notes ${attack(canary)}`);
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(canary)).toBe(false);
    expect(readFileSync(join(dirs.cwd, 'build/notes-input.txt'), 'utf8')).toBe(`notes for ${attack(canary)}\n`);
  }, 60_000);

  it("~/.claude/commands: the user's own command works; the project's review.md shadows the user's", async () => {
    const { r, sent } = await send('/standup backend');
    expect(r.code, r.stderr).toBe(0);
    expect(sent).toContain('Summarise my work since yesterday for the standup. Team: backend');
  }, 60_000);

  it("a deny rule holds for a command's shell line: it is not run and the prompt says so", async () => {
    writeFileSync(
      join(dirs.home, 'config.toml'),
      '[[permission.rules]]\ndecision = "deny"\npattern = "Bash(ls *)"\nreason = "listing is not allowed here"\n',
    );
    try {
      const { r, sent } = await send('/frontend:component Card x');
      expect(r.code, r.stderr).toBe(0);
      expect(sent).toMatch(/\[!`ls src\/components` was not run: denied by rule deny Bash\(ls \*\)/);
    } finally {
      writeFileSync(join(dirs.home, 'config.toml'), '');
    }
  }, 60_000);
});
