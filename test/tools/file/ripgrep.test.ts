// The ripgrep locator (packaged → PATH → JARVIS_RG_PATH) and Grep parity between ripgrep binaries.
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  locateRipgrep,
  RipgrepNotFoundError,
  ripgrepOnPath,
  type RipgrepLocation,
} from '../../../src/platform/ripgrep';
import type { Tool } from '../../../src/tools/defineTool';
import { createGrepTool } from '../../../src/tools/file';
import { requireSystemPart } from '../../helpers/requireAll';
import { makeToolHarness } from '../../helpers/toolHarness';
import { ageInOrder, writeTree } from './fileTree';

const emptyEnv = { PATH: '' };

async function packaged(): Promise<string> {
  return (await locateRipgrep({ sources: ['packaged'], env: emptyEnv })).path;
}

/** A folder holding only an `rg` link to the packaged binary: a PATH install stand-in. */
async function binDirWithRg(): Promise<string> {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'jarvis-rgbin-')));
  symlinkSync(await packaged(), join(dir, 'rg'));
  return dir;
}

describe('locateRipgrep', () => {
  it('finds the packaged @vscode/ripgrep binary first', async () => {
    const found = await locateRipgrep({ env: emptyEnv });
    expect(found.source).toBe('packaged');
    expect(found.path).toMatch(/@vscode[\\/]ripgrep-[^\\/]+[\\/]bin[\\/]rg(\.exe)?$/);
  });

  it('falls back to rg on PATH', async () => {
    const dir = await binDirWithRg();
    const found = await locateRipgrep({ sources: ['path', 'env'], env: { PATH: `/nonexistent:${dir}` } });
    expect(found).toEqual({ path: join(dir, 'rg'), source: 'path' });
  });

  it('skips a non-executable rg on PATH', () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'jarvis-rgbin-')));
    writeFileSync(join(dir, 'rg'), 'not a program');
    chmodSync(join(dir, 'rg'), 0o644);
    expect(ripgrepOnPath(dir)).toBeUndefined();
  });

  it('then to JARVIS_RG_PATH', async () => {
    const rg = await packaged();
    expect(await locateRipgrep({ sources: ['path', 'env'], env: { PATH: '', JARVIS_RG_PATH: rg } })).toEqual({
      path: rg,
      source: 'env',
    });
  });

  it('rejects a JARVIS_RG_PATH that is not an executable file', async () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'jarvis-rgbin-')));
    mkdirSync(join(dir, 'rg'));
    await expect(locateRipgrep({ sources: ['env'], env: { JARVIS_RG_PATH: join(dir, 'rg') } })).rejects.toThrow(
      /JARVIS_RG_PATH is set to .* not an executable file/,
    );
  });

  it('fails with a message that says how to fix it when no source has rg', async () => {
    const failure = locateRipgrep({ sources: ['path', 'env'], env: emptyEnv });
    await expect(failure).rejects.toBeInstanceOf(RipgrepNotFoundError);
    await expect(failure).rejects.toThrow(/Install ripgrep .* or set JARVIS_RG_PATH/);
  });
});

/** Every Grep mode over one tree; two binaries must give the same text for each. */
async function grepTranscript(tool: Tool): Promise<string[]> {
  const h = makeToolHarness();
  writeTree(h.cwd, {
    '.gitignore': 'build/\n',
    'src/a.ts': 'export const alpha = 1;\nconst beta = alpha + 1;\n',
    'src/b.tsx': 'import { alpha } from "./a";\nexport const Beta = () => alpha;\n',
    'lib/c.py': 'ALPHA = 1\nbeta = ALPHA\n',
    'build/out.js': 'alpha\n',
    '.env': 'alpha=secret\n',
    '.env.example': 'alpha=\n',
  });
  ageInOrder(h.cwd, ['src/a.ts', 'src/b.tsx', 'lib/c.py', 'build/out.js', '.env.example']);
  const calls: Record<string, unknown>[] = [
    { pattern: 'alpha' },
    { pattern: 'alpha', '-i': true, include_ignored: true },
    { pattern: 'alpha', output_mode: 'content', '-C': 1 },
    { pattern: 'beta', output_mode: 'count_matches', '-i': true },
    { pattern: 'alpha', type: 'ts', output_mode: 'content', '-n': false },
    { pattern: 'const.*\\n.*alpha', multiline: true, output_mode: 'content' },
    { pattern: 'a', glob: '*.{ts,tsx}', offset: 1, head_limit: 1 },
  ];
  const out: string[] = [];
  for (const args of calls) out.push((await h.run(tool, args)).text);
  return out;
}

const viaLocation = (location: () => Promise<RipgrepLocation>) => createGrepTool({ locate: location });

describe('Grep through different ripgrep binaries', () => {
  it('gives identical results through the packaged rg and the same rg found on PATH', async () => {
    const dir = await binDirWithRg();
    const fromPackage = await grepTranscript(viaLocation(() => locateRipgrep({ sources: ['packaged'] })));
    const fromPath = await grepTranscript(viaLocation(() => locateRipgrep({ sources: ['path'], env: { PATH: dir } })));
    expect(fromPath).toEqual(fromPackage);
    expect(fromPackage[0]).toContain('src/a.ts');
  });

  it('gives identical results through the packaged rg and the system rg on PATH', async (ctx) => {
    if (!requireSystemPart('rg', 'Grep parity between the packaged ripgrep and a system ripgrep')) {
      ctx.skip();
      return;
    }
    const fromPackage = await grepTranscript(viaLocation(() => locateRipgrep({ sources: ['packaged'] })));
    const fromSystem = await grepTranscript(viaLocation(() => locateRipgrep({ sources: ['path'] })));
    expect(fromSystem).toEqual(fromPackage);
  });
});
