// The file descriptors a sandboxed spawn hands bwrap besides stdio (docs/sandbox.md#unix-sockets-and-seccomp): the
// seccomp filter's bytes at SECCOMP_FD (`--seccomp 3`: bwrap reads them before it runs anything), and in allowlist
// mode the IPC channel at BRIDGE_CHANNEL_FD through which the network bridge inside gets its connections to the
// proxy (proxyBridge.ts). Both are written from memory; nothing is read back from disk.
import type { ChildProcess, IOType, StdioNull, StdioPipe } from 'node:child_process';
import type { Writable } from 'node:stream';
import { serveBridge } from './proxyBridge';

export const SECCOMP_FD = 3;
export const BRIDGE_CHANNEL_FD = 4;

/** What a sandboxed spawn hands in besides its arguments (platform/processes.ts SandboxSpawn). */
export interface SandboxChannels {
  /** The seccomp filter program (seccompFilter.ts); the arguments then hold `--seccomp 3`. */
  seccomp?: Uint8Array;
  /** Allowlist mode: the proxy's socket outside, which the bridge inside is given connections to. */
  proxySocket?: string;
}

export type StdioEntry = IOType | StdioNull | StdioPipe | 'ipc' | number;

/** The stdio entries after stdin, stdout and stderr: fd 3, then fd 4 (empty when neither is needed). */
export function channelStdio(channels: SandboxChannels): StdioEntry[] {
  if (!channels.proxySocket) return channels.seccomp ? ['pipe'] : [];
  return [channels.seccomp ? 'pipe' : 'ignore', 'ipc'];
}

/**
 * Writes the filter to the child's fd 3 and closes it (bwrap reads to the end), and starts answering the bridge.
 * A child that could not start has no pipes: its 'error' event says why.
 */
export function feedChannels(child: ChildProcess, channels: SandboxChannels): void {
  // A 'pipe' past stderr is a duplex socket; only its writing side is used.
  const filter = channels.seccomp ? (child.stdio[SECCOMP_FD] as Writable | null) : null;
  if (filter && channels.seccomp) {
    // bwrap gone before reading (it failed to start): its exit status and stderr report that, not this pipe.
    filter.on('error', () => filter.destroy());
    filter.end(Buffer.from(channels.seccomp), () => filter.destroy());
  }
  if (channels.proxySocket) serveBridge(child, channels.proxySocket);
}
