import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, dirname, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

// DESIGN §1.2: cli → (ui | acp | print) → engine → (tools, ext) → (llm, store, platform) → types.
// A module may import from its own layer or any layer of a lower rank; never upwards.
const RANK: Record<string, number> = {
  cli: 5,
  server: 4,
  ui: 3,
  acp: 3,
  print: 3,
  sdk: 3,
  engine: 2,
  tools: 1,
  ext: 1,
  plugins: 1,
  llm: 0,
  store: 0,
  platform: 0,
  types: -1,
};
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

// Inside src/engine/ (docs/architecture.md, each folder's README.md): code that runs flows down this order, so the
// journal core loads without the loop and the loop without what assembles it. Type-only imports are contracts and may
// point at any engine folder except runtime/, which nothing inside the engine may import. The journal's record types
// (session/records) and the front ends' event union (loop/events) are the shared vocabulary, importable from anywhere.
// Folders of equal rank must not import each other's code.
const ENGINE_RANK: Record<string, number> = {
  session: 0,
  policy: 1,
  context: 2,
  loop: 3,
  extensions: 4,
  background: 4,
  delegation: 5,
  tower: 6,
  runtime: 7,
};
const VOCABULARY = new Set(['session/records.ts', 'loop/events.ts']);
const ENGINE = join(SRC, 'engine');

function engineFolderOf(file: string): string | undefined {
  const rel = relative(ENGINE, file);
  if (rel.startsWith('..')) return undefined;
  const parts = rel.split(sep);
  return parts.length > 1 ? parts[0] : undefined;
}

function resolvedEngineFile(from: string, spec: string): string {
  const target = resolve(dirname(from), spec);
  return relative(ENGINE, /\.(ts|md)$/.test(target) ? target : `${target}.ts`)
    .split(sep)
    .join('/');
}

/** `import type {…}`, `export type {…}`, or named imports that are all `type X`. */
function isTypeOnly(clause: string): boolean {
  if (/^\s*(import|export)\s+type\b/.test(clause)) return true;
  const named = /\{([^}]*)\}/.exec(clause);
  if (!named || /^\s*(import|export)\s+[A-Za-z_$*]/.test(clause.replace(/^\s*(import|export)\s+\{/, '{'))) return false;
  const names = named[1]
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  return names.length > 0 && names.every((n) => n.startsWith('type '));
}

function innerEngineProblems(file: string, text: string): string[] {
  const from = engineFolderOf(file);
  if (!from || ENGINE_RANK[from] === undefined) return [];
  const problems: string[] = [];
  const importRe = /((?:import|export)\s[^'"]*?from\s+)['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
  for (const m of text.matchAll(importRe)) {
    const spec = m[2] ?? m[3];
    if (!spec.startsWith('.')) continue;
    const to = engineFolderOf(resolve(dirname(file), spec));
    if (!to || to === from) continue;
    const where = `${relative(SRC, file)} imports ${spec}`;
    if (ENGINE_RANK[to] === undefined) {
      problems.push(`${where}: engine/${to} is not a known engine folder`);
      continue;
    }
    if (VOCABULARY.has(resolvedEngineFile(file, spec))) continue;
    if (to === 'runtime') {
      problems.push(`${where}: nothing inside the engine may import runtime/`);
      continue;
    }
    if (m[1] !== undefined && isTypeOnly(m[1])) continue;
    if (ENGINE_RANK[to] >= ENGINE_RANK[from])
      problems.push(`${where}: engine/${from} may not run code of engine/${to}`);
  }
  return problems;
}

describe('layering', () => {
  it('every folder under src/ is a known layer', () => {
    const unknown = readdirSync(SRC).filter((n) => statSync(join(SRC, n)).isDirectory() && RANK[n] === undefined);
    expect(unknown).toEqual([]);
  });

  it('no module imports from a layer above (or beside) it', () => {
    expect(upwardImports(walk(SRC))).toEqual([]);
  });

  it('inside the engine, code flows down the folder order (docs/architecture.md)', () => {
    const folders = readdirSync(ENGINE).filter((n) => statSync(join(ENGINE, n)).isDirectory());
    expect(folders.filter((n) => ENGINE_RANK[n] === undefined)).toEqual([]);
    expect(readdirSync(ENGINE).filter((n) => /\.tsx?$/.test(n))).toEqual([]);
    expect(folders.filter((n) => !statSync(join(ENGINE, n, 'README.md'), { throwIfNoEntry: false }))).toEqual([]);
    const files = [...walk(ENGINE)];
    expect(files.flatMap((file) => innerEngineProblems(file, readFileSync(file, 'utf8')))).toEqual([]);
  });

  it('the inner check rejects a wrong engine import and lets contracts through', () => {
    const loop = join(ENGINE, 'loop', 'loop.ts');
    expect(innerEngineProblems(loop, "import { AgentDirectory } from '../delegation/agents';")).toHaveLength(1);
    expect(
      innerEngineProblems(loop, "import { type AgentDirectory, spawn } from '../delegation/agents';"),
    ).toHaveLength(1);
    expect(innerEngineProblems(loop, "const m = await import('../background/cronScheduler');")).toHaveLength(1);
    expect(innerEngineProblems(loop, "import type { Runtime } from '../runtime/runtime';")).toHaveLength(1);
    expect(
      innerEngineProblems(join(ENGINE, 'session', 'session.ts'), "import { approve } from '../policy/approvals';"),
    ).toHaveLength(1);
    expect(
      innerEngineProblems(join(ENGINE, 'background', 'goals.ts'), "import { x } from '../extensions/hookGate';"),
    ).toHaveLength(1);
    expect(innerEngineProblems(loop, "import type { AgentDirectory } from '../delegation/agents';")).toEqual([]);
    expect(innerEngineProblems(loop, "import { type AgentDirectory } from '../delegation/agents';")).toEqual([]);
    expect(innerEngineProblems(loop, "import { decideApproval } from '../policy/approvals';")).toEqual([]);
    expect(
      innerEngineProblems(join(ENGINE, 'session', 'session.ts'), "import { MAIN_AGENT_ID } from '../loop/events';"),
    ).toEqual([]);
    expect(
      innerEngineProblems(
        join(ENGINE, 'runtime', 'runtime.ts'),
        "import { AgentDirectory } from '../delegation/agents';",
      ),
    ).toEqual([]);
  });

  it('nothing imports a bundled plugin: it is a separate program', () => {
    const importers = [...walk(SRC)]
      .filter((file) => layerOf(file) !== 'plugins')
      .filter((file) =>
        /from\s+['"][^'"]*\/plugins\/jarvis-|import\(\s*['"][^'"]*\/plugins\/jarvis-/.test(readFileSync(file, 'utf8')),
      );
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
