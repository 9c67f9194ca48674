// The command files of opencode, Gemini CLI and Codex as their users keep them (test/fixtures/peers: opencode's
// legacy `.opencode/command/review.md` with `agent:`/`model:`/`subtask:`, a `!`ls src`` line and an `@src/app.ts`
// include; the namespaced `.opencode/commands/team/component.md` saved with a BOM and CRLF; Gemini's
// `.gemini/commands/git/commit.toml` with a multi-line prompt, `{{args}}`, `!{…}` and `@{…}`, a prompt without
// `{{args}}`, a broken TOML file; Codex's `~/.codex/prompts` with positional and named placeholders; opencode's and
// Gemini's user folders) used through `jarvis -p` against the mock model: each is found, listed by doctor, invoked
// with its arguments in its own syntax, and its shell lines run under the ordinary approval and sandbox, with the
// user's words as data, never as commands.
import { existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, mockModelEnv, runJarvis, type CliDirs } from '../helpers/cli';
import { lastUserText } from '../helpers/modelRequests';
import { type MockModelServer } from '../helpers/mockModelServer';
import { fixtureUserSetup } from '../helpers/fixtureUserSetup';

const FIXTURES = resolve(__dirname, '../fixtures/peers');

let model: MockModelServer;
let dirs: CliDirs;
let userHome: string;
beforeAll(async () => {
  ({ model, dirs, userHome } = await fixtureUserSetup(FIXTURES));
});
afterAll(async () => {
  await model.close();
});

function env(extra: Record<string, string> = {}) {
  return cliEnv(dirs, { ...mockModelEnv(model.baseUrlFor('openai')), HOME: userHome, XDG_CONFIG_HOME: '', ...extra });
}

/** Runs one prompt; returns what the model received as the last user message, and the run. */
async function send(prompt: string) {
  model.push({ text: 'ok' });
  const before = model.requests.length;
  const r = await runJarvis(['-p', prompt], { env: env(), cwd: dirs.cwd });
  if (model.requests.length === before) return { r, sent: '' };
  return { r, sent: lastUserText(model.requests.at(-1)!) };
}

