// Where a language server runs when the command sandbox runs here (docs/lsp.md, "Where servers run"): inside the same
// bubblewrap sandbox as commands, with nothing writable (the workspace and the server's root read-only), no network,
// the same hidden secret files and home entries, and the environment without secrets. One small function, so the
// session's trust boundary can later route it through the one place every started program goes through.
import { realpathSync } from 'node:fs';
import { bwrapArgs, type BwrapPolicy } from '../../platform/sandbox/bwrapSandbox';
import { sandboxEnv } from '../../platform/sandbox/sandboxEnv';
import type { ServerSandbox } from '../../platform/lsp/lspManager';
import type { CommandSandbox } from './commandSandbox';
import { gitDirsOf } from './gitDirs';

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

function realOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** The sandbox for the session's language servers; undefined where commands would not run sandboxed either. */
export function languageServerSandbox(
  sandbox: CommandSandbox | undefined,
  workspace: { cwd: string; additionalDirs: readonly string[]; sessionDir: string },
): ServerSandbox | undefined {
  if (!sandbox?.active()) return undefined;
  const { cwd, additionalDirs, sessionDir } = workspace;
  return {
    spawn(program, args, root, readable, env) {
      const { policy } = sandbox.policyFor(cwd, sessionDir);
      // The workspace folders are mounted as a command's writable ones would be, so the secret files inside them are
      // hidden after the mount, and then made read-only like the rest (a folder under /tmp is not in the sandbox's own
      // /tmp otherwise).
      const visible = [...new Set([cwd, ...additionalDirs, root].map((p) => realOr(p)))];
      const confined: BwrapPolicy = {
        hidden: policy.hidden,
        writable: visible,
        // Where the program and its TypeScript live when a hidden home folder holds them (~/.npm-global).
        readOnly: [...policy.readOnly, ...visible, ...readable],
        network: 'off',
        ...(policy.maskFile ? { maskFile: policy.maskFile } : {}),
        ...(policy.env ? { env: policy.env } : {}),
      };
      const command = ['exec', ...[program, ...args].map(quote)].join(' ');
      return {
        file: sandbox.settings.bwrapPath,
        args: bwrapArgs(confined, '/bin/sh', command),
        env: sandboxEnv(env, sandbox.settings.envPass),
      };
    },
  };
}

/**
 * The folders commands may write in this session (the sandbox's writable roots, computed without its secret scan):
 * no server program, project TypeScript or `node` is run from them outside the sandbox.
 */
export function commandWritableRoots(
  sandbox: CommandSandbox | undefined,
  workspace: { cwd: string; additionalDirs: readonly string[]; sessionDir: string },
): string[] {
  const folders = [workspace.cwd, ...workspace.additionalDirs];
  return [...folders, ...folders.flatMap(gitDirsOf), workspace.sessionDir, ...(sandbox?.settings.writablePaths ?? [])];
}
