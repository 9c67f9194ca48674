// The first request's size (SPEC decisions 17 and 21), captured at the loopback mock model from the built
// `jarvis -p`: the default configuration (the bundled jarvis-documents plugin installed at start-up, as every
// user gets it) stays within 16 KiB; six plugins shaped like real ones installed together are listed in full —
// every skill named, the WebBridge instructions present — within listings that grow with the context window
// (docs/plugins.md, "Context budget").
import { mkdirSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listingBudgetBytes } from '../../src/tools/listingBudget';
import { pluginFolder } from '../ext/plugins/pluginFixture';
import {
  HOOK_RULES_SKILL,
  hookRulesPlugin,
  PLATFORM_SKILL_NAMES,
  platformPlugin,
  securityHooksPlugin,
  SKILLS_LIBRARY_NAMES,
  skillsLibraryPlugin,
} from '../fixtures/plugins/realShapedPlugins';
import { BIN, cliEnv, makeCliDirs, mockModelEnv, runJarvis, type CliDirs } from '../helpers/cli';
import { startMockModelServer, type MockModelServer } from '../helpers/mockModelServer';

const FIRST_REQUEST_MAX_BYTES = 16 * 1024;
const DIST_PLUGINS = resolve(__dirname, '../../dist/plugins');
const DOCUMENTS_SKILLS = ['documents-docx', 'documents-pdf', 'documents-pptx', 'documents-xlsx'];

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
  stderr: string;
}

async function firstRequest(dirs: CliDirs, extra: Record<string, string> = {}): Promise<FirstRequest> {
  const before = server.requests.length;
  server.push({ text: 'ok' });
  const env = cliEnv(dirs, { ...mockModelEnv(server.baseUrlFor('openai')), ...extra });
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
    stderr: r.stderr,
  };
}

/** The `# Skills` section of a system prompt. */
const skillsSection = (system: string) => system.slice(system.indexOf('\n# Skills\n')).split('\n# ')[1] ?? '';

/** A plugin with many skills whose descriptions are long: more than any listing's room holds whole. */
function crowdedPlugin(n: number): string {
  const files: Record<string, string | object> = {
    'jarvis.plugin.json': { name: `crowded-${n}`, skills: './skills/' },
  };
  for (let s = 0; s < 40; s++) {
    const description = `Skill ${s} of plugin ${n}. ${'A detailed account of what it does, when, and with which files. '.repeat(5)}`;
    files[`skills/s${s}/SKILL.md`] = `---\nname: crowded-${n}-skill-${s}\ndescription: ${description}\n---\nBody ${s}`;
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

  it('six plugins shaped like real ones, installed together: every skill named, the WebBridge instructions in', async () => {
    const dirs = makeCliDirs();
    // WebBridge's MCP server is `jarvis webbridge-mcp`: the built CLI on PATH, as an installed jarvis is.
    const binDir = join(dirs.home, 'bin');
    mkdirSync(binDir);
    symlinkSync(BIN, join(binDir, 'jarvis'));
    const path = { PATH: `${binDir}:${process.env.PATH ?? ''}` };
    const env = cliEnv(dirs, path);
    const sources = [
      skillsLibraryPlugin(),
      platformPlugin(),
      hookRulesPlugin(),
      securityHooksPlugin(),
      join(DIST_PLUGINS, 'jarvis-webbridge'),
    ];
    for (const source of sources) {
      const r = await runJarvis(['plugin', 'install', source], { env, cwd: dirs.cwd });
      expect(r.code, r.stderr).toBe(0);
    }
    const first = await firstRequest(dirs, path);
    console.log(
      `first request with six plugins (49 skills, 4 agents, 2 MCP servers, WebBridge's instructions): ${first.bytes} bytes`,
    );
    // Every skill is named, each with (at least part of) its description while the room lasts.
    const skills = skillsSection(first.system);
    for (const name of [...SKILLS_LIBRARY_NAMES, ...PLATFORM_SKILL_NAMES, HOOK_RULES_SKILL, ...DOCUMENTS_SKILLS])
      expect(skills, name).toMatch(new RegExp(`(^- ${name}: |^- also .*\\b${name}\\b)`, 'm'));
    expect(skills).toContain('- getting-started-with-skills: Read first in every conversation:');
    // The listing's room for the model's window (the mock model's 262,144 tokens): names alone may pass it.
    const room = listingBudgetBytes(262_144);
    const described = skills.split('\n').filter((l) => /^- (?!also )/.test(l));
    expect(Buffer.byteLength(described.join('\n'))).toBeLessThanOrEqual(room);
    // WebBridge's own instructions reach the model; nothing was skipped or warned about.
    expect(first.system).toContain('<plugin id="jarvis-webbridge">\nThe jarvis-webbridge tools (list_tabs,');
    expect(first.stderr).not.toMatch(/system prompt instructions skipped/);
    // The plugins' agents, with their descriptions; both plugins' MCP servers in ToolSearch.
    for (const agent of ['ai-architect', 'deployment-expert', 'performance-optimizer', 'conversation-analyzer'])
      expect(first.agent).toMatch(new RegExp(`\\b${agent} \\(`));
    expect(first.toolSearch).toMatch(/^- mcp__plugin-jarvis-webbridge_browser__\{/m);
    expect(first.toolSearch).toMatch(/^- mcp__plugin-jarvis-documents_documents__\{/m);
  });

  it('the listing grows with the context window; past its room descriptions are shortened, then skills named', async () => {
    const dirs = makeCliDirs();
    const env = cliEnv(dirs);
    for (let n = 0; n < 3; n++) {
      const r = await runJarvis(['plugin', 'install', crowdedPlugin(n)], { env, cwd: dirs.cwd });
      expect(r.code, r.stderr).toBe(0);
    }
    const all = [0, 1, 2].flatMap((n) => Array.from({ length: 40 }, (_, s) => `crowded-${n}-skill-${s}`));
    const sizes: Record<string, number> = {};
    for (const window of [128_000, 1_000_000, 4_000_000]) {
      const first = await firstRequest(dirs, { JARVIS_MODEL_MAX_CONTEXT_SIZE: String(window) });
      const skills = skillsSection(first.system);
      for (const name of [...all, ...DOCUMENTS_SKILLS]) expect(skills, name).toMatch(new RegExp(`\\b${name}\\b`));
      const described = skills.split('\n').filter((l) => /^- (?!also )/.test(l));
      expect(Buffer.byteLength(described.join('\n'))).toBeLessThanOrEqual(listingBudgetBytes(window));
      sizes[window] = Buffer.byteLength(skills);
      if (window === 128_000) expect(skills).toMatch(/^- also \(load one to read what it does\): crowded-/m);
      if (window === 1_000_000) {
        expect(skills).not.toContain('- also');
        expect(skills).toMatch(/^- crowded-0-skill-0: Skill 0 of plugin 0\. A detailed .*…$/m);
      }
      if (window === 4_000_000)
        expect(skills).toContain(
          `- crowded-2-skill-39: Skill 39 of plugin 2. ${'A detailed account of what it does, when, and with which files. '.repeat(5).trim()}`,
        );
    }
    console.log(`skill listing of 124 skills by context window: ${JSON.stringify(sizes)} bytes`);
    expect(sizes[128_000]).toBeLessThan(sizes[1_000_000]);
    expect(sizes[1_000_000]).toBeLessThan(sizes[4_000_000]);
  });
});
