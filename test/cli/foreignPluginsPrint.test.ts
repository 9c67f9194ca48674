// Plugins written for Claude Code and Kimi Code, in the shapes their published plugins have
// (test/fixtures/foreign/), installed from a Claude Code marketplace — a relative source and a GitHub
// source served by loopback stand-ins for github.com and codeload — and used through `jarvis -p` against
// the mock model: the command's expanded text (its !`cmd` lines run and replaced by their output), the hook's context
// and its block, the skill body with ${CLAUDE_SKILL_DIR} resolved, the agent's prompt and tools, and the
// result of the plugin's .mcp.json server (the real server-everything from npm) are checked in what the
// model receives. The shipped marketplace's modern-web-guidance entry installs the same way.
import { execFileSync } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMarketplace } from '../../src/ext/plugins/marketplace';
import { directoryEntries, writeZip } from '../../src/platform/zip';
import { cliEnv, makeCliDirs, mockModelEnv, runJarvis, type CliDirs } from '../helpers/cli';
import { serve, startFixtureServer, type FixtureServer } from '../helpers/fixtureServer';
import { tempDir } from '../helpers/files';
import { startMockModelServer, type MockModelServer } from '../helpers/mockModelServer';

const FOREIGN = resolve(__dirname, '../fixtures/foreign');
const BIN = resolve(__dirname, '../../node_modules/.bin');
const ECHO = 'mcp__plugin-devflow_everything__echo';

let model: MockModelServer;
let github: FixtureServer;
let codeload: FixtureServer;

/** The fixture as GitHub's codeload serves a repository: everything inside `<repo>-<ref>/`. */
async function archiveOf(fixture: string, top: string): Promise<Buffer> {
  const path = join(tempDir(), `${top}.zip`);
  await writeZip(path, directoryEntries(join(FOREIGN, fixture), `${top}/`));
  return readFileSync(path);
}

beforeAll(async () => {
  model = await startMockModelServer();
  github = await startFixtureServer();
  codeload = await startFixtureServer();
  // No releases: the default branch is fetched (docs/plugins.md "Installing").
  for (const repo of ['acme/devflow', 'GoogleChrome/modern-web-guidance']) {
    github.route(
      `/${repo}/releases/latest`,
      (_req, res) => void res.writeHead(302, { location: `/${repo}/releases` }).end(),
    );
    github.route(`/${repo}/releases`, serve('<html>no releases</html>', 'text/html'));
  }
  codeload.route(
    '/acme/devflow/zip/HEAD',
    serve(await archiveOf('claude-plugin-devflow', 'devflow-main'), 'application/zip'),
  );
  codeload.route(
    '/GoogleChrome/modern-web-guidance/zip/HEAD',
    serve(await archiveOf('claude-plugin-modern-web', 'modern-web-guidance-main'), 'application/zip'),
  );
});
afterAll(async () => {
  await Promise.all([model.close(), github.close(), codeload.close()]);
});

function env(dirs: CliDirs, extra: Record<string, string> = {}) {
  return cliEnv(dirs, {
    JARVIS_CODE_GITHUB_URL: github.url,
    JARVIS_CODE_GITHUB_CODELOAD_URL: codeload.url,
    // The plugin's .mcp.json names the server's program, as published plugins name theirs.
    PATH: `${BIN}:${process.env.PATH ?? ''}`,
    ...extra,
  });
}

async function install(dirs: CliDirs, source: string) {
  const r = await runJarvis(['plugin', 'install', source], { env: env(dirs), cwd: dirs.cwd });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return r.stdout;
}

type Message = { role: string; content: unknown; tool_call_id?: string };
const text = (value: unknown) => JSON.stringify(value);
const toolNames = (body: { tools?: Array<{ function: { name: string } }> }) =>
  (body.tools ?? []).map((t) => t.function.name);
