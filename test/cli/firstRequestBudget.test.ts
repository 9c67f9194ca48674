// The first request's size (SPEC "Deferred tools": ≤ 16 KiB with the default configuration), captured at
// the loopback mock model from the built `jarvis -p`: with the bundled jarvis-documents plugin installed at
// start-up as every user gets it, and again with several more plugins whose skills, instructions and MCP
// servers would each push past the limit without the budgets of docs/plugins.md ("Context budget").
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLUGIN_SKILLS_LISTING_BUDGET_BYTES } from '../../src/engine/delegation/skills';
import { PLUGIN_PROMPT_BUDGET_BYTES } from '../../src/ext/plugins/contributions';
import { PLUGIN_MCP_LISTING_BUDGET_BYTES } from '../../src/tools/toolSearch';
import { pluginFolder } from '../ext/plugins/pluginFixture';
import { cliEnv, makeCliDirs, mockModelEnv, runJarvis, type CliDirs } from '../helpers/cli';
import { startMockModelServer, type MockModelServer } from '../helpers/mockModelServer';

const FIRST_REQUEST_MAX_BYTES = 16 * 1024;
const EVERYTHING = resolve(__dirname, '../../node_modules/@modelcontextprotocol/server-everything/dist/index.js');

let server: MockModelServer;
beforeAll(async () => {
  server = await startMockModelServer();
});
afterAll(async () => {
  await server.close();
});

interface FirstRequest {
  bytes: number;
  system: string;
  toolSearch: string;
  agent: string;
}

async function firstRequest(dirs: CliDirs): Promise<FirstRequest> {
  const before = server.requests.length;
  server.push({ text: 'ok' });
  const env = cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai')));
  const r = await runJarvis(['-p', 'hi'], { env, cwd: dirs.cwd, timeoutMs: 90_000 });
  expect(r.code, r.stderr).toBe(0);
  const body = server.requests[before].body as {
    messages: Array<{ role: string; content: string }>;
    tools: Array<{ function: { name: string; description: string } }>;
  };
  const describe = (name: string) => body.tools.find((t) => t.function.name === name)?.function.description ?? '';
  return {
    bytes: Buffer.byteLength(JSON.stringify(body)),
    system: body.messages[0].content,
    toolSearch: describe('ToolSearch'),
    agent: describe('Agent'),
  };
}

/** A plugin that asks for much more context than the budgets give: long skills, long instructions, MCP. */
function greedyPlugin(n: number, withServer: boolean): string {
  const files: Record<string, string | object> = {
    'jarvis.plugin.json': {
      name: `greedy-${n}`,
      version: '1.0.0',
      skills: './skills/',
      agents: './agents/',
      systemPrompt: `GREEDY-${n}-RULE ${'Always follow the greedy plugin conventions. '.repeat(1)}`,
      ...(withServer ? { mcpServers: { everything: { command: 'node', args: [EVERYTHING, 'stdio'] } } } : {}),
    },
  };
  for (let a = 0; a < 3; a++) {
    const description = 'An agent with a long story about itself. '.repeat(4);
    files[`agents/a${a}.md`] = `---\nname: greedy-${n}-agent-${a}\ndescription: ${description}\n---\nYou help.`;
  }
  for (let s = 0; s < 5; s++) {
    const description = 'A very detailed description of what this skill does. '.repeat(4);
    files[`skills/s${s}/SKILL.md`] = `---\nname: greedy-${n}-skill-${s}\ndescription: ${description}\n---\nBody ${s}`;
  }
  return pluginFolder(files);
}

describe('the first request (built CLI, mock model)', { timeout: 240_000 }, () => {
  it(`is at most ${FIRST_REQUEST_MAX_BYTES} bytes by default, the bundled plugin included`, async () => {
    const first = await firstRequest(makeCliDirs());
    const kib = (first.bytes / 1024).toFixed(2);
    console.log(`first request, default configuration: ${first.bytes} bytes (${kib} KiB)`);
    // The bundled jarvis-documents plugin is in it: its skills and its server's tools on one line.
    expect(first.system).toContain('- documents-pdf: ');
    expect(first.toolSearch).toMatch(/^- mcp__plugin-jarvis-documents_documents__\{create_pdf, .*render_document\}$/m);
    expect(first.bytes).toBeLessThanOrEqual(FIRST_REQUEST_MAX_BYTES);
  });

  it('stays within it however many plugins are installed: each kind of contribution has a budget', async () => {
    const dirs = makeCliDirs();
    const env = cliEnv(dirs);
    for (let n = 0; n < 6; n++) {
      const r = await runJarvis(['plugin', 'install', greedyPlugin(n, n < 2)], { env, cwd: dirs.cwd });
      expect(r.code, r.stderr).toBe(0);
    }
    const first = await firstRequest(dirs);
    const what = '30 skills, 18 agents, 6 instruction blocks, 2 MCP servers';
    console.log(`first request with 6 more plugins (${what}): ${first.bytes} bytes`);
    expect(first.bytes).toBeLessThanOrEqual(FIRST_REQUEST_MAX_BYTES);
    // What fits is there in install order (the bundled plugin is installed last, at start-up); what does not
    // is counted or cut to a prefix, never silently dropped.
    expect(first.system).toContain('- greedy-0-skill-0: A very detailed description of what this skill does.\n');
    expect(first.system).toMatch(/^- and \d+ more skills from plugins \(the Skill tool lists every name\)$/m);
    expect(first.system).toContain('GREEDY-0-RULE');
    expect(first.system).toContain('GREEDY-1-RULE');
    expect(first.system).not.toContain('GREEDY-2-RULE');
    expect(first.toolSearch).toMatch(/^- mcp__plugin-greedy-0_everything__(\{echo, |\*: 13 tools, names not listed)/m);
    expect(first.toolSearch).toMatch(/^- (mcp__plugin-[\w-]+__\*: \d+ tools, names not|and the tools of \d+ more)/m);
    const plugin = (text: string, start: string) => text.slice(text.indexOf(start)).split('\n# ')[0];
    const instructions = Buffer.byteLength(plugin(first.system, '# Plugin instructions'));
    expect(instructions).toBeLessThanOrEqual(PLUGIN_PROMPT_BUDGET_BYTES + 64);
    const skills = Buffer.byteLength(plugin(first.system, '# Skills'));
    expect(skills).toBeLessThanOrEqual(PLUGIN_SKILLS_LISTING_BUDGET_BYTES + 160);
    expect(first.agent).toMatch(/greedy-0-agent-0 \(An agent with a long story about itself\.\)/);
    expect(first.agent).toMatch(/, \d+ more from plugins \(an unknown subagent_type lists every name\)/);
    const mcpLines = first.toolSearch.split('\n').filter((l) => /^- (mcp__|and the tools of)/.test(l));
    expect(Buffer.byteLength(mcpLines.join('\n'))).toBeLessThanOrEqual(PLUGIN_MCP_LISTING_BUDGET_BYTES + 80);
  });
});
