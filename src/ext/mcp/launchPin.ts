// A project MCP server starts with exactly the bytes the user approved (docs/mcp.md, "Workspace trust"). Right
// before the start, each launch file (store/mcpLaunch.ts) is read once and its SHA-256 compared with the digest
// taken when the configuration was read (and judged against the trust record); a file that changed, vanished or
// newly appeared among the launch files stops the start, with a message that brings back the trust question.
// What then runs is the bytes just checked, not the path read again: for `node`, `python` and the shells with a
// script argument (or a program whose `#!` line names one), the interpreter runs the checked copy from a private
// read-only folder while the script keeps its own path for imports, `__file__` and `$0` (launchPinInterpreters.ts);
// a program that is itself a workspace binary runs from a private copy. Anything else (another interpreter, a
// data file among the arguments) is checked but read again by the server: docs/mcp.md names that window.
import { basename } from 'node:path';
import type { McpServerConfig } from '../../store/mcpConfig';
import { launchPaths, readRegularFile, resolveProgram, sha256 } from '../../store/mcpLaunch';
import { displayPath } from '../../store/paths';
import { pinnedInterpreterCommand, type PinnedCommand } from './launchPinInterpreters';

/** How a start refused for a changed file reads in the server's error (front ends ask the trust question again). */
export const LAUNCH_CHANGED_MARK = 'changed since this workspace was trusted, so MCP server';

/** A launch file differs from what the user approved: nothing was started. */
export class McpLaunchChanged extends Error {
  constructor(
    readonly server: string,
    readonly file: string,
  ) {
    super(
      `${displayPath(file)} ${LAUNCH_CHANGED_MARK} "${server}" was not started ` +
        '(it would run other bytes than the ones you approved); review the change and approve it in the trust ' +
        'question (the interactive UI asks; or run `jarvis` in this folder).',
    );
    this.name = 'McpLaunchChanged';
  }
}

/**
 * Checks `config`'s launch files and returns the command that runs exactly the checked bytes. Throws
 * McpLaunchChanged when a file differs. A server with no launch files (user servers, plugins, a program outside
 * the workspace) runs as configured.
 */
export function pinLaunch(config: McpServerConfig, env: NodeJS.ProcessEnv, cwd: string): PinnedCommand {
  const command = config.command!;
  const launch = config.launch;
  const plain: PinnedCommand = { command, args: [...config.args], cleanup: () => undefined };
  if (!launch) return plain;
  const changed = (file: string) => new McpLaunchChanged(config.name, file);
  if (launch.unreadable?.length) throw changed(launch.unreadable[0]);
  const approved = launch.files.map((f) => f.path);
  const now = launchPaths({ command, args: config.args, cwd, path: env.PATH }, launch.roots);
  const extra = now.find((p) => !approved.includes(p));
  if (extra) throw changed(extra);
  const bytes = new Map<string, Buffer>();
  for (const f of launch.files) {
    const read = readRegularFile(f.path);
    if (!read || sha256(read) !== f.digest) throw changed(f.path);
    bytes.set(f.path, read);
  }
  if (!bytes.size) return plain;
  const program = resolveProgram(command, cwd, env.PATH);
  return (
    pinnedInterpreterCommand({
      program,
      programName: basename(command),
      args: config.args,
      cwd,
      bytes,
    }) ?? plain
  );
}
