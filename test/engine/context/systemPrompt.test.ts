import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  AGENTS_MD_WARN_BYTES,
  buildSystemPrompt,
  renderPromptTemplate,
} from '../../../src/engine/context/systemPrompt';

function dirs() {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'jarvis-sp-')));
  const home = join(root, 'home');
  const cwd = join(root, 'repo');
  mkdirSync(home, { recursive: true });
  mkdirSync(join(cwd, '.git'), { recursive: true });
  mkdirSync(join(cwd, 'src'), { recursive: true });
  return { home, cwd };
}

describe('system prompt', () => {
  it('fills ${cwd}, ${os}, ${shell}, ${now} and ${cwd_listing}', () => {
    const { home, cwd } = dirs();
    writeFileSync(join(cwd, 'package.json'), '{}');
    const now = new Date('2026-01-02T03:04:05Z');
    const { text } = buildSystemPrompt({ home, cwd, now, env: { SHELL: '/bin/zsh' } });
    expect(text).toContain(`Working directory: ${cwd}`);
    expect(text).toContain('2026-01-02T03:04:05.000Z');
    expect(text).toContain('zsh (`/bin/zsh`)');
    expect(text).toMatch(/package\.json/);
    expect(text).toMatch(/src\//);
    expect(text).toContain(process.platform);
    expect(text).not.toMatch(/\$\{[a-z_]+\}/);
  });

  it('injects AGENTS.md from the home, the project root and .jarvis-code/, and warns when oversized', () => {
    const { home, cwd } = dirs();
    writeFileSync(join(home, 'AGENTS.md'), 'Always answer in haiku.');
    writeFileSync(join(cwd, 'AGENTS.md'), 'Use tabs in this repo.');
    mkdirSync(join(cwd, '.jarvis-code'));
    writeFileSync(join(cwd, '.jarvis-code', 'AGENTS.md'), 'x'.repeat(AGENTS_MD_WARN_BYTES + 1));
    const r = buildSystemPrompt({ home, cwd: join(cwd, 'src') });
    expect(r.text).toContain('Always answer in haiku.');
    expect(r.text).toContain('Use tabs in this repo.');
    expect(r.agentsMdSources).toEqual([
      join(home, 'AGENTS.md'),
      join(cwd, 'AGENTS.md'),
      join(cwd, '.jarvis-code', 'AGENTS.md'),
    ]);
    expect(r.warnings.join('\n')).toMatch(/agents-md-oversized/);
  });

  it('an AGENTS.md that exists but cannot be read is a warning naming it, not silently skipped', () => {
    const { home, cwd } = dirs();
    symlinkSync('AGENTS.md', join(cwd, 'AGENTS.md')); // a link to itself: ELOOP on every read
    writeFileSync(join(home, 'AGENTS.md'), 'Always answer in haiku.');
    const r = buildSystemPrompt({ home, cwd });
    expect(r.text).toContain('Always answer in haiku.');
    const warning = r.warnings.find((w) => w.startsWith('agents-md-unreadable:'));
    const expected = `^agents-md-unreadable: ${join(cwd, 'AGENTS.md')} exists but cannot be read \\(.*ELOOP`;
    expect(warning).toMatch(new RegExp(expected));
    expect(warning).toContain('its instructions are not applied');
  });

  it('SYSTEM.md replaces the built-in prompt; unknown variables stay verbatim; empty SYSTEM.md is ignored', () => {
    const { home, cwd } = dirs();
    writeFileSync(join(home, 'SYSTEM.md'), 'You are ${product_name} in ${cwd}. Keep ${unknown} and $HOME.');
    expect(buildSystemPrompt({ home, cwd, productName: 'Friday' }).text).toBe(
      `You are Friday in ${cwd}. Keep \${unknown} and $HOME.`,
    );
    writeFileSync(join(home, 'SYSTEM.md'), '   \n');
    expect(buildSystemPrompt({ home, cwd }).text).toContain('You are Jarvis');
  });

  it('renderPromptTemplate leaves unknown names and bare dollars alone', () => {
    expect(renderPromptTemplate('a ${x} ${y} $ $z', { x: '1' })).toBe('a 1 ${y} $ $z');
  });
});
