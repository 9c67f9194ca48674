// The MCP servers of one editor connection (docs/acp.md, "MCP servers"): sessions with the same servers
// (the usual case — one project, no servers from the editor) share one manager, so twelve sessions run
// one documents server, as the TUI runs one for all its sessions. A manager is stopped when the last
// session using it closes (or is released as idle). Failures and warnings go to every session using it.
import type { McpManager } from '../ext/mcp/mcpManager';
import { mcpFailureText, startMcpServers, type McpStartOptions } from '../ext/mcp/mcpSession';
import type { McpServerConfig } from '../store/mcpConfig';

export interface McpLease {
  manager: McpManager | undefined;
  /** The session is done with the servers; the last lease of a manager stops it. */
  release(): Promise<void>;
}

interface Entry {
  manager: McpManager | undefined;
  holders: Set<(text: string) => void>;
}

export class AcpMcpPool {
  private readonly entries = new Map<string, Entry>();

  /** The manager for `servers` (started on first use); `warn` receives what its sessions must see. */
  acquire(
    servers: readonly McpServerConfig[],
    opts: Omit<McpStartOptions, 'onFailure' | 'onWarning'>,
    warn: (text: string) => void,
  ): McpLease {
    const key = JSON.stringify([opts.home, opts.clientName, opts.cwd, servers]);
    let entry = this.entries.get(key);
    if (!entry) {
      const holders = new Set<(text: string) => void>();
      const tell = (text: string) => {
        for (const h of holders) h(text);
      };
      entry = {
        holders,
        manager: startMcpServers(servers, {
          ...opts,
          onFailure: (server, error) => tell(mcpFailureText(server, error)),
          onWarning: tell,
        }),
      };
      this.entries.set(key, entry);
    }
    const held = entry;
    held.holders.add(warn);
    let released = false;
    return {
      manager: held.manager,
      release: async () => {
        if (released) return;
        released = true;
        held.holders.delete(warn);
        if (held.holders.size || this.entries.get(key) !== held) return;
        this.entries.delete(key);
        await held.manager?.close();
      },
    };
  }

  /** How many managers run now (tests and /status). */
  get size(): number {
    return this.entries.size;
  }

  async closeAll(): Promise<void> {
    const all = [...this.entries.values()];
    this.entries.clear();
    await Promise.all(all.map((e) => e.manager?.close()));
  }
}
