// Where a language server runs when the command sandbox runs here (docs/lsp.md, "Where servers run"): inside the same
// bubblewrap sandbox as commands, built by the session's trust boundary (commandBoundary.ts readOnlyPolicy) — nothing
// writable (the workspace and the server's root read-only), no network, no Unix sockets, the same hidden secret files
// and home entries, and the environment without secrets.
import type { ServerSandbox } from '../../platform/lsp/lspManager';
import { bwrapArgs, bwrapChannels } from '../../platform/sandbox/bwrapSandbox';
import { sandboxEnv } from '../../platform/sandbox/sandboxEnv';
import { workRootsOf, type SessionFolders } from './boundaryPolicy';
import type { CommandBoundary } from './commandBoundary';
import { gitDirsAbove } from './gitGuards';

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** The sandbox for the session's language servers; undefined where commands would not run sandboxed either. */
export function languageServerSandbox(boundary: CommandBoundary | undefined): ServerSandbox | undefined {
  if (!boundary?.active()) return undefined;
  return {
    async spawn(program, args, root, readable, env) {
      // Where the program and its TypeScript live when a hidden home folder holds them (~/.npm-global): `readable`.
      const policy = await boundary.readOnlyPolicy([root], readable);
      const command = ['exec', ...[program, ...args].map(quote)].join(' ');
      return {
        file: boundary.settings.bwrapPath,
        args: bwrapArgs(policy, '/bin/sh', command),
        env: sandboxEnv(env, boundary.settings.envPass),
        ...bwrapChannels(policy),
      };
    },
  };
}

/**
 * The folders commands may write in this session (the boundary's writable roots, and the repositories above the
 * workspace that commits write to): no server program, project TypeScript or `node` is run from them outside the
 * sandbox. Without a boundary: the workspace and the scratch folder.
 */
export function commandWritableRoots(boundary: CommandBoundary | undefined, folders: SessionFolders): string[] {
  const workspace = boundary?.folders.workspace ?? folders.workspace;
  const roots = boundary ? workRootsOf(boundary.settings, boundary.folders) : [...workspace, folders.scratch];
  return [...roots, ...workspace.flatMap(gitDirsAbove)];
}
