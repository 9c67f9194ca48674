// opencode's config files as its users write them (test/fixtures/peers: the project's `opencode.jsonc` with `//` and
// `/* */` comments and trailing commas, a `command` entry, an `agent` section with a `{file:…}` prompt and a
// `tools` map, an entry configuring opencode's own `build` agent, and a project MCP server; the user's
// `~/.config/opencode/opencode.json` with a local server whose command is a list with `{env:…}`, a disabled remote
// one and a command; the primary agent `.opencode/agent/ops.md` without a description) through `jarvis -p`: each part is
// found, listed by doctor, used, and the project's MCP server waits for the workspace's trust.
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, mockModelEnv, runJarvis, type CliDirs } from '../helpers/cli';
import { EVERYTHING_BIN } from '../helpers/mcpServers';
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

const env = () =>
  cliEnv(dirs, {
    ...mockModelEnv(model.baseUrlFor('openai')),
    HOME: userHome,
    XDG_CONFIG_HOME: '',
    EVERYTHING_JS: EVERYTHING_BIN,
  });

const lastUser = (): string => lastUserText(model.requests.at(-1)!);

describe('opencode.json(c) through jarvis -p', () => {
  it('doctor lists both files with their commands, agents and MCP servers', async () => {
    const r = await runJarvis(['doctor'], { env: env(), cwd: dirs.cwd });
    expect(r.stdout).toMatch(
      /config .*\/work\/opencode\.jsonc \(opencode, project\): 1 command \(\/coverage\), 2 agents \(reviewer, build\), 1 MCP server \(project-docs\)/,
    );
    expect(r.stdout).toContain(
      'config ~/.config/opencode/opencode.json (opencode, user): 1 command (/explain), 0 agents, 2 MCP servers (everything, weather)',
    );
    expect(r.stdout).toMatch(/note: .*opencode\.jsonc: "model" is not applied: the command runs on the session/);
  }, 60_000);

  it('a JSONC command takes $1 and $2 (the last one the rest) and runs its !`cmd` line; a user command too', async () => {
    model.push({ text: 'ok' }, { text: 'ok' });
    const r = await runJarvis(['-p', '/coverage packages/api the flaky login test'], {
      env: env(),
      cwd: dirs.cwd,
      timeoutMs: 60_000,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(lastUser()).toContain(
      'Run the tests of packages/api with coverage and fix what fails in the flaky login test.',
    );
    expect(lastUser()).toContain('app.ts');
    const e = await runJarvis(['-p', '/explain closures'], { env: env(), cwd: dirs.cwd, timeoutMs: 60_000 });
    expect(e.code, e.stderr).toBe(0);
    expect(lastUser()).toContain('Explain closures in plain words.');
  }, 90_000);

  it("the user's MCP server starts (command list, {env:…}); the project's waits for trust; fields not applied are said", async () => {
    model.push({ text: 'ok' });
    const r = await runJarvis(['-p', 'hi'], { env: env(), cwd: dirs.cwd, timeoutMs: 60_000 });
    expect(r.code, r.stderr).toBe(0);
    const tools = (model.requests.at(-1)!.body.tools as Array<{ function: { name: string } }>).map(
      (t) => t.function.name,
    );
    const described = JSON.stringify(model.requests.at(-1)!.body.tools);
    expect(described).toContain('mcp__everything__');
    expect(tools.some((t) => t.startsWith('mcp__project-docs__'))).toBe(false);
    expect(r.stderr).toContain('project MCP servers not started because this workspace is not trusted: project-docs');
    expect(r.stderr).toMatch(/opencode\.json: MCP server "weather": "oauth" is not applied/);
    expect(r.stderr).toMatch(/agent "build" configures opencode's own agent and is not used/);
  }, 90_000);

  it('a subagent of the agent section gets its {file:} prompt and loses the tools set to false', async () => {
    model.push(
      {
        toolCalls: [
          {
            id: 'call_a',
            name: 'Agent',
            arguments: { prompt: 'review src', description: 'review', subagent_type: 'reviewer' },
          },
        ],
      },
      { text: 'reviewed' },
      { text: 'done' },
    );
    const r = await runJarvis(['-p', 'get a review'], { env: env(), cwd: dirs.cwd, timeoutMs: 60_000 });
    expect(r.code, r.stderr).toBe(0);
    const sub = model.requests.find((q) => JSON.stringify(q.body.messages[0]).includes('careful code reviewer'));
    expect(sub).toBeDefined();
    const names = (sub!.body.tools as Array<{ function: { name: string } }>).map((t) => t.function.name);
    expect(names).toContain('Read');
    expect(names).not.toContain('Write');
    expect(names).not.toContain('Edit');
  }, 90_000);

  it('a primary agent without a description is the main agent with --agent, and is no delegation target', async () => {
    model.push({ text: 'ops here' });
    const r = await runJarvis(['--agent', 'ops', '-p', 'status?'], { env: env(), cwd: dirs.cwd, timeoutMs: 60_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.stringify(model.requests.at(-1)!.body.messages[0])).toContain('You are the operations agent.');
    const names = (model.requests.at(-1)!.body.tools as Array<{ function: { name: string } }>).map(
      (t) => t.function.name,
    );
    expect(names).not.toContain('Write');
    model.push({ text: 'main' });
    await runJarvis(['-p', 'hello'], { env: env(), cwd: dirs.cwd, timeoutMs: 60_000 });
    const agentTool = (
      model.requests.at(-1)!.body.tools as Array<{ function: { name: string; description: string } }>
    ).find((t) => t.function.name === 'Agent');
    expect(agentTool?.function.description).toContain('reviewer');
    expect(agentTool?.function.description).not.toMatch(/\bops\b/);
  }, 90_000);
});
