// The files a project MCP server is started with (docs/mcp.md, "Workspace trust"): its program when that is a file
// inside the workspace (a path, or a bare name PATH finds there, as in `node_modules/.bin`), and each argument that
// names a file inside the workspace (`tools/server.mjs`, `--config=./mcp.toml`). Trust records their SHA-256 next
// to the MCP file's, and the server starts only with exactly those bytes (ext/mcp/launchPin.ts). What those files
// load in turn (imported modules, `node_modules`) is not among them: docs/mcp.md says so.
import { createHash } from 'node:crypto';
import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import { delimiter, isAbsolute, relative, resolve } from 'node:path';
import { readRegular } from './regularFile';

export interface LaunchFile {
  path: string;
  digest: string;
}

export function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function inside(path: string, roots: readonly string[]): boolean {
  const real = (() => {
    try {
      return realpathSync(path);
    } catch {
      return path;
    }
  })();
  return roots.some((root) =>
    [path, real].some((p) => {
      const rel = relative(root, p);
      return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
    }),
  );
}

/** Where `command` runs from: a path as given (against `cwd`), or the first executable of that name on PATH. */
export function resolveProgram(command: string, cwd: string, path: string | undefined): string | undefined {
  if (command.includes('/')) return resolve(cwd, command);
  for (const dir of (path ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = resolve(cwd, dir, command);
    try {
      accessSync(candidate, constants.X_OK);
      if (isFile(candidate)) return candidate;
    } catch {
      // not here: the next PATH entry
    }
  }
  return undefined;
}

export interface LaunchSpec {
  command?: string;
  args: readonly string[];
  /** The folder it starts in (relative arguments are read from there). */
  cwd: string;
  /** PATH as the server gets it. */
  path: string | undefined;
}

/** The absolute paths of the files `spec` starts with that lie inside `roots` (the workspace), in order. */
export function launchPaths(spec: LaunchSpec, roots: readonly string[]): string[] {
  const found: string[] = [];
  const add = (candidate: string | undefined) => {
    if (candidate && isFile(candidate) && inside(candidate, roots) && !found.includes(candidate)) found.push(candidate);
  };
  if (spec.command) add(resolveProgram(spec.command, spec.cwd, spec.path));
  for (const arg of spec.args) {
    // `path`, or the value of `--option=path`; a bare option names no file.
    if (arg.startsWith('-') && !arg.includes('=')) continue;
    const value = arg.startsWith('-') ? arg.slice(arg.indexOf('=') + 1) : arg;
    if (value) add(resolve(spec.cwd, value));
  }
  return found;
}

/** The bytes of `path` if it is a regular file, from one read (regularFile.ts); undefined otherwise. */
export function readRegularFile(path: string): Buffer | undefined {
  const read = readRegular(path);
  return 'bytes' in read ? read.bytes : undefined;
}

/** Each file read once: its digest, or undefined for one that cannot be read (then nothing is approved). */
export function digestFiles(paths: readonly string[]): LaunchFile[] | undefined {
  const files: LaunchFile[] = [];
  for (const path of paths) {
    const bytes = readRegularFile(path);
    if (!bytes) return undefined;
    files.push({ path, digest: sha256(bytes) });
  }
  return files;
}
