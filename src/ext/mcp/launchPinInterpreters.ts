// How a checked script runs as the bytes that were checked (launchPin.ts; docs/mcp.md, "Workspace trust"). The copy
// lives in a private folder (0700, files read-only) that no sandboxed command can reach, and is removed when the
// server exits; the script keeps its own path, so its imports, `__file__`, `import.meta.url` and `$0` are as before:
// - node: `--import` a preload that hands the checked text to the CommonJS loader for that one file and registers a
//   module hook serving it to the ES module loader (`--preserve-symlinks-main` keeps the main module's path as
//   given, so a symlink swapped afterwards cannot point the loader elsewhere);
// - python: `-c` a bootstrap that compiles the checked text under the script's name, with the script's folder first
//   on sys.path;
// - bash, sh, dash, zsh, ksh: `-c` the checked text, with the script's path as `$0`;
// - a workspace binary (no `#!` line): the private copy runs instead.
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export interface PinnedCommand {
  command: string;
  args: string[];
  /** Removes the private copy (call once the server has exited). */
  cleanup(): void;
}

type Family = 'node' | 'python' | 'shell';

const FAMILIES: Array<[Family, RegExp]> = [
  ['node', /^(?:node|nodejs)$/],
  ['python', /^python(?:\d+(?:\.\d+)?)?$/],
  ['shell', /^(?:bash|sh|dash|zsh|ksh)$/],
];
/** Options taking a value (the next word), per family; and options after which there is no script to pin. */
const VALUE_OPTIONS: Record<Family, Set<string>> = {
  node: new Set(['-r', '--require', '--import', '--loader', '--experimental-loader', '-C', '--conditions', '--title']),
  python: new Set(['-W', '-X', '-Q']),
  shell: new Set(['-o', '+o', '-O', '+O']),
};
const NO_SCRIPT: Record<Family, RegExp> = {
  node: /^(?:-e|--eval|-p|--print|-i|--interactive|--test|--)$/,
  python: /^-[a-zA-Z]*[cm]$/,
  shell: /^-[a-zA-Z]*[cs]$/,
};

const familyOf = (name: string) => FAMILIES.find(([, re]) => re.test(name))?.[0];

/** `#!/usr/bin/env node`, `#!/usr/bin/env -S node --x`, `#!/bin/bash -e`: the interpreter and its arguments. */
function shebang(bytes: Buffer): string[] | undefined {
  const text = bytes.subarray(0, 256).toString('utf8');
  if (!text.startsWith('#!')) return undefined;
  const words = text.slice(2).split('\n')[0].trim().split(/\s+/).filter(Boolean);
  if (basename(words[0] ?? '') === 'env') return words.slice(words[1] === '-S' ? 2 : 1);
  return words;
}

function privateFolder(): { dir: string; put(name: string, data: string | Buffer, mode?: number): string } {
  const dir = mkdtempSync(join(tmpdir(), 'jarvis-mcp-pin-'));
  return {
    dir,
    put(name, data, mode = 0o400) {
      const path = join(dir, name);
      writeFileSync(path, data, { mode: 0o600 });
      chmodSync(path, mode);
      return path;
    },
  };
}

const HOOKS = `import { readFileSync } from 'node:fs';
let main;
let source;
export function initialize(data) {
  main = data.main;
  source = readFileSync(data.pinned);
}
export async function load(url, context, nextLoad) {
  if (url !== main) return nextLoad(url, context);
  const loaded = await nextLoad(url, context);
  // An ES module, or CommonJS text the loader would compile itself: the checked bytes instead of the disk's.
  if (loaded.format === 'module' || loaded.source != null) return { ...loaded, source, shortCircuit: true };
  return loaded;
}
`;

