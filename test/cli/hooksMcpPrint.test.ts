// `jarvis -p` end to end with hooks and MCP servers: the built binary, the loopback mock model, real
// hook commands and the real server-everything from npm.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setWorkspaceTrust } from '../../src/store/trust';
import { cliEnv, makeCliDirs, mockModelEnv, runJarvis } from '../helpers/cli';
import { EVERYTHING_BIN } from '../helpers/mcpServers';
import { startMockModelServer, type MockModelServer } from '../helpers/mockModelServer';

let server: MockModelServer;
beforeAll(async () => {
  server = await startMockModelServer();
});
afterAll(async () => {
  await server.close();
});

const toml = (s: string) => JSON.stringify(s);
const toolMessage = (callId: string) =>
  server.requests
    .at(-1)!
    .body.messages.find((m: { role: string; tool_call_id?: string }) => m.role === 'tool' && m.tool_call_id === callId);
const everything = { command: process.execPath, args: [EVERYTHING_BIN, 'stdio'] };
type RequestTool = { function: { name: string; description: string } };
/** Tools offered with full schemas. server-everything has more than 4 tools, so its tools are deferred. */
const offered = (body: { tools: RequestTool[] }): string[] => body.tools.map((t) => t.function.name);
/** Deferred tools listed in ToolSearch's catalog (`- name: summary` lines, docs/tools.md). */
/** The tools ToolSearch's catalog lists: `- name: summary` lines, and `- mcp__server__{a, b}` for a server's tools. */
const listed = (body: { tools: RequestTool[] }): string[] => {
  const description = body.tools.find((t) => t.function.name === 'ToolSearch')?.function.description ?? '';
  return [...description.matchAll(/^- (.+?)(?::\s|$)/gm)].flatMap(([, entry]) => {
    const grouped = /^(mcp__[^{]+__)\{(.*)\}$/.exec(entry);
    return grouped ? grouped[2].split(',').map((name) => grouped[1] + name.trim()) : [entry];
  });
};

describe('jarvis -p with hooks', () => {
  it('a PreToolUse hook blocks a Bash call: the command does not run and the model reads the reason', async () => {
    const dirs = makeCliDirs();
    const marker = join(dirs.cwd, 'ran.txt');
    const payload = join(dirs.home, 'pre.json');
    writeFileSync(
      join(dirs.home, 'config.toml'),
      `[[hooks]]\nevent = "PreToolUse"\nmatcher = "^Bash$"\ncommand = ${toml(`cat > ${payload}; echo "rm is forbidden in this repository; use git clean" >&2; exit 2`)}\n`,
    );
    server.push(
      { toolCalls: [{ id: 'call_rm', name: 'Bash', arguments: { command: `touch ${marker}` } }] },
      { text: 'I will not delete anything.' },
    );
    const r = await runJarvis(['-p', 'clean up'], {
      env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))),
      cwd: dirs.cwd,
    });
    expect(r.code).toBe(0);
    expect(existsSync(marker)).toBe(false);
    expect(toolMessage('call_rm').content).toMatch(
      /was blocked before it ran: rm is forbidden in this repository; use git clean/,
    );
    expect(JSON.parse(readFileSync(payload, 'utf8'))).toMatchObject({
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: `touch ${marker}` },
      tool_call_id: 'call_rm',
      cwd: dirs.cwd,
      client_type: 'jarvis_code_cli',
    });
    expect(r.stdout).toContain('I will not delete anything.');
  });

  it('UserPromptSubmit and SessionStart output reach the model; a failing hook is a warning on stderr and the run goes on', async () => {
    const dirs = makeCliDirs();
    writeFileSync(
      join(dirs.home, 'config.toml'),
      [
        `[[hooks]]\nevent = "SessionStart"\ncommand = "echo 'Release freeze until Friday.'"`,
        `[[hooks]]\nevent = "UserPromptSubmit"\ncommand = "echo 'Current ticket: JAR-42'"`,
        `[[hooks]]\nevent = "UserPromptSubmit"\ncommand = "echo 'hook broke' >&2; exit 7"`,
      ].join('\n'),
    );
    server.push({ text: 'noted' });
    const r = await runJarvis(['-p', 'status?'], {
      env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))),
      cwd: dirs.cwd,
    });
    expect(r.code).toBe(0);
    const sent = JSON.stringify(server.requests.at(-1)!.body.messages.at(-1));
    expect(sent).toContain('Release freeze until Friday.');
    expect(sent).toContain('Current ticket: JAR-42');
    expect(r.stderr).toMatch(
      /UserPromptSubmit hook `echo 'hook broke' >&2; exit 7` \(config\.toml\) exited 7: hook broke \(ignored\)/,
    );
  });

  it('a UserPromptSubmit hook that exits 2 keeps the prompt from the model', async () => {
    const dirs = makeCliDirs();
    writeFileSync(
      join(dirs.home, 'config.toml'),
      `[[hooks]]\nevent = "UserPromptSubmit"\nmatcher = "password"\ncommand = "echo 'never paste passwords' >&2; exit 2"\n`,
    );
    const before = server.requests.length;
    const r = await runJarvis(['-p', 'my password is hunter2'], {
      env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))),
      cwd: dirs.cwd,
    });
    expect(server.requests.length).toBe(before);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('The prompt was blocked before it reached the model: never paste passwords');
  });

  it('a malformed [[hooks]] entry stops start-up with a message naming it', async () => {
    const dirs = makeCliDirs();
    writeFileSync(join(dirs.home, 'config.toml'), `[[hooks]]\nevent = "PreToolUse"\ncommand = "true"\nasync = true\n`);
    const r = await runJarvis(['-p', 'x'], {
      env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))),
      cwd: dirs.cwd,
    });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(
      /hooks\[0\]\.async.*unknown key \(a \[\[hooks\]\] entry accepts: event, matcher, command, timeout\)/s,
    );
  });
});

