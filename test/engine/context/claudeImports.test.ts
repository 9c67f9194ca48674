// Claude Code's `@path` imports in CLAUDE.md (docs/compatibility.md "Imports in CLAUDE.md"): where an import is
// seen, how deep and how far it may go, what is refused, and the byte budget — and ~/.claude/CLAUDE.md read as
// user instructions beside the user-level AGENTS.md.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  CLAUDE_IMPORT_MAX_HOPS,
  expandClaudeImports,
  findClaudeImports,
} from '../../../src/engine/context/claudeImports';
import { INSTRUCTIONS_MAX_BYTES, scanInstructionFiles } from '../../../src/engine/context/instructionFiles';
import { DEFAULT_COMPAT } from '../../../src/store/compat';

const base = realpathSync(mkdtempSync(join(tmpdir(), 'jarvis-claudeimp-')));
afterAll(() => rmSync(base, { recursive: true, force: true }));
let n = 0;

/** A project (with .git) and a home folder beside it, neither inside the other. */
function setup(files: Record<string, string>) {
  const root = join(base, `p${++n}`);
  const home = join(base, `home${n}`);
  mkdirSync(join(root, '.git'), { recursive: true });
  mkdirSync(home, { recursive: true });
  for (const [rel, text] of Object.entries(files)) {
    const path = rel.startsWith('~/') ? join(home, rel.slice(2)) : rel.startsWith('/') ? rel : join(root, rel);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  }
  const expand = (rel: string, text: string, maxBytes = INSTRUCTIONS_MAX_BYTES) =>
    expandClaudeImports(join(root, rel), text, { home, projectRoot: root, maxBytes });
  return { root, home, expand };
}

describe('findClaudeImports', () => {
  it('sees @path on a line and in text, not in code spans or fenced blocks, not in e-mail addresses', () => {
    const text = [
      '@docs/style.md',
      'Follow @~/rules.md and @/abs/x.md, then see @README.md.',
      'Run `cat @not/this.md` or ``a ` @nor/this.md``.',
      'Mail me at dev@example.com.',
      '```md',
      '@inside/fence.md',
      '```',
      '~~~',
      '@inside/tilde.md',
      '```',
      '@still/inside.md',
      '~~~',
      '  @after/fences.md',
    ].join('\n');
    expect(findClaudeImports(text)).toEqual([
      { line: 1, path: 'docs/style.md' },
      { line: 2, path: '~/rules.md' },
      { line: 2, path: '/abs/x.md' },
      { line: 2, path: 'README.md' },
      { line: 13, path: 'after/fences.md' },
    ]);
  });
});

