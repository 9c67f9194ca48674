// Instruction files and skill folders of Gemini CLI, Kimi Code and Codex as their users keep them (test/fixtures/peers:
// a project GEMINI.md saved with CRLF importing `@./docs/style.md` (an `@x` in a code block is no import) and the
// user's ~/.gemini/GEMINI.md; Kimi Code's `.kimi/skills` with a folded multi-line description, `license` and
// `metadata`, and a parent with `sub-skills: true`; the shared `~/.config/agents/skills`; Codex's `.codex/skills` and
// a nested `~/.codex/skills/team/deploy` beside Codex's own `.system` skills) through `jarvis -p`: each is found,
// listed by doctor, in the system prompt, and invoked with its arguments; `[compat]` switches each tool off.
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, mockModelEnv, runJarvis, type CliDirs } from '../helpers/cli';
import { lastUserText, messageText } from '../helpers/modelRequests';
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

const env = () => cliEnv(dirs, { ...mockModelEnv(model.baseUrlFor('openai')), HOME: userHome, XDG_CONFIG_HOME: '' });

async function send(prompt: string) {
  model.push({ text: 'ok' });
  const r = await runJarvis(['-p', prompt], { env: env(), cwd: dirs.cwd });
  const request = model.requests.at(-1)!;
  const messages = request.body.messages as Array<{ content: unknown }>;
  return { r, system: messageText(messages[0]), sent: lastUserText(request) };
}

describe('GEMINI.md, and the skill folders of Kimi Code and Codex, through jarvis -p', () => {
  it('doctor lists the GEMINI files (with their import) and each skill folder with its skills', async () => {
    const r = await runJarvis(['doctor'], {
      env: cliEnv(dirs, { HOME: userHome, XDG_CONFIG_HOME: '' }),
      cwd: dirs.cwd,
    });
    expect(r.stdout).toMatch(/instructions .*\/work\/GEMINI\.md: \d+ bytes, read \(with 1 import\)/);
    expect(r.stdout).toMatch(/instructions ~\/\.gemini\/GEMINI\.md: \d+ bytes, read/);
    expect(r.stdout).toMatch(
      /skills .*\/work\/\.kimi\/skills \(Kimi Code, project\): 5 skills \(changelog, git, git\.review, release, triage\)/,
    );
    expect(r.stdout).toMatch(/skills .*\/work\/\.codex\/skills \(Codex, project\): 1 skill \(lint\)/);
    expect(r.stdout).toContain('skills ~/.codex/skills (Codex, user): 1 skill (deploy)');
    expect(r.stdout).toContain('skills ~/.config/agents/skills (Kimi Code, user): 1 skill (notes)');
  }, 60_000);

  it('the system prompt has both GEMINI files, the import expanded, and every skill listed', async () => {
    const { r, system } = await send('hello');
    expect(r.code, r.stderr).toBe(0);
    expect(system).toContain('Always answer in British English.');
    expect(system).toContain('Use the imperative mood in the subject line.');
    expect(system).toContain('Prefer small commits (from ~/.gemini/GEMINI.md).');
    expect(system).not.toContain('\r');
    for (const name of ['changelog', 'git.review', 'lint', 'deploy', 'notes'])
      expect(system).toMatch(new RegExp(`- ${name.replace('.', '\\.')}: `));
    expect(system).toContain(
      'Write the changelog entry for the changes since the last tag, in Keep a Changelog format',
    );
    expect(system).not.toContain('skill-creator');
  }, 60_000);

  it('each is invoked with its arguments: /skill:changelog, /git.review, /skill:deploy, /notes', async () => {
    const changelog = await send('/skill:changelog 1.4.0');
    expect(changelog.sent).toContain('Write a changelog entry for 1.4.0.');
    expect((await send('/git.review')).sent).toContain('Review the staged diff');
    expect((await send('/skill:deploy')).sent).toContain('make deploy-staging');
    expect((await send('/notes standup')).sent).toContain('Write the notes for standup into notes/');
  }, 90_000);

  it('[compat] kimi, codex and gemini = false leave their folders and files out', async () => {
    writeFileSync(join(dirs.home, 'config.toml'), '[compat]\nkimi = false\ncodex = false\ngemini = false\n');
    try {
      const { system } = await send('hello');
      expect(system).not.toContain('British English');
      expect(system).not.toMatch(/- (changelog|lint|deploy|notes): /);
      const r = await runJarvis(['doctor'], {
        env: cliEnv(dirs, { HOME: userHome, XDG_CONFIG_HOME: '' }),
        cwd: dirs.cwd,
      });
      expect(r.stdout).toMatch(/\.kimi\/skills \(Kimi Code, project\): off by \[compat\] kimi = false/);
      expect(r.stdout).toMatch(/GEMINI\.md: off by \[compat\] gemini = false/);
    } finally {
      writeFileSync(join(dirs.home, 'config.toml'), '');
    }
  }, 60_000);
});