describe('commands of opencode, Gemini CLI and Codex through jarvis -p', () => {
  it('jarvis doctor lists each folder with its commands, the broken file and the fields not applied', async () => {
    const r = await runJarvis(['doctor'], {
      env: cliEnv(dirs, { HOME: userHome, XDG_CONFIG_HOME: '' }),
      cwd: dirs.cwd,
    });
    expect(r.stdout).toMatch(/commands .*\/work\/\.opencode\/command \(opencode, project\): 1 command \(\/review\)/);
    expect(r.stdout).toMatch(/\.opencode\/commands \(opencode, project\): 1 command \(\/team\/component\)/);
    expect(r.stdout).toMatch(/\.gemini\/commands \(Gemini CLI, project\): 2 commands \(\/git:commit, \/plan\)/);
    expect(r.stdout).toContain('commands ~/.config/opencode/command (opencode, user): 1 command (/standup)');
    expect(r.stdout).toContain('commands ~/.gemini/commands (Gemini CLI, user): 1 command (/test)');
    expect(r.stdout).toContain(
      'commands ~/.codex/prompts (Codex, user): 2 commands (/prompts:draftpr, /prompts:review-pr)',
    );
    expect(r.stdout).toMatch(/problem: .*broken\.toml: command skipped: not valid TOML/);
    expect(r.stdout).toMatch(/note: .*review\.md: "subtask" is not applied: the command runs in the conversation/);
  }, 60_000);

  it('opencode: $ARGUMENTS as typed, its !`cmd` line runs, @src/app.ts is read in; agent/model/subtask are said', async () => {
    const { r, sent } = await send('/review the login flow');
    expect(r.code, r.stderr).toBe(0);
    expect(sent).toContain('Review the login flow. Look at @src/app.ts first');
    expect(sent).toContain('util.ts');
    expect(sent).toContain('export const app = 1; // the app entry');
    expect(sent).toMatch(/<file path="src\/app\.ts">/);
    expect(r.stderr).toMatch(/review\.md: "model" is not applied/);
  }, 60_000);

  it('opencode: a namespaced command with a BOM and CRLF; the last $N takes the rest; @alice stays a word', async () => {
    const { r, sent } = await send('/team/component Card src/components/cards "of the shop"');
    expect(r.code, r.stderr).toBe(0);
    expect(sent).toContain('Create a React component named Card in the src/components/cards of the shop folder.');
    expect(sent).toContain('Mention @alice in the summary.');
    expect(sent).not.toContain('\r');
  }, 60_000);

  it('Gemini: {{args}} raw in prose and quoted in !{…}; @{file} read in; an attack in the words runs nothing', async () => {
    const { r, sent } = await send('/git:commit fix $(touch pwned) login');
    expect(r.code, r.stderr).toBe(0);
    expect(sent).toContain('Write a Conventional Commit message for: fix $(touch pwned) login');
    expect(sent).toContain('app.ts');
    expect(sent).toContain('fix $(touch pwned) login\n');
    expect(sent).toContain('Use the imperative mood in the subject line.');
    expect(existsSync(join(dirs.cwd, 'pwned'))).toBe(false);
  }, 60_000);

  it('Gemini: without {{args}} the typed command is appended; a user command from ~/.gemini/commands', async () => {
    const plan = await send('/plan add dark mode');
    expect(plan.r.code, plan.r.stderr).toBe(0);
    expect(plan.sent).toContain('Make a step-by-step plan for what the user asks below.\n\n/plan add dark mode');
    const test = await send('/test packages/api');
    expect(test.sent).toContain('Run the tests in packages/api and explain every failure.');
  }, 60_000);

  it('Codex: /prompts:name with $1, $2, $$ and $ARGUMENTS; named $FILE/$TITLE take KEY=value', async () => {
    const pr = await send('/prompts:review-pr 456 high');
    expect(pr.r.code, pr.r.stderr).toBe(0);
    expect(pr.sent).toContain(
      'Please review pull request #456 with priority high. Costs are in $$ (dollars); all words: 456 high.',
    );
    const named = await send('/prompts:draftpr FILE=src/app.ts TITLE="Fix the app"');
    expect(named.sent).toContain('Create a pull request for the changes in src/app.ts with the title "Fix the app".');
    const missing = await send('/prompts:draftpr FILE=src/app.ts');
    expect(missing.r.code).toBe(2);
    expect(missing.r.stderr).toContain('/prompts:draftpr needs TITLE: give them as KEY=value');
  }, 60_000);

  it('a deny rule holds for a Gemini !{…} line and an opencode !`cmd` line', async () => {
    writeFileSync(join(dirs.home, 'config.toml'), '[[permission.rules]]\ndecision = "deny"\npattern = "Bash(ls *)"\n');
    try {
      const gem = await send('/git:commit x');
      expect(gem.sent).toMatch(/\[!`ls src` was not run: denied by rule deny Bash\(ls \*\)/);
      const oc = await send('/review x');
      expect(oc.sent).toMatch(/\[!`ls src` was not run: denied by rule deny Bash\(ls \*\)/);
    } finally {
      writeFileSync(join(dirs.home, 'config.toml'), '');
    }
  }, 60_000);

  it('[compat] gemini = false: the Gemini commands are gone and /git:commit is an unknown command', async () => {
    writeFileSync(join(dirs.home, 'config.toml'), '[compat]\ngemini = false\n');
    try {
      const { r, sent } = await send('/git:commit x');
      expect(r.code).toBe(2);
      expect(sent).toBe('');
      expect(r.stderr).toContain('Unknown command /git:commit');
    } finally {
      writeFileSync(join(dirs.home, 'config.toml'), '');
    }
  }, 60_000);
});
