// What the session's MCP servers offer to the input box (docs/mcp.md "Prompts and resources"): their prompts for the
// `/` menu (`/mcp__<server>__<prompt>`, with the arguments beside the description) and their resources for `@`
// completion (`@<server>:<uri>`). Listed once the servers have started, again whenever a server's offer changes
// (one started later, a reconnect) or the session's servers are replaced (/reload); the menu shows what the last
// listing found and never waits for a server. A server not started yet (lazy: its tools come from the cache) is
// started in the background when the input asks for what it offers — `/mcp__…` for prompts, `@<its name>` for its
// resources — and listed once it has started.
import { mcpResourceAccess } from '../engine/extensions/mcpResources';
import type { McpManager } from '../ext/mcp/mcpManager';
import { listMcpPrompts, mcpPromptHint } from '../ext/mcp/mcpPrompts';
import type { McpResourceEntry } from '../tools/mcp';
import { InputCompletion, type CommandInfo } from './completion';

export interface McpCatalogHost {
  readonly mcp: McpManager | undefined;
  /** A server that failed to list its prompts or resources (each problem once). */
  warn(text: string): void;
}

export class McpCatalog {
  private manager: McpManager | undefined;
  private unsubscribe: (() => void) | undefined;
  private promptItems: CommandInfo[] = [];
  private resourceItems: McpResourceEntry[] = [];
  /** Bumped by each listing: an older listing that ends later is dropped. */
  private generation = 0;
  /** Problems already told (a listing runs again at every change of a server's offer). */
  private readonly told = new Set<string>();

  constructor(private readonly host: McpCatalogHost) {}

  /** The servers' prompts as menu entries: `mcp__<server>__<prompt>`, `<city> [state] — what it does`. */
  prompts(): readonly CommandInfo[] {
    this.follow();
    return this.promptItems;
  }

  /** The servers' resources with a fixed URI (a template needs its placeholders filled: type it). */
  resources(): readonly McpResourceEntry[] {
    this.follow();
    return this.resourceItems;
  }

  /** Starts the lazy servers whose name begins with `prefix` (all for ''); each is listed once started. */
  warm(prefix: string): void {
    const manager = this.host.mcp;
    for (const c of manager?.connectionsInUse() ?? [])
      if (c.state === 'lazy' && c.config.name.startsWith(prefix)) manager!.warm(c.config.name);
  }

  /** Starts over with the session's current servers when they were replaced. */
  private follow(): void {
    const current = this.host.mcp;
    if (current === this.manager) return;
    this.unsubscribe?.();
    this.manager = current;
    this.promptItems = [];
    this.resourceItems = [];
    this.unsubscribe = current?.onToolsChanged(() => this.list(current));
    if (current) this.list(current);
  }

  private list(manager: McpManager): void {
    this.listing(manager).catch((e: unknown) =>
      this.host.warn(`Listing the MCP servers' prompts and resources failed: ${(e as Error).message}`),
    );
  }

  private async listing(manager: McpManager): Promise<void> {
    const generation = ++this.generation;
    await manager.ready();
    const [prompts, resources] = await Promise.all([
      listMcpPrompts(manager),
      mcpResourceAccess(manager).list(undefined, new AbortController().signal),
    ]);
    if (generation !== this.generation || manager !== this.manager) return;
    this.promptItems = prompts.prompts.map((p) => {
      const hint = mcpPromptHint(p);
      return { name: p.name, aliases: [], description: hint ? `${hint} — ${p.description}` : p.description };
    });
    const problems = [...prompts.problems];
    if ('error' in resources) problems.push(resources.error);
    else {
      this.resourceItems = resources.resources.filter((r) => !r.template);
      problems.push(...resources.problems);
    }
    for (const p of problems) if (!this.told.has(p) && this.told.add(p)) this.host.warn(p);
  }
}

/** The input box's completion: `menu` plus the MCP servers' prompts after `/`, files then resources after `@`. */
export function completionWithMcp(
  cwd: string,
  menu: () => readonly CommandInfo[],
  host: McpCatalogHost,
): InputCompletion {
  const offer = new McpCatalog(host);
  offer.prompts(); // the listing starts with the session's servers, before the first `/`
  return new InputCompletion(
    cwd,
    (query) => {
      if (query.startsWith('mcp__')) offer.warm('');
      return [...menu(), ...offer.prompts()];
    },
    (query) => {
      if (query.length >= 2) offer.warm(query.split(':')[0]);
      return offer.resources();
    },
  );
}
