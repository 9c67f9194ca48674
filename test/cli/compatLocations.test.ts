// Where users already keep things (docs/compatibility.md "Locations"), end to end on the built CLI: a repository with
// Claude Code's `.claude/` skills and agents, an opencode agent, a project `.mcp.json` using `${VAR}`, CLAUDE.md and
// AGENTS.md at three levels (test/fixtures/compat/project, written the way those tools' users write them).
import { execFileSync } from 'node:child_process';
import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setWorkspaceTrust } from '../../src/store/trust';
import { cliEnv, makeCliDirs, mockModelEnv, runJarvis, type CliDirs } from '../helpers/cli';
import { EVERYTHING_BIN } from '../helpers/mcpServers';
import { startMockModelServer, type MockModelServer } from '../helpers/mockModelServer';

const FIXTURE = join(__dirname, '../fixtures/compat/project');

let server: MockModelServer;
beforeAll(async () => {
  server = await startMockModelServer();
});
afterAll(async () => {
  await server.close();
});

/** The fixture as a git repository; Jarvis runs in its nested `packages/app`. */
function project(): CliDirs & { root: string; app: string } {
  const dirs = makeCliDirs();
  cpSync(FIXTURE, dirs.cwd, { recursive: true });
  execFileSync('git', ['init', '-q'], { cwd: dirs.cwd });
  const app = join(dirs.cwd, 'packages', 'app');
  return { ...dirs, root: dirs.cwd, app };
}

const env = (dirs: CliDirs, extra: Record<string, string> = {}) =>
  cliEnv(dirs, { ...mockModelEnv(server.baseUrlFor('openai')), EVERYTHING_MCP_BIN: EVERYTHING_BIN, ...extra });

describe("jarvis doctor lists what it found in other agents' locations", () => {
  it('skills, agents, .mcp.json, CLAUDE.md, each AGENTS.md level, with counts; [compat] switches shown', async () => {
    const p = project();
    const r = await runJarvis(['doctor'], { env: env(p), cwd: p.app });
    expect(r.stderr).toBe('');
    const out = r.stdout;
    expect(r.code, out).toBe(0);
    expect(out).toContain("Other agents' locations: ok");
    expect(out).toContain(`skills ${p.root}/.claude/skills (Claude Code, project): 1 skill (changelog-writer)`);
    expect(out).toContain(`agents ${p.root}/.claude/agents (Claude Code, project): 1 agent (code-reviewer)`);
    expect(out).toContain(`agents ${p.root}/.opencode/agent (opencode, project): 1 agent (docs-writer)`);
    expect(out).toContain(`agents ${p.root}/.opencode/agents (opencode, project): not present`);
    expect(out).toMatch(/skills ~\/\.claude\/skills \(Claude Code, user\): not present/);
    expect(out).toContain(
      `mcp ${p.root}/.mcp.json (Claude Code, project): 1 server (everything); ` +
        'not started: this workspace is not trusted',
    );
    expect(out).toMatch(new RegExp(`instructions ${p.root}/AGENTS.md: \\d+ bytes, read`));
    expect(out).toMatch(new RegExp(`instructions ${p.root}/CLAUDE.md: \\d+ bytes, read`));
    expect(out).toMatch(new RegExp(`instructions ${p.root}/packages/AGENTS.md \\(nested, packages/AGENTS.md\\): \\d+`));
    expect(out).toMatch(/instructions .*\/packages\/app\/AGENTS.md \(nested, packages\/app\/AGENTS.md\): \d+ bytes/);
    expect(out).toContain('docs-writer.md: opencode agent field "temperature" is not applied');

    // A Jarvis skill of the same name shadows the Claude one; [compat] switches locations off.
    cpSync(join(FIXTURE, '.claude/skills/changelog-writer'), join(p.root, '.agents/skills/changelog-writer'), {
      recursive: true,
    });
    writeFileSync(
      join(p.home, 'config.toml'),
      '[compat]\nopencode = false\nnested_agents_md = false\nmcp_json = false\n',
    );
    const off = await runJarvis(['doctor'], { env: env(p), cwd: p.app });
    expect(off.code).toBe(0);
    expect(off.stdout).toContain(
      `skills ${p.root}/.claude/skills (Claude Code, project): 0 skills; ` +
        `shadowed: changelog-writer by ${p.root}/.agents/skills/changelog-writer/SKILL.md`,
    );
    expect(off.stdout).toContain(
      `agents ${p.root}/.opencode/agent (opencode, project): off by [compat] opencode = false`,
    );
    expect(off.stdout).toContain(`mcp ${p.root}/.mcp.json (Claude Code, project): off by [compat] mcp_json = false`);
    expect(off.stdout).toContain(`(nested, packages/AGENTS.md): off by [compat] nested_agents_md = false`);
  });

  it('an unset ${VAR} in .mcp.json is a problem naming the server and the variable', async () => {
    const p = project();
    const e = env(p);
    delete e.EVERYTHING_MCP_BIN;
    const r = await runJarvis(['doctor'], { env: e, cwd: p.app });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("Other agents' locations: needs attention");
    expect(r.stdout).toContain(
      `problem: ${p.root}/.mcp.json: MCP server "everything": args[0] uses \${EVERYTHING_MCP_BIN}, which is not set`,
    );
  });
});

describe('jarvis -p in a project set up for Claude Code and opencode', () => {
  it('the model receives the skill, the agents, the MCP tool and its result, CLAUDE.md, every AGENTS.md', async () => {
    const p = project();
    setWorkspaceTrust(p.home, p.app, true);
    server.push(
      { toolCalls: [{ id: 'call_echo', name: 'mcp__everything__echo', arguments: { message: 'from .mcp.json' } }] },
      { text: 'done' },
    );
    const r = await runJarvis(['-p', 'what is set up here?'], { env: env(p), cwd: p.app });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('done');
    const first = server.requests.at(-2)!.body;
    const system: string = first.messages[0].content;
    expect(system).toContain('changelog-writer: Writes CHANGELOG entries');
    for (const marker of ['root-agents-md', 'root-claude-md', 'packages-agents-md', 'app-agents-md'])
      expect(system).toContain(marker);
    // Root first, the working folder last: the more specific instructions come later.
    expect(system.indexOf('root-agents-md')).toBeLessThan(system.indexOf('packages-agents-md'));
    expect(system.indexOf('packages-agents-md')).toBeLessThan(system.indexOf('app-agents-md'));
    const request = JSON.stringify(first);
    expect(request).toContain('code-reviewer (Expert code review specialist.');
    expect(request).toContain('docs-writer (Writes and maintains project documentation)');
    const toolResult = server.requests
      .at(-1)!
      .body.messages.find((m: { role: string; tool_call_id?: string }) => m.tool_call_id === 'call_echo');
    expect(toolResult.content).toContain('Echo: from .mcp.json');
    // What opencode's agent asks for and Jarvis does not apply is said, per field.
    // `model` is read (it picks the model the agent runs on when it is delegated to); `permission` is not applied.
    expect(r.stderr).not.toMatch(/docs-writer\.md: opencode agent field "model"/);
    expect(r.stderr).toMatch(/docs-writer\.md: opencode agent field "permission" is not applied/);
  });
});
