// A real Bash parser: tree-sitter's Bash grammar run as WebAssembly (web-tree-sitter with the .wasm
// that the tree-sitter-bash package ships), so nothing is compiled or downloaded at install time.
// Loading costs a few hundred milliseconds, so it happens on the first Bash line that needs more than
// word splitting, never on the start path; the one load is shared by every caller.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import type { Node as SyntaxNode } from 'web-tree-sitter';

export type { SyntaxNode };

export interface BashParser {
  /** Parses `text` and hands the root to `use`; the tree lives in WASM memory and is freed after. */
  parse<T>(text: string, use: (root: SyntaxNode) => T): T;
}

let loading: Promise<BashParser> | undefined;

export function loadBashParser(): Promise<BashParser> {
  loading ??= load().catch((err: unknown) => {
    loading = undefined;
    const why = err instanceof Error ? err.message : String(err);
    throw new Error(
      `could not load the Bash parser (web-tree-sitter, tree-sitter-bash): ${why}. Reinstall with npm ci.`,
    );
  });
  return loading;
}

/**
 * The bundle carries both .wasm files in dist/wasm/ (scripts/build.mjs copies them; the code may sit in
 * dist/ or dist/chunks/); a checkout running the sources finds them in node_modules.
 */
function wasmFile(packagePath: string): string {
  const name = packagePath.slice(packagePath.lastIndexOf('/') + 1);
  for (const dir of ['./wasm/', '../wasm/']) {
    const bundled = fileURLToPath(new URL(dir + name, import.meta.url));
    if (existsSync(bundled)) return bundled;
  }
  return createRequire(import.meta.url).resolve(packagePath);
}

/**
 * Compiles with V8's baseline compiler only. Left to itself V8 then recompiles the grammar's huge lexer
 * with its optimising compiler in the background: about 1.5 s of CPU right after the first Bash call,
 * which on a busy machine slows the turn that is running. Baseline code parses a 2 KB line in a few
 * milliseconds (bench/bashParser.bench.mjs), so the optimised code is not worth its cost here. The flag
 * is read when a module is compiled and is restored at once, so other WebAssembly is not affected.
 */
async function compiledWithBaselineOnly<T>(compile: () => Promise<T>): Promise<T> {
  setFlagsFromString('--liftoff-only');
  try {
    return await compile();
  } finally {
    setFlagsFromString('--no-liftoff-only');
  }
}

async function load(): Promise<BashParser> {
  const { Parser, Language } = await import('web-tree-sitter');
  const runtime = wasmFile('web-tree-sitter/tree-sitter.wasm');
  const language = await compiledWithBaselineOnly(async () => {
    await Parser.init({ locateFile: () => runtime });
    return Language.load(wasmFile('tree-sitter-bash/tree-sitter-bash.wasm'));
  });
  const parser = new Parser();
  parser.setLanguage(language);
  return {
    parse(text, use) {
      const tree = parser.parse(text);
      if (!tree) throw new Error('the Bash parser returned no tree');
      try {
        return use(tree.rootNode);
      } finally {
        tree.delete();
      }
    },
  };
}
