// User-level locations of other agents and CLAUDE.md imports (docs/compatibility.md), end to end on the built CLI:
// `~/.claude/CLAUDE.md` and the files its and the project CLAUDE.md's `@path` imports bring in reach the model's
// system prompt; a missing or refused import is said on stderr; an opencode agent in `~/.config/opencode/agent/`
// is offered and runs with its own prompt and tools.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, makeCliDirs, mockModelEnv, runJarvis, type CliDirs } from '../helpers/cli';
import { startMockModelServer, type MockModelServer } from '../helpers/mockModelServer';

let server: MockModelServer;
beforeAll(async () => {
  server = await startMockModelServer();
});
afterAll(async () => {
  await server.close();
});

type Message = { role: string; content: unknown; tool_call_id?: string };
const text = (m: Message | undefined) => (typeof m?.content === 'string' ? m.content : JSON.stringify(m?.content));

function write(path: string, body: string) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, body);
}

/** HOME is the data folder in these tests (test/helpers/cli.ts), so `~/.claude` is `<home>/.claude`. */
function setup(): CliDirs {
  const dirs = makeCliDirs();
  execFileSync('git', ['init', '-q'], { cwd: dirs.cwd });
  write(
    join(dirs.home, '.claude', 'CLAUDE.md'),
    '# Mine\nUSER-CLAUDE-MD: answer in British English.\n@rules/tone.md\n',
  );
  write(join(dirs.home, '.claude', 'rules', 'tone.md'), 'USER-IMPORTED: keep answers short.\n');
  write(
    join(dirs.cwd, 'CLAUDE.md'),
    [
      '# Project',
      'See @docs/conventions.md for the rules.',
      'Old notes: @docs/gone.md',
      'Never: @.env',
      '```',
      '@docs/in-a-fence.md',
      '```',
      '',
    ].join('\n'),
  );
  write(join(dirs.cwd, 'docs', 'conventions.md'), 'PROJECT-IMPORTED: tests beside the code.\n');
  write(join(dirs.cwd, 'docs', 'in-a-fence.md'), 'FENCED-MUST-NOT-APPEAR\n');
  write(join(dirs.cwd, '.env'), 'API_TOKEN=sk-never-sent\n');
  write(
    join(dirs.home, '.config', 'opencode', 'agent', 'globe-helper.md'),
    [
      '---',
      'description: Answers questions about world capitals',
      'mode: subagent',
      'tools:',
      '  write: false',
      '  edit: false',
      '  bash: false',
      '---',
      'You are GLOBE-HELPER, an opencode agent kept in the global config folder.',
      '',
    ].join('\n'),
  );
  return dirs;
}

function env(dirs: CliDirs) {
  const e = cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai')));
  delete e.XDG_CONFIG_HOME;
  return e;
}

describe('jarvis -p with user-level Claude Code and opencode files', () => {
  it('the system prompt holds ~/.claude/CLAUDE.md and imported files; an opencode global agent runs', async () => {
    const dirs = setup();
    const before = server.requests.length;
    server.push(
      {
        toolCalls: [
          {
            id: 'c_globe',
            name: 'Agent',
            arguments: { subagent_type: 'globe-helper', description: 'capital', prompt: 'Capital of Peru?' },
          },
        ],
      },
      { text: 'Lima.' },
      { text: 'done' },
    );
    const r = await runJarvis(['-p', 'ask the globe helper'], { env: env(dirs), cwd: dirs.cwd });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('done');
    const [first, sub, last] = server.requests.slice(before).map((q) => q.body);
    const system = text(first.messages[0]);
    expect(system).toContain('USER-CLAUDE-MD: answer in British English.');
    expect(system).toContain('USER-IMPORTED: keep answers short.');
    expect(system).toContain('PROJECT-IMPORTED: tests beside the code.');
    expect(system).not.toContain('FENCED-MUST-NOT-APPEAR');
    expect(system).not.toContain('sk-never-sent');
    // User-level files come before the project's: the project's, more specific, win.
    expect(system.indexOf('USER-CLAUDE-MD')).toBeLessThan(system.indexOf('PROJECT-IMPORTED'));
    expect(JSON.stringify(first)).toContain('globe-helper (Answers questions about world capitals');

    expect(r.stderr).toContain(`claude-import-missing: ${dirs.cwd}/CLAUDE.md:3: @docs/gone.md: no such file`);
    expect(r.stderr).toContain(`claude-import-refused: ${dirs.cwd}/CLAUDE.md:4: @.env: a secret file`);

    expect(text(sub.messages.find((m: Message) => m.role === 'system'))).toContain('You are GLOBE-HELPER');
    const subTools = (sub.tools as Array<{ function: { name: string } }>).map((t) => t.function.name);
    expect(subTools).not.toContain('Bash');
    expect(subTools).not.toContain('Write');
    expect(subTools).toContain('Read');
    expect(text(sub.messages.at(-1))).toContain('Capital of Peru?');
    expect(text(last.messages.find((m: Message) => m.tool_call_id === 'c_globe'))).toContain('Lima.');
  });

  it('jarvis doctor lists ~/.claude/CLAUDE.md with its import and the opencode global agent folder', async () => {
    const dirs = setup();
    const r = await runJarvis(['doctor'], { env: env(dirs), cwd: dirs.cwd });
    const out = r.stdout;
    expect(out).toMatch(/instructions ~\/\.claude\/CLAUDE\.md: \d+ bytes, read \(with 1 import\)/);
    expect(out).toContain('agents ~/.config/opencode/agent (opencode, user): 1 agent (globe-helper)');
    expect(out).toContain('agents ~/.config/opencode/agents (opencode, user): not present');
    expect(out).toContain(`note: claude-import-missing: ${dirs.cwd}/CLAUDE.md:3: @docs/gone.md`);
    expect(out).toContain(`problem: claude-import-refused: ${dirs.cwd}/CLAUDE.md:4: @.env`);
    expect(out).toContain("Other agents' locations: needs attention");
    expect(r.code).toBe(1);

    writeFileSync(join(dirs.home, 'config.toml'), '[compat]\nclaude_md = false\nopencode = false\n');
    const off = await runJarvis(['doctor'], { env: env(dirs), cwd: dirs.cwd });
    expect(off.stdout).toContain('instructions ~/.claude/CLAUDE.md: off by [compat] claude_md = false');
    expect(off.stdout).toContain('agents ~/.config/opencode/agent (opencode, user): off by [compat] opencode = false');
    expect(off.stdout).not.toContain('claude-import');
  });
});
