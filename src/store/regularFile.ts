// Reading a file Jarvis judges before it uses it (project MCP files, launch files, Claude Code's project settings:
// docs/mcp.md, "Workspace trust"): one open, and the descriptor checked is the one read, so a FIFO or device planted
// there is refused instead of waited on, and the bytes returned are the very ones a digest is taken of.
import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';

export type RegularFileRead = { bytes: Buffer } | { missing: true } | { problem: string };

export function readRegular(path: string): RegularFileRead {
  const failed = (e: unknown) => `could not be read (${(e as Error).message})`;
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? { missing: true } : { problem: failed(e) };
  }
  try {
    return fstatSync(fd).isFile() ? { bytes: readFileSync(fd) } : { problem: 'is not a regular file' };
  } catch (e) {
    return { problem: failed(e) };
  } finally {
    closeSync(fd);
  }
}
