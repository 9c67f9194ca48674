// Claude Code's and opencode's skill and agent folders (docs/compatibility.md "Locations"): where they rank, what
// a name clash does, what [compat] switches off, and what an opencode agent file asks for that is not applied.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { agentRoots, loadAgentCatalog } from '../../src/ext/agents/agentCatalog';
import { loadSkillCatalog, skillRoots } from '../../src/ext/skills/skillCatalog';
import { DEFAULT_COMPAT } from '../../src/store/compat';

const base = realpathSync(mkdtempSync(join(tmpdir(), 'jarvis-compatroots-')));
afterAll(() => rmSync(base, { recursive: true, force: true }));
let n = 0;

function setup(files: Record<string, string>) {
  const root = join(base, `r${++n}`);
  const user = join(base, `u${n}`);
  const home = join(user, '.jarvis-code');
  mkdirSync(join(root, '.git'), { recursive: true });
  mkdirSync(home, { recursive: true });
  for (const [rel, text] of Object.entries(files)) {
    const path = rel.startsWith('~/') ? join(user, rel.slice(2)) : join(root, rel);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  }
  return { root, home, cwd: root, env: { HOME: user } };
}

const skill = (name: string, description: string) =>
  `---\nname: ${name}\ndescription: ${description}\n---\nBody of ${name}.\n`;
const agent = (description: string, extra = '') => `---\ndescription: ${description}\n${extra}---\nPrompt.\n`;

describe('foreign skill folders', () => {
  it('.claude/skills and ~/.claude/skills rank below Jarvis folders of the same scope; clashes shadowed', async () => {
    const d = setup({
      '.claude/skills/deploy/SKILL.md': skill('deploy', 'claude project deploy'),
      '.claude/skills/lint/SKILL.md': skill('lint', 'claude project lint'),
      '.agents/skills/deploy/SKILL.md': skill('deploy', 'ours'),
      '~/.claude/skills/lint/SKILL.md': skill('lint', 'claude user lint'),
      '~/.claude/skills/notes/SKILL.md': skill('notes', 'claude user notes'),
    });
    const catalog = await loadSkillCatalog(skillRoots(d));
    expect(catalog.get('deploy')?.description).toBe('ours');
    expect(catalog.get('lint')?.description).toBe('claude project lint');
    expect(catalog.get('notes')?.description).toBe('claude user notes');
    expect(catalog.shadowed.map((s) => [s.skill.description, s.by.description])).toEqual([
      ['claude project deploy', 'ours'],
      ['claude user lint', 'claude project lint'],
    ]);
    const off = await loadSkillCatalog(skillRoots({ ...d, compat: { ...DEFAULT_COMPAT, claude: false } }));
    expect(off.all.map((s) => s.name)).toEqual(['deploy']);
  });
});

