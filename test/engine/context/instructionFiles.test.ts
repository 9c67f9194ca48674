// AGENTS.md, CLAUDE.md and CLAUDE.local.md from the repository root down to the working folder
// (docs/compatibility.md "AGENTS.md and CLAUDE.md"): order, duplicates, [compat] switches and the byte budget.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { scanInstructionFiles } from '../../../src/engine/context/instructionFiles';
import { buildSystemPrompt } from '../../../src/engine/context/systemPrompt';
import { DEFAULT_COMPAT } from '../../../src/store/compat';

const base = realpathSync(mkdtempSync(join(tmpdir(), 'jarvis-instr-')));
afterAll(() => rmSync(base, { recursive: true, force: true }));
let n = 0;

function repo(files: Record<string, string>) {
  const root = join(base, `r${++n}`);
  const home = join(base, `h${n}`);
  mkdirSync(join(root, '.git'), { recursive: true });
  mkdirSync(join(root, 'a', 'b'), { recursive: true });
  mkdirSync(home, { recursive: true });
  for (const [rel, text] of Object.entries(files)) writeFileSync(join(root, rel), text);
  return { root, home, cwd: join(root, 'a', 'b') };
}

const rel = (root: string, paths: string[]) => paths.map((p) => p.slice(root.length + 1));

describe('instruction files', () => {
  it('reads every level root → working folder; in a folder AGENTS.md, then CLAUDE.md, then CLAUDE.local.md', () => {
    const r = repo({
      'AGENTS.md': 'root agents',
      'CLAUDE.md': 'root claude',
      'CLAUDE.local.md': 'root local',
      'a/AGENTS.md': 'a agents',
      'a/b/CLAUDE.md': 'b claude',
      'a/b/AGENTS.md': 'b agents',
    });
    const scan = scanInstructionFiles(r.home, r.cwd);
    expect(
      rel(
        r.root,
        scan.files.map((f) => f.path),
      ),
    ).toEqual(['AGENTS.md', 'CLAUDE.md', 'CLAUDE.local.md', 'a/AGENTS.md', 'a/b/AGENTS.md', 'a/b/CLAUDE.md']);
    expect(scan.files.filter((f) => f.nested).map((f) => f.text)).toEqual(['a agents', 'b agents', 'b claude']);
  });

  it('a CLAUDE.md that is a link to, or a copy of, the AGENTS.md beside it is read once', () => {
    const r = repo({ 'AGENTS.md': 'same rules', 'a/AGENTS.md': 'a rules', 'a/CLAUDE.md': 'a rules' });
    symlinkSync('AGENTS.md', join(r.root, 'CLAUDE.md'));
    const scan = scanInstructionFiles(r.home, r.cwd);
    expect(
      rel(
        r.root,
        scan.files.map((f) => f.path),
      ),
    ).toEqual(['AGENTS.md', 'a/AGENTS.md']);
    expect(
      rel(
        r.root,
        scan.duplicates.map((d) => d.path),
      ),
    ).toEqual(['CLAUDE.md', 'a/CLAUDE.md']);
  });

  it('[compat] claude_md = false skips CLAUDE files; nested_agents_md = false keeps only the root level', () => {
    const r = repo({ 'AGENTS.md': 'root', 'CLAUDE.md': 'claude', 'a/AGENTS.md': 'nested', 'a/b/CLAUDE.md': 'deep' });
    const noClaude = scanInstructionFiles(r.home, r.cwd, { ...DEFAULT_COMPAT, claudeMd: false });
    expect(noClaude.files.map((f) => f.text)).toEqual(['root', 'nested']);
    const rootOnly = scanInstructionFiles(r.home, r.cwd, { ...DEFAULT_COMPAT, nestedAgentsMd: false });
    expect(rootOnly.files.map((f) => f.text)).toEqual(['root', 'claude']);
  });

  it('all files together are bounded: the one that crosses is cut with a notice, later ones say so', () => {
    const r = repo({ 'AGENTS.md': 'é'.repeat(60), 'a/AGENTS.md': 'x'.repeat(100), 'a/b/AGENTS.md': 'last' });
    const scan = scanInstructionFiles(r.home, r.cwd, DEFAULT_COMPAT, 150);
    const [first, second, third] = scan.files;
    expect(first.cutBytes).toBe(0);
    expect(second.text).toMatch(/^x{30}\n\[cut: this file is 100 bytes and only the first 30 fit the 150-byte budget/);
    expect(second.cutBytes).toBe(70);
    expect(third.text).toMatch(/^\[not included: the 150-byte budget of instruction files is spent; read this file/);
    expect(scan.warnings).toEqual([
      expect.stringMatching(/^agents-md-cut: .*a\/AGENTS\.md: 70 of its 100 bytes are left out \(budget 150\)$/),
      expect.stringMatching(/^agents-md-cut: .*a\/b\/AGENTS\.md: 4 of its 4 bytes are left out/),
    ]);
  });

  it('a cut never splits a multi-byte character', () => {
    const r = repo({ 'AGENTS.md': 'é'.repeat(10) });
    const [file] = scanInstructionFiles(r.home, r.root, DEFAULT_COMPAT, 5).files;
    expect(file.text.split('\n')[0]).toBe('éé');
  });

  it('the system prompt carries each file in its own <agents-md> section, root first', () => {
    const r = repo({ 'AGENTS.md': 'ROOT-RULE', 'CLAUDE.md': 'CLAUDE-RULE', 'a/b/AGENTS.md': 'LEAF-RULE' });
    const prompt = buildSystemPrompt({ home: r.home, cwd: r.cwd });
    expect(prompt.agentsMdSources).toEqual([
      join(r.root, 'AGENTS.md'),
      join(r.root, 'CLAUDE.md'),
      join(r.cwd, 'AGENTS.md'),
    ]);
    expect(prompt.text).toContain(`<agents-md path="${join(r.root, 'CLAUDE.md')}">\nCLAUDE-RULE\n</agents-md>`);
    expect(prompt.text.indexOf('ROOT-RULE')).toBeLessThan(prompt.text.indexOf('LEAF-RULE'));
    const off = buildSystemPrompt({ home: r.home, cwd: r.cwd, compat: { ...DEFAULT_COMPAT, claudeMd: false } });
    expect(off.text).not.toContain('CLAUDE-RULE');
  });
});