function nodePreload(main: string, pinned: string, hooks: string): string {
  return `import Module, { register } from 'node:module';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
const main = ${JSON.stringify(main)};
const source = readFileSync(${JSON.stringify(pinned)}, 'utf8');
for (const ext of ['.js', '.cjs'].filter((e) => typeof Module._extensions[e] === 'function')) {
  const compile = Module._extensions[ext];
  Module._extensions[ext] = function (module, filename) {
    if (filename === main) return module._compile(source, filename);
    return compile(module, filename);
  };
}
register(${JSON.stringify(pathToFileURL(hooks).href)}, import.meta.url, {
  data: { main: pathToFileURL(main).href, pinned: ${JSON.stringify(pinned)} },
});
`;
}

const PYTHON_BOOTSTRAP = [
  'import sys, os.path',
  'pinned, sys.argv = sys.argv[1], sys.argv[2:]',
  'sys.path[0] = os.path.dirname(os.path.abspath(sys.argv[0]))',
  "code = compile(open(pinned, 'rb').read(), sys.argv[0], 'exec')",
  "exec(code, {'__name__': '__main__', '__file__': sys.argv[0], '__builtins__': __builtins__})",
].join('\n');

function pinScript(
  family: Family,
  interpreter: string,
  options: readonly string[],
  script: string,
  scriptArgs: readonly string[],
  bytes: Buffer,
): PinnedCommand {
  const folder = privateFolder();
  const cleanup = () => rmSync(folder.dir, { recursive: true, force: true });
  const copy = folder.put(basename(script), bytes);
  if (family === 'node') {
    const hooks = folder.put('jarvis-pin-hooks.mjs', HOOKS);
    const preload = folder.put('jarvis-pin.mjs', nodePreload(script, copy, hooks));
    const flags = ['--preserve-symlinks-main', '--import', pathToFileURL(preload).href];
    return { command: interpreter, args: [...flags, ...options, script, ...scriptArgs], cleanup };
  }
  if (family === 'python')
    return { command: interpreter, args: [...options, '-c', PYTHON_BOOTSTRAP, copy, script, ...scriptArgs], cleanup };
  return { command: interpreter, args: [...options, '-c', bytes.toString('utf8'), script, ...scriptArgs], cleanup };
}

/** The index in `args` of the script `family`'s interpreter would run, or -1 (inline code, a module, stdin). */
function scriptIndex(family: Family, args: readonly string[]): number {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (NO_SCRIPT[family].test(a)) return -1;
    if (VALUE_OPTIONS[family].has(a)) i++;
    else if (!a.startsWith('-') && !(family === 'shell' && a.startsWith('+'))) return i;
  }
  return -1;
}

/**
 * The command running the checked bytes of the server's script or program, or undefined when this program is no
 * interpreter known here (the server then starts as configured, after the check).
 */
export function pinnedInterpreterCommand(opts: {
  /** The program as it resolves (a path, or found on PATH). */
  program?: string;
  programName: string;
  args: readonly string[];
  cwd: string;
  bytes: ReadonlyMap<string, Buffer>;
}): PinnedCommand | undefined {
  const own = opts.program !== undefined ? opts.bytes.get(opts.program) : undefined;
  if (opts.program !== undefined && own) {
    const line = shebang(own);
    if (!line) {
      const folder = privateFolder();
      const copy = folder.put(basename(opts.program), own, 0o500);
      return {
        command: copy,
        args: [...opts.args],
        cleanup: () => rmSync(folder.dir, { recursive: true, force: true }),
      };
    }
    const family = familyOf(basename(line[0]));
    if (!family) return undefined;
    return pinScript(family, line[0], line.slice(1), opts.program, opts.args, own);
  }
  const family = familyOf(opts.programName);
  if (!family) return undefined;
  const at = scriptIndex(family, opts.args);
  const script = at >= 0 ? resolve(opts.cwd, opts.args[at]) : undefined;
  const bytes = script !== undefined ? opts.bytes.get(script) : undefined;
  if (script === undefined || !bytes) return undefined;
  const interpreter = opts.program ?? opts.programName;
  return pinScript(family, interpreter, opts.args.slice(0, at), script, opts.args.slice(at + 1), bytes);
}