describe('expandClaudeImports', () => {
  it('puts each imported file after the line naming it; relative to the importing file; the line is kept', () => {
    const s = setup({
      'docs/style.md': 'STYLE: tabs\n@../shared/more.md',
      'shared/more.md': 'MORE: nested import',
      '~/personal.md': 'PERSONAL: from home',
    });
    const r = s.expand('CLAUDE.md', 'top\n@docs/style.md\nand @~/personal.md too\nend');
    expect(r.warnings).toEqual([]);
    expect(r.text).toBe(
      [
        'top',
        '@docs/style.md',
        `<imported path="${s.root}/docs/style.md">`,
        'STYLE: tabs',
        '@../shared/more.md',
        `<imported path="${s.root}/shared/more.md">`,
        'MORE: nested import',
        '</imported>',
        '</imported>',
        'and @~/personal.md too',
        `<imported path="${s.home}/personal.md">`,
        'PERSONAL: from home',
        '</imported>',
        'end',
      ].join('\n'),
    );
    expect(r.imported).toEqual([`${s.root}/docs/style.md`, `${s.root}/shared/more.md`, `${s.home}/personal.md`]);
  });

  it('imports in code spans and fences are text: nothing is read', () => {
    const s = setup({ 'x.md': 'X' });
    const r = s.expand('CLAUDE.md', '`@x.md`\n```\n@x.md\n```');
    expect(r.imported).toEqual([]);
    expect(r.warnings).toEqual([]);
  });

  it(`goes ${CLAUDE_IMPORT_MAX_HOPS} hops deep and no further, saying where it stopped`, () => {
    const files: Record<string, string> = {};
    for (let i = 1; i <= 7; i++) files[`h${i}.md`] = `HOP${i}\n@h${i + 1}.md`;
    const s = setup(files);
    const r = s.expand('CLAUDE.md', '@h1.md');
    for (let i = 1; i <= CLAUDE_IMPORT_MAX_HOPS; i++) expect(r.text).toContain(`HOP${i}`);
    expect(r.text).not.toContain(`HOP${CLAUDE_IMPORT_MAX_HOPS + 1}`);
    expect(r.warnings).toEqual([
      `claude-import-depth: ${s.root}/h5.md:2: @h6.md: imports go at most ${CLAUDE_IMPORT_MAX_HOPS} hops deep`,
    ]);
  });

  it('a cycle stops at the file already on the chain; the same file in two branches is read twice', () => {
    const s = setup({ 'a.md': 'A\n@b.md', 'b.md': 'B\n@a.md', 'c.md': 'C' });
    const r = s.expand('CLAUDE.md', '@a.md\n@c.md\n@c.md');
    expect(r.text.match(/^A$/gm)).toHaveLength(1);
    expect(r.text.match(/^C$/gm)).toHaveLength(2);
    expect(r.warnings).toEqual([
      `claude-import-cycle: ${s.root}/b.md:2: @a.md: ${s.root}/a.md is already being imported; not imported again`,
    ]);
    const self = s.expand('a.md', 'A\n@b.md');
    expect(self.warnings).toEqual([expect.stringMatching(/^claude-import-cycle: .*b\.md:2: @a\.md/)]);
  });

  it('a missing file is a notice naming the file and line; the line stays; a bare word that is no file is text', () => {
    const s = setup({});
    const r = s.expand('CLAUDE.md', 'intro\nsee @docs/gone.md\nask @alice or use @param');
    expect(r.text).toBe('intro\nsee @docs/gone.md\nask @alice or use @param');
    expect(r.warnings).toEqual([
      `claude-import-missing: ${s.root}/CLAUDE.md:2: @docs/gone.md: no such file (${s.root}/docs/gone.md); ` +
        'the line is kept as text',
    ]);
  });

  it('refuses a file outside the project and home, directly or through a symlink', () => {
    const outside = join(base, `outside${n + 1}`);
    const s = setup({ [join(outside, 'rules.md')]: 'OUTSIDE' });
    symlinkSync(join(outside, 'rules.md'), join(s.root, 'linked.md'));
    const r = s.expand('CLAUDE.md', `@${outside}/rules.md\n@linked.md\n@../${outside.split('/').pop()}/rules.md`);
    expect(r.text).not.toContain('OUTSIDE');
    expect(r.imported).toEqual([]);
    expect(r.warnings).toHaveLength(3);
    for (const w of r.warnings)
      expect(w).toMatch(/^claude-import-refused: .*CLAUDE\.md:\d: @.*: .* is outside the project and the home folder/);
  });

  it('a home of / confines nothing, so it is not a root: only the project is', () => {
    const outside = join(base, `slash${n + 1}`);
    const s = setup({ [join(outside, 'rules.md')]: 'OUTSIDE' });
    const r = expandClaudeImports(join(s.root, 'CLAUDE.md'), `@${outside}/rules.md`, {
      home: '/',
      projectRoot: s.root,
      maxBytes: INSTRUCTIONS_MAX_BYTES,
    });
    expect(r.text).not.toContain('OUTSIDE');
    expect(r.warnings).toEqual([expect.stringMatching(/^claude-import-refused: .*outside the project and the home/)]);
  });

  it('refuses secret files the file tools refuse: .env, keys, credentials — named directly or via a symlink', () => {
    const s = setup({
      '.env': 'API_KEY=sk-secret-1',
      '.env.production': 'API_KEY=sk-secret-2',
      '~/.ssh/id_ed25519': 'PRIVATE KEY',
      '~/.aws/credentials': 'aws_secret=3',
      'certs/server.key': 'KEY',
      '.env.example': 'API_KEY=<yours>',
    });
    symlinkSync(join(s.home, '.aws', 'credentials'), join(s.root, 'notes.md'));
    symlinkSync(join(s.root, '.env'), join(s.root, 'env-notes.md'));
    const r = s.expand(
      'CLAUDE.md',
      '@.env\n@.env.production\n@~/.ssh/id_ed25519\n@~/.aws/credentials\n@certs/server.key\n@notes.md\n' +
        '@env-notes.md\n@.env.example',
    );
    expect(r.text).not.toMatch(/sk-secret|PRIVATE KEY|aws_secret|^KEY$/m);
    expect(r.text).toContain('API_KEY=<yours>');
    expect(r.warnings).toHaveLength(7);
    for (const w of r.warnings) expect(w).toMatch(/^claude-import-refused: .*a secret file .* is never imported$/);
  });

  it('stops reading imports once the byte budget is spent, and says so', () => {
    const s = setup({ 'big.md': 'B'.repeat(300), 'next.md': 'NEXT' });
    const r = s.expand('CLAUDE.md', '@big.md\n@next.md', 200);
    // What is left of the budget after the file's own 16 bytes, plus one, so the caller's cut shows the file as cut.
    expect(r.text).toContain(`\n${'B'.repeat(200 - 16 + 1)}\n`);
    expect(r.text).toContain(`[not imported: ${s.root}/next.md — the instruction budget is spent`);
    expect(r.warnings).toEqual([
      `claude-import-cut: ${s.root}/CLAUDE.md:2: @next.md: the 200-byte budget of instruction files is spent`,
    ]);
  });
});

