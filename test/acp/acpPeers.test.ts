// `jarvis acp` driven by the official SDK's client, with the peers' files of test/fixtures/peers (Kimi Code skills
// and flows, opencode, Gemini CLI and Codex commands) and the real `@modelcontextprotocol/server-everything`: the
// editor is offered `/skill:<name>`, `/flow:<name>`, the peers' commands and the server's prompts in
// available_commands, and each, sent as a prompt, reaches the model expanded with its arguments (docs/acp.md,
// "Prompts"); a Gemini `!{…}` line keeps the user's words as data and a deny rule holds for it.
import { cpSync, existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAcpClient, type AcpTestClient } from '../helpers/acpClient';
import { cliEnv, makeCliDirs, mockModelEnv, waitUntil, type CliDirs } from '../helpers/cli';
import { EVERYTHING_BIN } from '../helpers/mcpServers';
import { lastUserText } from '../helpers/modelRequests';
import { startMockModelServer, type MockModelServer } from '../helpers/mockModelServer';

const FIXTURES = resolve(__dirname, '../fixtures/peers');

let model: MockModelServer;
let editor: AcpTestClient;
let dirs: CliDirs;
let sessionId: string;

beforeAll(async () => {
  model = await startMockModelServer();
  dirs = makeCliDirs();
  const userHome = join(dirs.cwd, '..', 'user');
  cpSync(join(FIXTURES, 'project'), dirs.cwd, { recursive: true });
  cpSync(join(FIXTURES, 'home'), userHome, { recursive: true });
  const everything = { command: process.execPath, args: [EVERYTHING_BIN, 'stdio'] };
  writeFileSync(join(dirs.home, 'mcp.json'), JSON.stringify({ mcpServers: { everything } }));
  writeFileSync(join(dirs.home, 'config.toml'), '[[permission.rules]]\ndecision = "deny"\npattern = "Bash(ls *)"\n');
  const env = cliEnv(dirs, { ...mockModelEnv(model.baseUrlFor('openai')), HOME: userHome, XDG_CONFIG_HOME: '' });
  editor = await startAcpClient({ env, cwd: dirs.cwd });
  ({ sessionId } = await editor.connection.agent.request('session/new', { cwd: dirs.cwd, mcpServers: [] }));
}, 60_000);

afterAll(async () => {
  await editor?.close();
  await model?.close();
});

/** The names of the latest available_commands_update. */
function commands(): string[] {
  const lists = editor.updates.flatMap((u) =>
    u.sessionId === sessionId && u.update.sessionUpdate === 'available_commands_update'
      ? [u.update.availableCommands.map((c) => c.name)]
      : [],
  );
  return lists.at(-1) ?? [];
}

/** The last user message of each request made since `from`. */
function prompts(from: number): string[] {
  return model.requests.slice(from).map(lastUserText);
}

async function prompt(text: string): Promise<{ stopReason: string; sent: string[] }> {
  const from = model.requests.length;
  const response = await editor.connection.agent.request('session/prompt', {
    sessionId,
    prompt: [{ type: 'text', text }],
  });
  return { stopReason: response.stopReason, sent: prompts(from) };
}

describe('jarvis acp with the peers’ skills, flows and commands, and an MCP server’s prompts', () => {
  it('advertises each of them in available_commands, the MCP prompts once the server has started', async () => {
    await waitUntil(() => commands().includes('mcp__everything__args-prompt'), 30_000, 'the MCP prompts');
    expect(commands()).toEqual(
      expect.arrayContaining([
        'compact',
        'plan',
        'skill:changelog',
        'skill:git.review',
        'skill:deploy',
        'flow:release',
        'flow:triage',
        'review',
        'team/component',
        'git:commit',
        'prompts:review-pr',
        'prompts:draftpr',
        'mcp__everything__args-prompt',
      ]),
    );
    expect(commands()).not.toContain('flow:changelog');
    // Gemini's plan.toml is shadowed by ACP's own /plan: listed once, with ACP's description.
    expect(commands().filter((n) => n === 'plan')).toHaveLength(1);
  }, 40_000);

  it('/skill:changelog and a Codex /prompts:review-pr reach the model with their arguments', async () => {
    model.push({ text: 'ok' }, { text: 'ok' });
    const skill = await prompt('/skill:changelog v2.1');
    expect(skill.stopReason).toBe('end_turn');
    expect(skill.sent[0]).toContain('Write a changelog entry for v2.1.');
    const codex = await prompt('/prompts:review-pr 456 high');
    expect(codex.sent[0]).toContain('Please review pull request #456 with priority high.');
  }, 30_000);

  it('an opencode command from a namespaced folder saved with a BOM and CRLF fills $1 and $2', async () => {
    model.push({ text: 'ok' });
    const r = await prompt('/team/component Button src/ui');
    expect(r.sent[0]).toContain('Create a React component named Button in the src/ui folder.');
  }, 30_000);

  it('Gemini /git:commit: {{args}} as data in !{…}, @{file} read in, the deny rule holds for its `ls` line', async () => {
    model.push({ text: 'ok' });
    const r = await prompt('/git:commit fix $(touch pwned) login');
    expect(r.stopReason).toBe('end_turn');
    expect(r.sent[0]).toContain('Write a Conventional Commit message for: fix $(touch pwned) login');
    expect(r.sent[0]).toMatch(/\[!`ls src` was not run: denied by rule deny Bash\(ls \*\)/);
    expect(r.sent[0]).toContain('fix $(touch pwned) login\n');
    expect(r.sent[0]).toContain('Use the imperative mood in the subject line.');
    expect(existsSync(join(dirs.cwd, 'pwned'))).toBe(false);
  }, 30_000);

  it('/flow:triage runs one turn per node, the decision answered with <choice>', async () => {
    model.push({ text: 'A crash on login.' }, { text: '<choice>yes</choice>' }, { text: 'Labelled.' });
    const r = await prompt('/flow:triage');
    expect(r.stopReason).toBe('end_turn');
    expect(r.sent).toHaveLength(3);
    expect(r.sent[1]).toContain('Is it a bug?\n\nAvailable branches:\n- yes\n- no');
    expect(r.sent[2]).toContain('Label it as a bug.');
  }, 30_000);

  it('/mcp__everything__args-prompt maps its words onto the declared arguments', async () => {
    model.push({ text: 'Sunny.' });
    const r = await prompt('/mcp__everything__args-prompt Paris "Ile de France"');
    expect(r.stopReason).toBe('end_turn');
    expect(r.sent[0]).toContain("What's weather in Paris, Ile de France?");
  }, 30_000);
});