describe('foreign agent folders', () => {
  it('.claude/agents, .opencode/agent(s) and ~/.claude/agents are read; ours win on a clash', async () => {
    const d = setup({
      '.claude/agents/reviewer.md': agent('claude reviewer'),
      '.opencode/agent/writer.md': agent('opencode writer', 'mode: subagent\n'),
      '.opencode/agents/tester.md': agent('opencode tester', 'tools:\n  bash: false\n'),
      '.jarvis-code/agents/reviewer.md': agent('our reviewer'),
      '~/.claude/agents/helper.md': agent('claude user helper'),
    });
    const catalog = await loadAgentCatalog(agentRoots(d));
    expect(catalog.get('reviewer')?.description).toBe('our reviewer');
    expect(catalog.get('writer')?.description).toBe('opencode writer');
    expect(catalog.get('tester')?.disallowedTools).toEqual(['Bash']);
    expect(catalog.get('helper')?.source).toBe('user');
    expect(catalog.shadowed.map((s) => s.agent.description)).toEqual(['claude reviewer']);
    expect(catalog.warnings).toEqual([]);
    const off = await loadAgentCatalog(agentRoots({ ...d, compat: { ...DEFAULT_COMPAT, opencode: false } }));
    expect(off.get('writer')).toBeUndefined();
    expect(off.get('helper')).toBeDefined();
  });

  it("opencode's global ~/.config/opencode/agent(s) are read after ~/.claude/agents; XDG honoured", async () => {
    const d = setup({
      '~/.config/opencode/agent/globe.md': agent('opencode global globe', 'mode: subagent\n'),
      '~/.config/opencode/agents/helper.md': agent('opencode global helper'),
      '~/.config/opencode/agents/reviewer.md': agent('opencode global reviewer', 'tools:\n  write: false\n'),
      '~/.claude/agents/helper.md': agent('claude user helper'),
      '~/xdg/opencode/agents/xdg-only.md': agent('from XDG'),
    });
    const catalog = await loadAgentCatalog(agentRoots(d));
    expect(catalog.get('globe')?.description).toBe('opencode global globe');
    expect(catalog.get('globe')?.source).toBe('user');
    expect(catalog.get('helper')?.description).toBe('claude user helper');
    expect(catalog.get('reviewer')?.disallowedTools).toEqual(['Write']);
    expect(catalog.shadowed.map((s) => [s.agent.description, s.by.description])).toEqual([
      ['opencode global helper', 'claude user helper'],
    ]);
    expect(catalog.get('xdg-only')).toBeUndefined();
    const xdg = join(d.env.HOME, 'xdg');
    const withXdg = await loadAgentCatalog(agentRoots({ ...d, env: { ...d.env, XDG_CONFIG_HOME: xdg } }));
    expect(withXdg.get('xdg-only')?.description).toBe('from XDG');
    expect(withXdg.get('globe')).toBeUndefined();
    const off = await loadAgentCatalog(agentRoots({ ...d, compat: { ...DEFAULT_COMPAT, opencode: false } }));
    expect(off.get('globe')).toBeUndefined();
    expect(off.get('helper')?.description).toBe('claude user helper');
  });

  it('opencode fields that do not map are named per file; `disable: true` leaves it out; a bad mode said', async () => {
    const d = setup({
      '.opencode/agent/planner.md': agent('plans', 'mode: primary\nmodel: openai/gpt-5\npermission:\n  bash: ask\n'),
      '.opencode/agent/old.md': agent('retired', 'disable: true\n'),
      '.opencode/agent/odd.md': agent('odd', 'mode: background\n'),
    });
    const catalog = await loadAgentCatalog(agentRoots(d));
    expect(catalog.get('planner')?.description).toBe('plans');
    // `model` is read: the agent runs on the configured model it names (store/agentModels.ts).
    expect(catalog.get('planner')?.model).toBe('openai/gpt-5');
    expect(catalog.get('old')).toBeUndefined();
    expect(catalog.warnings).toEqual([
      expect.stringMatching(
        /odd\.md: opencode agent mode "background" is not one of primary, subagent, all \(ignored\)$/,
      ),
      expect.stringMatching(
        /planner\.md: opencode agent field "permission" is not applied: .*\[\[permission\.rules\]\]/,
      ),
    ]);
  });
});

describe('[compat] in config.toml', () => {
  it('defaults to every location on; a wrong value or an unknown key is an error naming the key', async () => {
    const { parseConfigText } = await import('../../src/store/config');
    expect(parseConfigText('', '/cfg/config.toml').config.compat).toEqual({
      claude: true,
      opencode: true,
      codex: true,
      gemini: true,
      kimi: true,
      claude_md: true,
      nested_agents_md: true,
      mcp_json: true,
    });
    expect(parseConfigText('[compat]\nclaude = false\n', '/cfg/config.toml').config.compat.claude).toBe(false);
    expect(() => parseConfigText('[compat]\nclaude = "no"\n', '/cfg/config.toml')).toThrow(
      /compat\.claude.*true or false/,
    );
    expect(() => parseConfigText('[compat]\ncursor = true\n', '/cfg/config.toml')).toThrow(/compat\.cursor/);
  });
});
