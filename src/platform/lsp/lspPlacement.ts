// Where a language server's program comes from and how it starts (docs/lsp.md, "Where servers run"). Where the
// sandbox runs, a server starts inside it (read-only file system, no network), so a program a command planted in the
// workspace cannot act outside. Where none runs, a server starts as it is, but only from places commands cannot
// write: a program (or a project TypeScript) inside the workspace's writable folders is never run, and those folders
// are left out of the server's PATH.
import { delimiter, dirname, join, sep } from 'node:path';
import { packageOf, realpathOr as real } from './lspInstall';
import type { SandboxChannels } from '../sandbox/sandboxChannels';
import { locateServer, type LspServerConfig } from './lspServers';

/**
 * What starts a server confined: `file args` with `env` instead of the program, handed the sandbox's channels (the
 * seccomp filter: platform/sandbox/sandboxChannels.ts) as a command is.
 */
export interface ServerSpawn extends SandboxChannels {
  file: string;
  args: readonly string[];
  env: NodeJS.ProcessEnv;
}

/** Starts a server's program inside the sandbox. */
export interface ServerSandbox {
  /**
   * `root`: the server's workspace root (read-only inside); `readable`: folders outside the workspace the server must
   * read even where the sandbox hides them (its package, its TypeScript). Built when the server starts, from the
   * session's policy as it is then (the secret files found so far).
   */
  spawn(
    program: string,
    args: readonly string[],
    root: string,
    readable: readonly string[],
    env: NodeJS.ProcessEnv,
  ): Promise<ServerSpawn>;
}

export type ServerPlacement =
  | {
      ok: true;
      /** The server's program as found (a link is kept: some programs, like rustup's proxies, go by their name). */
      program: string;
      /** Whether code in `dir` may run in this server (everything, when sandboxed). */
      allowed(dir: string): boolean;
      /** Whether a command could have written `path` (it is inside the session's writable folders). */
      writableByCommands(path: string): boolean;
      /** The folders the sandboxed server must be able to read (its package and its tsserver's). */
      readable(tsserver?: string): string[];
      /** The environment it starts with (outside the sandbox, PATH without writable folders). */
      env: NodeJS.ProcessEnv;
    }
  /** `why`: what is wrong and how to fix it, as a clause ("no typescript language server is installed: …"). */
  | { ok: false; why: string };

const inside = (path: string, folder: string) =>
  path === folder || path.startsWith(folder.endsWith(sep) ? folder : folder + sep);

export function serverPlacement(
  name: string,
  config: LspServerConfig,
  root: string,
  opts: {
    cwd: string;
    env: NodeJS.ProcessEnv;
    sandbox: ServerSandbox | undefined;
    writableRoots: readonly string[];
  },
): ServerPlacement {
  const writable = opts.writableRoots.map(real);
  const writableByCommands = (path: string) => writable.some((w) => inside(real(path), w));
  const allowed = opts.sandbox ? () => true : (path: string) => !writableByCommands(path);
  const env = opts.sandbox ? opts.env : { ...opts.env, PATH: outsideWritable(opts.env.PATH, writableByCommands) };
  const found = locateServer(config.command, root, opts.cwd, env, allowed);
  const how = `${config.install ? ` Install it with: ${config.install}` : ''} (or set [lsp.servers.${name}] command; docs/lsp.md)`;
  if (!found) {
    const planted = !opts.sandbox && locateServer(config.command, root, opts.cwd, opts.env);
    if (planted)
      return {
        ok: false,
        why:
          `the ${name} language server was found only at ${planted}, inside a folder commands can write, and no ` +
          `sandbox runs here to confine it, so it is not run.${how}`,
      };
    const where = config.command.includes('/')
      ? `"${config.command}" does not exist or is not executable`
      : `"${config.command}" is not in the project's node_modules/.bin or on PATH`;
    return { ok: false, why: `no ${name} language server is installed: ${where}.${how}` };
  }
  const target = real(found);
  return {
    ok: true,
    program: found,
    allowed,
    writableByCommands,
    env,
    readable: (tsserver) =>
      [
        dirname(found),
        packageOf(target)?.dir ?? dirname(target),
        ...(tsserver ? [dirname(dirname(real(tsserver)))] : []),
      ].filter((dir) => !inside(dir, real(opts.cwd))),
  };
}

/** PATH without the folders commands can write. */
function outsideWritable(path: string | undefined, writable: (dir: string) => boolean): string {
  return (path ?? '')
    .split(delimiter)
    .filter((dir) => dir && !writable(join(dir, '.')))
    .join(delimiter);
}
