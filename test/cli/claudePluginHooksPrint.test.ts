// Claude Code plugins whose hooks only work when run as Claude Code runs them (test/fixtures/foreign): a
// hookify-style plugin whose PreToolUse script finds the project's `.claude/hookify.*.local.md` rules relative to
// its working folder (the project, not the plugin) and denies `rm -rf build`; a security-guidance-style plugin whose
// PreToolUse script reads `tool_input.file_path` and refuses a risky GitHub Actions workflow while a safe one is
// written. The security plugin also lists its agents as files (`"agents": ["./agents/explore.md", …]`) — one named
// like the built-in `explore`, reachable as `claude-security:explore` — and has an MCP server whose `${VAR}` is unset,
// which the session says instead of starting it (docs/plugins.md, "Claude Code plugins").
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, makeCliDirs, mockModelEnv, runJarvis, type CliDirs } from '../helpers/cli';
import { tempDir } from '../helpers/files';
import { startMockModelServer, type MockModelServer } from '../helpers/mockModelServer';

const FOREIGN = resolve(__dirname, '../fixtures/foreign');

let model: MockModelServer;
let dirs: CliDirs;
let installOutput = '';
beforeAll(async () => {
  model = await startMockModelServer();
  dirs = makeCliDirs();
  for (const name of ['claude-plugin-rulebook', 'claude-plugin-security']) {
    const source = join(tempDir(), name);
    cpSync(join(FOREIGN, name), source, { recursive: true });
    const r = await runJarvis(['plugin', 'install', source], { env: cliEnv(dirs), cwd: dirs.cwd });
    expect(r.code, r.stderr).toBe(0);
    installOutput += r.stdout;
  }
  // The project's own rule, written the way hookify users write theirs.
  mkdirSync(join(dirs.cwd, '.claude'), { recursive: true });
  writeFileSync(
    join(dirs.cwd, '.claude/hookify.dangerous-rm.local.md'),
    '---\nname: block-dangerous-rm\nenabled: true\nevent: bash\npattern: rm\\s+-rf\naction: block\n---\n\n' +
      '⚠️ **Dangerous rm command detected!** Delete the files one by one, after checking the path.\n',
  );
  mkdirSync(join(dirs.cwd, 'build'));
  writeFileSync(join(dirs.cwd, 'build/app.js'), 'console.log(1);\n');
});
afterAll(async () => {
  await model.close();
});

type Message = { role: string; content: unknown; tool_call_id?: string };
const resultOf = (body: { messages: Message[] }, id: string) =>
  JSON.stringify(body.messages.find((m) => m.role === 'tool' && m.tool_call_id === id)?.content);
const run = (prompt: string) =>
  runJarvis(['-p', prompt], { env: cliEnv(dirs, mockModelEnv(model.baseUrlFor('openai'))), cwd: dirs.cwd });

describe('Claude Code plugin hooks run in the project folder', () => {
  it('installs with its agent files read and nothing reported as "not a folder"', async () => {
    expect(installOutput).not.toContain('is not a folder');
    const info = await runJarvis(['plugin', 'info', 'claude-security', '--json'], { env: cliEnv(dirs), cwd: dirs.cwd });
    expect(JSON.parse(info.stdout).agents).toEqual(['claude-security:explore', 'claude-security:threat-model']);
  });

  it("a hookify-style plugin finds the project's .claude/hookify rules and denies rm -rf build", async () => {
    const before = model.requests.length;
    model.push(
      {
        toolCalls: [
          { id: 'rm', name: 'Bash', arguments: { command: 'rm -rf build' } },
          { id: 'ls', name: 'Bash', arguments: { command: 'ls build' } },
        ],
      },
      { text: 'I left build/ alone.' },
    );
    const r = await run('clean the build folder');
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(dirs.cwd, 'build/app.js'))).toBe(true);
    const second = model.requests[before + 1].body;
    expect(resultOf(second, 'rm')).toContain('Dangerous rm command detected!');
    expect(resultOf(second, 'ls')).toContain('app.js');
    // The rule's message is also shown to the user (systemMessage).
    expect(r.stderr).toContain('[block-dangerous-rm]');
  }, 60_000);

  it('a security-guidance-style hook reading tool_input.file_path refuses a risky workflow, not a safe one', async () => {
    const before = model.requests.length;
    const risky = [
      'on: issues',
      'jobs:',
      '  triage:',
      '    runs-on: ubuntu-latest',
      '    steps:',
      '      - run: echo "${{ github.event.issue.title }}"',
      '',
    ].join('\n');
    const safe = [
      'on: push',
      'jobs:',
      '  test:',
      '    runs-on: ubuntu-latest',
      '    steps:',
      '      - run: npm test',
      '',
    ].join('\n');
    model.push(
      {
        toolCalls: [
          { id: 'risky', name: 'Write', arguments: { path: '.github/workflows/triage.yml', content: risky } },
          { id: 'safe', name: 'Write', arguments: { path: '.github/workflows/ci.yml', content: safe } },
        ],
      },
      { text: 'Added CI.' },
    );
    const r = await run('add the workflows');
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(dirs.cwd, '.github/workflows/triage.yml'))).toBe(false);
    expect(readFileSync(join(dirs.cwd, '.github/workflows/ci.yml'), 'utf8')).toBe(safe);
    expect(resultOf(model.requests[before + 1].body, 'risky')).toContain('allows command injection');
  }, 60_000);

  it('claude-security:explore is the plugin agent; explore stays the built-in; the unset ${VAR} is said', async () => {
    const before = model.requests.length;
    model.push(
      {
        toolCalls: [
          {
            id: 'sec',
            name: 'Agent',
            arguments: {
              subagent_type: 'claude-security:explore',
              description: 'map inputs',
              prompt: 'Map the inputs',
            },
          },
        ],
      },
      { text: 'src/server.ts:12 reads the request body.' },
      { text: 'Mapped.' },
    );
    const r = await run('audit the inputs');
    expect(r.code, r.stderr).toBe(0);
    const sub = model.requests[before + 1].body;
    expect(JSON.stringify(sub.messages.find((m: Message) => m.role === 'system'))).toContain(
      'You are SECURITY-EXPLORE',
    );
    expect(resultOf(model.requests[before + 2].body, 'sec')).toContain('src/server.ts:12 reads the request body.');
    // The Agent tool lists the plugin's agents by their namespaced names.
    const agentTool = model.requests[before].body.tools.find(
      (t: { function: { name: string } }) => t.function.name === 'Agent',
    );
    expect(JSON.stringify(agentTool)).toContain('claude-security:explore');
    expect(r.stderr).toMatch(
      /plugin claude-security: MCP server "scanner": .*\$\{SECURITY_API_TOKEN\}, which is not set.*; the server is not started/,
    );
  }, 60_000);
});