describe('jarvis -p with MCP servers', () => {
  it("offers the server's tools, runs a call, and passes structured content to the model", async () => {
    const dirs = makeCliDirs();
    writeFileSync(join(dirs.home, 'mcp.json'), JSON.stringify({ mcpServers: { everything } }));
    server.push(
      {
        toolCalls: [
          { id: 'call_w', name: 'mcp__everything__get-structured-content', arguments: { location: 'Chicago' } },
        ],
      },
      { text: 'It drizzles.' },
    );
    const r = await runJarvis(['-p', 'weather?'], {
      env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))),
      cwd: dirs.cwd,
    });
    expect(r.stderr).not.toMatch(/warning/);
    expect(r.code).toBe(0);
    const first = server.requests.at(-2)!.body;
    expect(offered(first)).toContain('Read');
    expect(listed(first)).toEqual(
      expect.arrayContaining(['mcp__everything__echo', 'mcp__everything__get-structured-content']),
    );
    expect(toolMessage('call_w').content).toMatch(/Light rain \/ drizzle/);
  });

  it("arguments are checked against the server's JSON Schema before the call", async () => {
    const dirs = makeCliDirs();
    writeFileSync(join(dirs.home, 'mcp.json'), JSON.stringify({ mcpServers: { everything } }));
    server.push(
      { toolCalls: [{ id: 'call_s', name: 'mcp__everything__get-sum', arguments: { a: 'one' } }] },
      { text: 'oops' },
    );
    const r = await runJarvis(['-p', 'add'], {
      env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))),
      cwd: dirs.cwd,
    });
    expect(r.code).toBe(0);
    expect(toolMessage('call_s').content).toBe(
      'Invalid arguments for mcp__everything__get-sum:\n- b: is required but missing\n- a: must be number\nFix the arguments and call mcp__everything__get-sum again.\nmcp__everything__get-sum is a deferred tool and its schema is not loaded: call ToolSearch with names ["mcp__everything__get-sum"], then call mcp__everything__get-sum again.',
    );
  });

  it('a server that cannot start is reported on stderr; the run goes on with the others', async () => {
    const dirs = makeCliDirs();
    writeFileSync(
      join(dirs.home, 'mcp.json'),
      JSON.stringify({ mcpServers: { ghost: { command: 'no-such-mcp-binary-xyz' }, everything } }),
    );
    server.push({ text: 'fine' });
    const r = await runJarvis(['-p', 'hello'], {
      env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))),
      cwd: dirs.cwd,
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      'warning: MCP server "ghost" is not available (could not start: command "no-such-mcp-binary-xyz" was not found (stdio: no-such-mcp-binary-xyz)); the session goes on without it.',
    );
    const names = listed(server.requests.at(-1)!.body);
    expect(names).toContain('mcp__everything__echo');
    expect(names.some((n: string) => n.startsWith('mcp__ghost__'))).toBe(false);
  });

  it('an untrusted workspace does not start its project servers and says so; trusted, it does (project wins over user)', async () => {
    const dirs = makeCliDirs();
    const launched = join(dirs.home, 'project-server-started');
    mkdirSync(join(dirs.cwd, '.jarvis-code'));
    const projectServer = {
      command: process.execPath,
      args: [
        '-e',
        `require('fs').writeFileSync(${JSON.stringify(launched)}, ''); process.argv.push('stdio'); import(${JSON.stringify(EVERYTHING_BIN)})`,
      ],
    };
    writeFileSync(join(dirs.cwd, '.jarvis-code', 'mcp.json'), JSON.stringify({ mcpServers: { proj: projectServer } }));
    server.push({ text: 'a' });
    const untrusted = await runJarvis(['-p', 'hi'], {
      env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))),
      cwd: dirs.cwd,
    });
    expect(untrusted.code).toBe(0);
    expect(untrusted.stderr).toMatch(/project MCP servers not started because this workspace is not trusted: proj/);
    expect(existsSync(launched)).toBe(false);
    expect(JSON.stringify(server.requests.at(-1)!.body.tools)).not.toContain('mcp__proj__');

    setWorkspaceTrust(dirs.home, dirs.cwd, true);
    server.push({ text: 'b' });
    const trusted = await runJarvis(['-p', 'hi'], {
      env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))),
      cwd: dirs.cwd,
    });
    expect(trusted.code).toBe(0);
    expect(existsSync(launched)).toBe(true);
    expect(listed(server.requests.at(-1)!.body)).toContain('mcp__proj__echo');
  });

  it('disabledTools keeps tools from the model; a server that never answers fails with its startup timeout', async () => {
    const dirs = makeCliDirs();
    writeFileSync(
      join(dirs.home, 'mcp.json'),
      JSON.stringify({
        mcpServers: {
          everything: { ...everything, disabledTools: ['get-*'] },
          mute: { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'], startupTimeoutMs: 800 },
        },
      }),
    );
    server.push({ text: 'ok' });
    const r = await runJarvis(['-p', 'hi'], {
      env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))),
      cwd: dirs.cwd,
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/MCP server "mute" is not available \(did not answer within 800 ms and was stopped/);
    const names = listed(server.requests.at(-1)!.body);
    expect(names).toContain('mcp__everything__echo');
    expect(names.filter((n) => n.startsWith('mcp__everything__get-'))).toEqual([]);
  });
});
