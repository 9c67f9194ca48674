// Mission scopes (docs/tower.md "Scopes"): globs relative to the repository root. Two build missions
// may not share a file, so TowerPlan rejects a plan whose build scopes overlap, and TowerMerge
// refuses a branch that changed a file outside its mission's scope.
//
// Whether two globs can match a common path is decided on evidence: a path that matches both — any
// file the repository tracks, or a sample path made from either glob (each wildcard filled in, each
// `{a,b}` alternative tried) — or one glob's literal folder containing the other's whole tree.
import picomatch from 'picomatch';

const OPTIONS = { dot: true } as const;

/** A scope glob in its canonical form; throws an actionable error for one that cannot be a scope. */
export function normaliseScope(glob: string): string {
  let g = glob.trim().replace(/\\/g, '/');
  while (g.startsWith('./')) g = g.slice(2);
  if (!g) throw new Error('a scope glob is empty; give paths relative to the repository root, like "src/api/**"');
  if (g.startsWith('/') || /^[A-Za-z]:/.test(g))
    throw new Error(`scope "${glob}" is absolute; give it relative to the repository root, like "src/api/**"`);
  if (g.split('/').includes('..')) throw new Error(`scope "${glob}" leaves the repository ("..")`);
  if (g.endsWith('/')) g += '**';
  return g;
}

export function inScope(path: string, scope: readonly string[]): boolean {
  return scope.some((glob) => picomatch.isMatch(path, glob, OPTIONS));
}

/** `{a,b}` alternatives expanded (nested braces are expanded one level at a time). */
function expandBraces(glob: string): string[] {
  const m = /\{([^{}]*)\}/.exec(glob);
  if (!m) return [glob];
  return m[1]!
    .split(',')
    .flatMap((alt) => expandBraces(glob.slice(0, m.index) + alt + glob.slice(m.index + m[0].length)));
}

/** Concrete paths a glob matches: wildcards filled with a plain name, with and without optional folders. */
function samplePaths(glob: string, folders: readonly string[] = []): string[] {
  const out = new Set<string>();
  for (const g of expandBraces(glob)) {
    const classless = g.replace(/\[[^\]]*\]/g, 'x');
    for (const globstar of ['', 'sample/', ...folders.map((f) => `${f}/`)]) {
      out.add(
        classless
          .replace(/\*\*\//g, globstar)
          .replace(/\/\*\*$/g, '/sample')
          .replace(/\*\*/g, 'sample')
          .replace(/\*/g, 'sample')
          .replace(/\?/g, 'x'),
      );
    }
  }
  return [...out];
}

/** The literal folder a glob starts with (`src/api` for `src/api/**\/*.ts`), '' for none. */
function literalBase(glob: string): string {
  const parts = glob.split('/');
  const literal: string[] = [];
  for (const part of parts.slice(0, -1)) {
    if (/[*?[\]{}()!+@]/.test(part)) break;
    literal.push(part);
  }
  return literal.join('/');
}

/** A glob that matches everything below its literal folder (`src/**`, `src/`). */
function coversTree(glob: string): boolean {
  const base = literalBase(glob);
  return glob === (base ? `${base}/**` : '**') || glob === (base ? `${base}/**/*` : '**/*');
}

/** A path both globs match, or undefined when none was found (the globs are then treated as disjoint). */
export function overlapWitness(a: string, b: string, repoFiles: readonly string[] = []): string | undefined {
  if (a === b) return a;
  for (const [x, y] of [
    [a, b],
    [b, a],
  ] as const) {
    if (coversTree(x)) {
      const base = literalBase(x);
      const yBase = literalBase(y);
      if (!base || yBase === base || yBase.startsWith(`${base}/`))
        return `${yBase || '.'}/… (${x} holds the whole folder)`;
    }
  }
  for (const [x, y] of [
    [a, b],
    [b, a],
  ] as const) {
    // `**` in x may stand for y's literal folder: `**/*.ts` reaches into `src/api/**`.
    const yBase = literalBase(y);
    const xBase = literalBase(x);
    const deeper =
      yBase && (!xBase || yBase.startsWith(`${xBase}/`)) ? [xBase ? yBase.slice(xBase.length + 1) : yBase] : [];
    for (const sample of samplePaths(x, deeper)) if (picomatch.isMatch(sample, y, OPTIONS)) return sample;
  }
  return repoFiles.find((f) => picomatch.isMatch(f, a, OPTIONS) && picomatch.isMatch(f, b, OPTIONS));
}

export interface ScopedMission {
  id: string;
  kind: string;
  scope: readonly string[];
}

/** Every overlap between the scopes of two build missions, in words; empty when the plan is sound. */
export function scopeOverlaps(missions: readonly ScopedMission[], repoFiles: readonly string[] = []): string[] {
  const builds = missions.filter((m) => m.kind === 'build');
  const problems: string[] = [];
  for (let i = 0; i < builds.length; i++) {
    for (let j = i + 1; j < builds.length; j++) {
      const [m, n] = [builds[i]!, builds[j]!];
      for (const a of m.scope) {
        for (const b of n.scope) {
          const witness = overlapWitness(a, b, repoFiles);
          if (witness) problems.push(`"${m.id}" (${a}) and "${n.id}" (${b}) can both change ${witness}`);
        }
      }
    }
  }
  return problems;
}
