// A Claude Code command's !`cmd` lines through `jarvis -p` (docs/plugins.md, "Claude Code plugins"): a plugin
// written as published ones are (`.claude-plugin/plugin.json`, commands with `allowed-tools` and !`cmd` lines),
// installed and run in a real git repository against the mock model. What the model receives has the real
// `git status` / `git diff HEAD` output in place of the lines; `cat .env` gets the sandbox's refusal, not the
// secret; a line a deny rule matches is replaced by the refusal and never runs.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, makeCliDirs, mockModelEnv, runJarvis, type CliDirs } from '../helpers/cli';
import { tempDir } from '../helpers/files';
import { startMockModelServer, type MockModelServer } from '../helpers/mockModelServer';
import { sandboxAvailable } from '../helpers/sandboxAvailable';

let model: MockModelServer;
beforeAll(async () => {
  model = await startMockModelServer();
});
afterAll(async () => {
  await model.close();
});

const COMMIT = `---
allowed-tools: Bash(git status:*), Bash(git diff:*)
description: Create a git commit
---

## Context

- Current git status: !\`git status\`
- Current git diff: !\`git diff HEAD\`

## Your task

Create a single commit. $ARGUMENTS
`;

const LEAKY = `---
description: Shows the environment
---
Environment: !\`cat .env\`
Canary: !\`touch canary.txt\`
`;

function pluginFolder(): string {
  const root = join(tempDir(), 'gitflow');
  mkdirSync(join(root, '.claude-plugin'), { recursive: true });
  mkdirSync(join(root, 'commands'), { recursive: true });
  writeFileSync(join(root, '.claude-plugin/plugin.json'), JSON.stringify({ name: 'gitflow', version: '1.0.0' }));
  writeFileSync(join(root, 'commands/commit.md'), COMMIT);
  writeFileSync(join(root, 'commands/leaky.md'), LEAKY);
  return root;
}

async function setUp(): Promise<CliDirs> {
  const dirs = makeCliDirs();
  writeFileSync(join(dirs.home, '.gitconfig'), '[user]\n\tname = Fixture\n\temail = fixture@example.invalid\n');
  writeFileSync(
    join(dirs.home, 'config.toml'),
    '[[permission.rules]]\ndecision = "deny"\npattern = "Bash(touch *)"\nreason = "no new files"\n',
  );
  const env = cliEnv(dirs, {});
  const installed = await runJarvis(['plugin', 'install', pluginFolder()], { env, cwd: dirs.cwd });
  expect(installed.code, installed.stderr).toBe(0);
  execFileSync('git', ['init', '-q'], { cwd: dirs.cwd, env: { ...process.env, HOME: dirs.home } });
  writeFileSync(join(dirs.cwd, 'parser.ts'), 'export const parse = 1;\n');
  execFileSync('git', ['add', '-A'], { cwd: dirs.cwd });
  execFileSync('git', ['-c', 'user.name=F', '-c', 'user.email=f@example.invalid', 'commit', '-qm', 'first'], {
    cwd: dirs.cwd,
  });
  writeFileSync(join(dirs.cwd, 'parser.ts'), 'export const parse = 2;\n');
  writeFileSync(join(dirs.cwd, 'notes.md'), 'new file\n');
  writeFileSync(join(dirs.cwd, '.env'), 'API_KEY=sk-secret-123\n');
  return dirs;
}

/** Runs `prompt` through `jarvis -p` and returns the last user message the model received, as text. */
async function sent(dirs: CliDirs, prompt: string): Promise<{ text: string; stderr: string }> {
  const before = model.requests.length;
  model.push({ text: 'Done.' });
  const r = await runJarvis(['-p', prompt], {
    env: cliEnv(dirs, mockModelEnv(model.baseUrlFor('openai'))),
    cwd: dirs.cwd,
    timeoutMs: 90_000,
  });
  expect(r.code, r.stderr).toBe(0);
  const body = model.requests[before].body as { messages: Array<{ role: string; content: unknown }> };
  const last = body.messages.filter((m) => m.role === 'user').at(-1);
  const content = last?.content;
  const text = typeof content === 'string' ? content : JSON.stringify(content);
  return { text, stderr: r.stderr };
}

describe.skipIf(!sandboxAvailable())('!`cmd` lines of a Claude Code command through jarvis -p', () => {
  it('the model receives the real git status and git diff output in place of the lines', async () => {
    const dirs = await setUp();
    const status = execFileSync('git', ['status'], { cwd: dirs.cwd, encoding: 'utf8' });
    const { text } = await sent(dirs, '/gitflow:commit keep it short');
    expect(text).not.toContain('!`');
    expect(text).toContain('Current git status: Exit code: 0');
    for (const line of status.split('\n').filter((l) => l.trim())) expect(text).toContain(line.trim());
    expect(text).toContain('-export const parse = 1;');
    expect(text).toContain('+export const parse = 2;');
    expect(text).toContain('Create a single commit. keep it short');
  });

  it('cat .env gets the sandbox refusal, not the secret; a denied line never runs', async () => {
    const dirs = await setUp();
    const { text } = await sent(dirs, '/gitflow:leaky');
    expect(text).not.toContain('sk-secret-123');
    expect(text).toContain('Hidden by the Jarvis command sandbox');
    expect(text).toContain('Canary: [!`touch canary.txt` was not run: denied by rule deny Bash(touch *) (');
    expect(existsSync(join(dirs.cwd, 'canary.txt'))).toBe(false);
  });
});
