import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, dirname, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

// DESIGN §1.2: cli → (ui | acp | print) → engine → (tools, ext) → (llm, store, platform) → types.
// A module may import from its own layer or any layer of a lower rank; never upwards.
const RANK: Record<string, number> = { cli: 4, ui: 3, acp: 3, print: 3, engine: 2, tools: 1, ext: 1, plugins: 1, llm: 0, store: 0, platform: 0, types: -1 };
// plugins/ holds the bundled official plugins: separate programs (their own bundles, run as MCP servers
// from a managed copy) that may use platform/ and types/ code; nothing in the CLI may import them.
// Layers of equal rank must not import each other either (ui must not reach into print, tools not into ext…).
const SRC = resolve(__dirname, '../../src');

function* walk(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* walk(path);
    else if (/\.tsx?$/.test(name)) yield path;
  }
}

function layerOf(file: string): string | undefined {
  const rel = relative(SRC, file);
  if (rel.startsWith('..')) return undefined;
  return rel.split(sep)[0];
}

function upwardImportsOf(file: string, text: string): string[] {
  const problems: string[] = [];
  const importRe = /(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
  const from = layerOf(file);
  if (from && RANK[from] !== undefined) {
    for (const m of text.matchAll(importRe)) {
      const spec = m[1] ?? m[2];
      if (!spec.startsWith('.')) continue;
      const to = layerOf(resolve(dirname(file), spec));
      if (!to || to === from || RANK[to] === undefined) continue;
      if (RANK[to] >= RANK[from]) problems.push(`${relative(SRC, file)} (${from}) imports ${spec} (${to})`);
    }
  }
  return problems;
}

function upwardImports(files: Iterable<string>): string[] {
  return [...files].flatMap((file) => upwardImportsOf(file, readFileSync(file, 'utf8')));
}

describe('layering', () => {
  it('every folder under src/ is a known layer', () => {
    const unknown = readdirSync(SRC).filter((n) => statSync(join(SRC, n)).isDirectory() && RANK[n] === undefined);
    expect(unknown).toEqual([]);
  });

  it('no module imports from a layer above (or beside) it', () => {
    expect(upwardImports(walk(SRC))).toEqual([]);
  });

  it('nothing imports a bundled plugin: it is a separate program', () => {
    const importers = [...walk(SRC)].filter((file) => layerOf(file) !== 'plugins')
      .filter((file) => /from\s+['"][^'"]*\/plugins\/jarvis-|import\(\s*['"][^'"]*\/plugins\/jarvis-/.test(readFileSync(file, 'utf8')));
    expect(importers).toEqual([]);
  });

  it('the check itself catches an upward edge', () => {
    const fake = join(SRC, 'llm', '__fake__.ts');
    expect(upwardImportsOf(fake, "import { x } from '../engine/loop';")).toHaveLength(1);
    expect(upwardImportsOf(fake, "const m = await import('../cli/main');")).toHaveLength(1);
    expect(upwardImportsOf(fake, "import { y } from './types';")).toEqual([]);
    expect(upwardImportsOf(fake, "import type { ResolvedModel } from '../types/models';")).toEqual([]);
    expect(upwardImportsOf(join(SRC, 'types', '__fake__.ts'), "import { x } from '../store/paths';")).toHaveLength(1);
  });
});