describe('CLAUDE files in the instruction scan', () => {
  const realHome = process.env.HOME;
  afterEach(() => {
    process.env.HOME = realHome;
  });

  it('~/.claude/CLAUDE.md comes after the user AGENTS.md files, with its imports; claude_md off skips it', () => {
    const s = setup({
      '~/.claude/CLAUDE.md': 'USER-CLAUDE\n@rules/mine.md',
      '~/.claude/rules/mine.md': 'USER-IMPORTED',
      '~/.agents/AGENTS.md': 'USER-AGENTS',
      'AGENTS.md': 'PROJECT-AGENTS',
      'CLAUDE.md': 'PROJECT-CLAUDE\n@docs/x.md',
      'docs/x.md': 'PROJECT-IMPORTED',
    });
    process.env.HOME = s.home;
    const jarvisHome = join(s.home, '.jarvis-code');
    const scan = scanInstructionFiles(jarvisHome, s.root);
    expect(scan.files.map((f) => f.path)).toEqual([
      join(s.home, '.agents', 'AGENTS.md'),
      join(s.home, '.claude', 'CLAUDE.md'),
      join(s.root, 'AGENTS.md'),
      join(s.root, 'CLAUDE.md'),
    ]);
    expect(scan.files[1].text).toContain('USER-IMPORTED');
    expect(scan.files[1].imports).toEqual([join(s.home, '.claude', 'rules', 'mine.md')]);
    expect(scan.files[3].text).toContain('PROJECT-IMPORTED');
    expect(scan.warnings).toEqual([]);
    const off = scanInstructionFiles(jarvisHome, s.root, { ...DEFAULT_COMPAT, claudeMd: false });
    expect(off.files.map((f) => f.text)).toEqual(['USER-AGENTS', 'PROJECT-AGENTS']);
  });

  it('~/.claude/CLAUDE.md with the same text as the user AGENTS.md is read once', () => {
    const s = setup({ '~/.claude/CLAUDE.md': 'SAME', '~/.agents/AGENTS.md': 'SAME' });
    process.env.HOME = s.home;
    const scan = scanInstructionFiles(join(s.home, '.jarvis-code'), s.root);
    expect(scan.files.map((f) => f.text)).toEqual(['SAME']);
    expect(scan.duplicates).toEqual([
      { path: join(s.home, '.claude', 'CLAUDE.md'), of: join(s.home, '.agents', 'AGENTS.md') },
    ]);
  });

  it('imported text counts toward the budget: the file is cut with the notice', () => {
    const s = setup({ 'CLAUDE.md': 'HEAD\n@big.md', 'big.md': 'Z'.repeat(5000) });
    process.env.HOME = s.home;
    const scan = scanInstructionFiles(join(s.home, '.jarvis-code'), s.root, DEFAULT_COMPAT, 1000);
    expect(scan.files[0].cutBytes).toBeGreaterThan(0);
    expect(Buffer.byteLength(scan.files[0].text)).toBeLessThan(1300);
    expect(scan.files[0].text).toMatch(/\[cut: this file is \d+ bytes and only the first 1000 fit/);
    expect(scan.warnings).toEqual([expect.stringMatching(/^agents-md-cut: .*CLAUDE\.md/)]);
  });
});
