// The stdio transport of MCP servers (docs/mcp.md, "Stopping servers"): the server runs as the leader of
// its own process group, so stopping it stops whatever it started too (an `npx` wrapper's real server).
// Closing ends its stdin, gives it a moment to exit, then signals the whole group. The group is owned by this
// process until it is gone (platform/ownedGroups.ts), so even a forced exit (a second Ctrl-C), a kill or a
// closed terminal leaves no server behind.
import type { ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { disownGroup } from '../../platform/ownedGroups';
import { signalGroup, spawnInGroup, waitForGroupEnd } from '../../platform/processes';

type StdioHelpers = typeof import('@modelcontextprotocol/sdk/shared/stdio.js');

/** How long a server may take to exit after its stdin closed, then after SIGTERM, before SIGKILL. */
export const MCP_EXIT_GRACE_MS = 400;

export interface StdioGroupOptions {
  command: string;
  args: readonly string[];
  env: NodeJS.ProcessEnv;
  cwd?: string;
  /** Called once the server has exited (or could not start): removes what its start prepared (launchPin.ts). */
  cleanup?: () => void;
}

export class StdioGroupTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private child?: ChildProcess;
  private closed = false;
  private readonly buffer: InstanceType<StdioHelpers['ReadBuffer']>;

  constructor(
    private readonly opts: StdioGroupOptions,
    private readonly helpers: StdioHelpers,
    private readonly onStderr: (text: string) => void,
  ) {
    this.buffer = new helpers.ReadBuffer();
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): Promise<void> {
    if (this.child) throw new Error('the MCP server transport was already started');
    return new Promise((resolve, reject) => {
      const { command, args, cwd, env } = this.opts;
      const child = spawnInGroup(command, args, { cwd: cwd ?? process.cwd(), env, stdin: 'pipe', own: 'service' });
      this.child = child;
      child.once('error', (e) => {
        this.opts.cleanup?.();
        reject(e);
        this.onerror?.(e);
      });
      child.once('spawn', () => resolve());
      child.once('close', () => {
        this.opts.cleanup?.();
        if (child.pid !== undefined && !this.closed) void this.endGroup(child.pid);
        this.child = undefined;
        this.onclose?.();
      });
      child.stdin!.on('error', (e) => this.onerror?.(e));
      (child.stdout as Readable).on('data', (chunk: Buffer) => {
        this.buffer.append(chunk);
        this.readMessages();
      });
      (child.stdout as Readable).on('error', (e) => this.onerror?.(e));
      (child.stderr as Readable).on('data', (d: Buffer) => this.onStderr(d.toString('utf8')));
    });
  }

  private readMessages(): void {
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.buffer.readMessage();
      } catch (e) {
        this.onerror?.(e as Error);
        continue;
      }
      if (message === null) return;
      this.onmessage?.(message);
    }
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      // Closing ends stdin: a message sent after that (the handshake's last notification) fails at once.
      if (!stdin || stdin.writableEnded || stdin.destroyed) return reject(new Error('the MCP server is not running'));
      stdin.write(this.helpers.serializeMessage(message), (e) => (e ? reject(e) : resolve()));
    });
  }

  /** Ends stdin, then SIGTERM and SIGKILL to the group, each after a short grace; resolves once it is gone. */
  async close(): Promise<void> {
    this.closed = true;
    const child = this.child;
    this.buffer.clear();
    if (!child?.pid) return this.opts.cleanup?.();
    child.stdin?.end();
    await this.endGroup(child.pid);
  }

  private async endGroup(pgid: number): Promise<void> {
    if (!(await waitForGroupEnd(pgid, MCP_EXIT_GRACE_MS))) {
      signalGroup(pgid, 'SIGTERM');
      if (!(await waitForGroupEnd(pgid, MCP_EXIT_GRACE_MS))) {
        signalGroup(pgid, 'SIGKILL');
        await waitForGroupEnd(pgid, 2_000);
      }
    }
  }

  /** Stops the group at once (SIGKILL), for a forced stop. */
  killNow(): void {
    this.closed = true;
    const pid = this.child?.pid;
    if (pid === undefined) return;
    signalGroup(pid, 'SIGKILL');
    disownGroup(pid);
  }
}
