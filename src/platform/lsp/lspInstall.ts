// What makes an installed language server unusable before it runs (docs/lsp.md, "When a server cannot run"): a package
// whose `engines.node` the Node that would run it does not meet (typescript-language-server 6 needs Node 22), and for
// typescript, a TypeScript without lib/tsserver.js (TypeScript 7 is a native program the server cannot drive). Found
// by reading files, so the notice, the edit's result and `jarvis doctor` can give the exact fix.
import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, readSync, realpathSync } from 'node:fs';
import { basename, delimiter, dirname, join } from 'node:path';
import { satisfiesRange } from './nodeRange';

export interface InstallProblem {
  /** What is wrong, naming the package, its version and where it is. */
  problem: string;
  /** The command or setting that fixes it. */
  fix: string;
}

export type InstallCheck = { ok: true; tsserver?: string } | ({ ok: false } & InstallProblem);

interface PackageInfo {
  dir: string;
  name?: string;
  version?: string;
  engines?: { node?: unknown };
}

function readPackage(dir: string): PackageInfo | undefined {
  try {
    const json = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Omit<PackageInfo, 'dir'>;
    return json && typeof json === 'object' ? { ...json, dir } : undefined;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR' || e instanceof SyntaxError) return undefined;
    throw e;
  }
}

/** The real path of `path`, or `path` itself when it cannot be resolved (gone, a dangling link). */
export function realpathOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** The npm package a program file belongs to: the nearest package.json above it, not past a node_modules folder. */
export function packageOf(program: string): PackageInfo | undefined {
  for (let dir = dirname(realpathOr(program)); ; dir = dirname(dir)) {
    const found = readPackage(dir);
    if (found?.name) return found;
    if (basename(dirname(dir)) === 'node_modules' || dirname(dir) === dir) return undefined;
  }
}

/** The interpreter a script's `#!` line names when it is Node (`#!/usr/bin/env node`, `#!/opt/node/bin/node`). */
function nodeOfShebang(program: string, env: NodeJS.ProcessEnv): string | undefined {
  const head = Buffer.alloc(256);
  let read = 0;
  const fd = openSync(realpathOr(program), 'r');
  try {
    read = readSync(fd, head, 0, head.length, 0);
  } finally {
    closeSync(fd);
  }
  const line = head.subarray(0, read).toString('utf8').split('\n')[0];
  const match = /^#!\s*(\S+)(?:\s+(\S+))?/.exec(line);
  if (!match) return undefined;
  const [, interpreter, firstArg] = match;
  if (basename(interpreter) === 'env' && firstArg === 'node') {
    for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean))
      if (existsSync(join(dir, 'node'))) return join(dir, 'node');
    return undefined;
  }
  return basename(interpreter) === 'node' ? interpreter : undefined;
}

/**
 * The version of the Node at `node`: this process's when it is the same program, else asked (bounded), but never of a
 * program a command could have written (`mayRun`): then unknown.
 */
function nodeVersion(node: string, mayRun: (file: string) => boolean): string | undefined {
  if (realpathOr(node) === realpathOr(process.execPath)) return process.versions.node;
  if (!mayRun(node)) return undefined;
  try {
    return execFileSync(node, ['--version'], { encoding: 'utf8', timeout: 5_000, stdio: ['ignore', 'pipe', 'ignore'] })
      .trim()
      .replace(/^v/, '');
  } catch {
    // A node that does not run cannot run the server either; its start says so with the server's own output.
    return undefined;
  }
}

/** `engines.node` of the program's package against the Node that would run it; undefined when met or unknown. */
function nodeProblem(
  program: string,
  env: NodeJS.ProcessEnv,
  install: string | undefined,
  mayRun: (file: string) => boolean,
): InstallProblem | undefined {
  const pkg = packageOf(program);
  const wanted = pkg?.engines?.node;
  if (!pkg || typeof wanted !== 'string') return undefined;
  const node = nodeOfShebang(program, env);
  const version = node && nodeVersion(node, mayRun);
  if (!node || !version || satisfiesRange(version, wanted) !== false) return undefined;
  return {
    problem:
      `${pkg.name}${pkg.version ? ` ${pkg.version}` : ''} (${pkg.dir}) needs Node ${wanted}, ` +
      `and the node that would run it (${node}) is ${version}`,
    fix:
      `${install ? `install a version for this Node: ${install}` : 'install a version of it that supports this Node'}` +
      `, or put a Node that meets ${wanted} first on PATH`,
  };
}

/** The folder of a TypeScript package found from `start` upwards (`node_modules/typescript`), as Node would. */
function typescriptFrom(start: string): PackageInfo | undefined {
  for (let dir = start; ; dir = dirname(dir)) {
    const found = readPackage(join(dir, 'node_modules', 'typescript'));
    if (found) return found;
    if (dirname(dir) === dir) return undefined;
  }
}

const hasTsserver = (pkg: PackageInfo) => existsSync(join(pkg.dir, 'lib', 'tsserver.js'));

/**
 * The tsserver typescript-language-server will drive, chosen as it does: the project's TypeScript (from the root
 * upwards) when `projectAllowed` and it has lib/tsserver.js, else the one installed beside the server.
 */
function typescriptCheck(
  program: string,
  root: string,
  install: string | undefined,
  projectAllowed: (dir: string) => boolean,
): InstallCheck {
  const project = typescriptFrom(root);
  if (project && hasTsserver(project) && projectAllowed(project.dir))
    return { ok: true, tsserver: join(project.dir, 'lib', 'tsserver.js') };
  const beside = typescriptFrom(dirname(realpathOr(program)));
  if (beside && hasTsserver(beside)) return { ok: true, tsserver: join(beside.dir, 'lib', 'tsserver.js') };
  const fix = install ?? 'install typescript-language-server 5 with TypeScript 5';
  if (beside)
    return {
      ok: false,
      problem:
        `the TypeScript beside ${program} (${beside.dir}, version ${beside.version ?? 'unknown'}) has no ` +
        'lib/tsserver.js: TypeScript 7 and later are a native program that typescript-language-server cannot drive',
      fix,
    };
  return { ok: false, problem: `no TypeScript with lib/tsserver.js is installed beside ${program}`, fix };
}

/** typescript-language-server (other TypeScript servers, such as TypeScript 7's own, bring what they need). */
function drivesTsserver(program: string): boolean {
  return (
    basename(program) === 'typescript-language-server' || packageOf(program)?.name === 'typescript-language-server'
  );
}

/**
 * Whether the server program found for `serverName` can run here; for typescript also the tsserver it should use.
 * `projectAllowed` says whether code from a project folder may be run (docs/lsp.md, "Where servers run").
 */
export function checkInstall(
  serverName: string,
  program: string,
  root: string,
  env: NodeJS.ProcessEnv,
  opts: {
    install?: string;
    configuredTsserver: boolean;
    projectAllowed: (dir: string) => boolean;
    /** Whether a program outside the sandbox may be run to ask its version (not one a command could write). */
    mayRun: (file: string) => boolean;
  },
): InstallCheck {
  const node = nodeProblem(program, env, opts.install, opts.mayRun);
  if (node) return { ok: false, ...node };
  if (serverName !== 'typescript' || opts.configuredTsserver || !drivesTsserver(program)) return { ok: true };
  return typescriptCheck(program, root, opts.install, opts.projectAllowed);
}