const resultOf = (body: { messages: Message[] }, id: string) =>
  text(body.messages.find((m) => m.role === 'tool' && m.tool_call_id === id)?.content);

describe('Claude Code and Kimi Code plugins through jarvis -p', () => {
  it('a Claude Code marketplace lists its entries and says which source cannot be fetched', async () => {
    const dirs = makeCliDirs();
    const r = await runJarvis(['plugin', 'marketplace', join(FOREIGN, 'claude-marketplace')], {
      env: env(dirs),
      cwd: dirs.cwd,
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('notes-helper');
    expect(r.stdout).toContain('devflow');
    expect(r.stdout).toContain(
      'plugins[2] "internal-lint": the git repository https://git.acme.example/tools/internal-lint.git cannot be fetched',
    );
  });

  it('installs from the marketplace and the model receives command, hook, skill, agent and MCP result', async () => {
    const dirs = makeCliDirs();
    const catalog = await loadMarketplace(join(FOREIGN, 'claude-marketplace'), { env: {}, cwd: dirs.cwd });
    const sources = Object.fromEntries(catalog.entries.map((e) => [e.id, e.source]));
    expect(sources.devflow).toBe('https://github.com/acme/devflow');
    const installed = await install(dirs, sources.devflow);
    // Said once, at install time: what the plugin has that Jarvis does not take.
    expect(installed).toContain('"outputStyles": output styles are not supported; ignored');
    expect(installed).toContain('PreToolUse[0].hooks[1]: hooks of type "prompt" are not supported');
    // The !`cmd` lines are no diagnostic (they run, with approval); install lists what each command will run.
    expect(installed).not.toContain('are not run before sending');
    expect(installed).toMatch(/\/devflow:commit:\n\s+git status --short\n\s+git branch --show-current/);
    await install(dirs, sources['notes-helper']);
    const kimi = join(tempDir(), 'kimi-plugin-notes');
    cpSync(join(FOREIGN, 'kimi-plugin-notes'), kimi, { recursive: true });
    expect(await install(dirs, kimi)).toContain('Installed kimi-notes 1.0.0 to ');

    execFileSync('git', ['init', '-q', dirs.cwd]);
    writeFileSync(join(dirs.cwd, 'parser.ts'), 'export const parse = 1;\n');
    const managed = join(dirs.home, 'plugins/managed/devflow');
    const before = model.requests.length;
    model.push(
      {
        toolCalls: [
          { id: 'c_status', name: 'Bash', arguments: { command: 'git status --short' } },
          { id: 'c_skill', name: 'Skill', arguments: { skill: 'release-notes' } },
          { id: 'c_echo', name: ECHO, arguments: { message: 'from devflow' } },
        ],
      },
      { toolCalls: [{ id: 'c_push', name: 'Bash', arguments: { command: 'git push --force origin main' } }] },
      {
        toolCalls: [
          {
            id: 'c_review',
            name: 'Agent',
            arguments: { subagent_type: 'code-reviewer', description: 'review the change', prompt: 'Review parser.ts' },
          },
        ],
      },
      { text: 'No problems found.' },
      { text: 'Committed.' },
    );
    const r = await runJarvis(['-p', '/devflow:commit tidy the parser'], {
      env: env(dirs, mockModelEnv(model.baseUrlFor('openai'))),
      cwd: dirs.cwd,
    });
    // The one warning: the agent file's `model: sonnet` names no configured model (the JARVIS_MODEL_* model
    // is the only one), so the reviewer runs on the caller's model, said once (docs/skills-and-agents.md).
    const warnings = r.stderr.split('\n').filter((l) => l.includes('warning'));
    expect(warnings).toEqual([
      expect.stringMatching(/^warning: agent devflow:code-reviewer .*: model "sonnet" is not used: /),
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Committed.');
    const [first, second, third, sub, last] = model.requests.slice(before).map((q) => q.body);

    const prompt = text(first.messages.at(-1));
    expect(prompt).toContain(
      'Based on the changes above, create a single git commit. Use this message: tidy the parser',
    );
    // Its !`cmd` lines ran before sending (auto mode: in the sandbox) and their output took their place.
    expect(prompt).toContain('Current git status: Exit code: 0');
    expect(prompt).toContain('?? parser.ts');
    expect(prompt).not.toContain('!`');
    expect(prompt).toContain('DEVFLOW-HOOK: commit messages use the imperative mood.');
    expect(toolNames(first)).toEqual(expect.arrayContaining(['Bash', 'Skill', 'Agent']));

    expect(resultOf(second, 'c_status')).toContain('?? parser.ts');
    const skill = resultOf(second, 'c_skill');
    expect(skill).toContain('DEVFLOW-SKILL: group the changes under Added, Changed and Fixed.');
    expect(skill).toContain(`${managed}/skills/release-notes/template.md`);
    expect(resultOf(second, 'c_echo')).toContain('Echo: from devflow');

    expect(resultOf(third, 'c_push')).toContain('DEVFLOW-GUARD: force pushes are not allowed in this repository.');

    expect(text(sub.messages.find((m: Message) => m.role === 'system'))).toContain('You are DEVFLOW-REVIEWER');
    expect(toolNames(sub).sort()).toEqual(['Glob', 'Grep', 'Read']);
    expect(text(sub.messages.at(-1))).toContain('Review parser.ts');
    expect(resultOf(last, 'c_review')).toContain('No problems found.');

    for (const [command, expected] of [
      ['/kimi-notes:actions the standup transcript', 'Extract every action item from the standup transcript'],
      ['/notes-helper:tidy my draft', 'NOTES-HELPER-COMMAND: tidy the note my draft without changing its meaning.'],
      [
        '/devflow:review-file src/a.ts naming',
        `Review src/a.ts with the checklist in ${managed}/skills/release-notes/`,
      ],
    ]) {
      model.push({ text: 'ok' });
      const run = await runJarvis(['-p', command], {
        env: env(dirs, mockModelEnv(model.baseUrlFor('openai'))),
        cwd: dirs.cwd,
      });
      expect(run.code, run.stderr).toBe(0);
      expect(text(model.requests.at(-1)!.body.messages.at(-1))).toContain(expected);
    }
    model.push(
      { toolCalls: [{ id: 'c_notes', name: 'Skill', arguments: { skill: 'meeting-notes' } }] },
      { text: 'ok' },
    );
    const kimiSkill = await runJarvis(['-p', 'summarise the meeting'], {
      env: env(dirs, mockModelEnv(model.baseUrlFor('openai'))),
      cwd: dirs.cwd,
    });
    expect(kimiSkill.code).toBe(0);
    expect(resultOf(model.requests.at(-1)!.body, 'c_notes')).toContain('KIMI-NOTES-SKILL: list decisions first');
  }, 180_000);

  it("the shipped marketplace's Curated modern-web-guidance entry (a Claude Code plugin) installs", async () => {
    const dirs = makeCliDirs();
    const shipped = await loadMarketplace(undefined, { env: {}, cwd: dirs.cwd });
    const entry = shipped.entries.find((e) => e.id === 'modern-web-guidance');
    expect(entry).toMatchObject({ tier: 'curated', source: 'https://github.com/GoogleChrome/modern-web-guidance' });
    const out = await install(dirs, entry!.source);
    expect(out).toContain('Installed modern-web-guidance 0.0.9 to ');
    expect(out).not.toContain('Diagnostics');
    const info = await runJarvis(['plugin', 'info', 'modern-web-guidance', '--json'], {
      env: env(dirs),
      cwd: dirs.cwd,
    });
    expect(JSON.parse(info.stdout)).toMatchObject({ id: 'modern-web-guidance', diagnostics: [] });
    expect(text(JSON.parse(info.stdout))).toContain('modern-web-guidance');
  }, 60_000);
});
