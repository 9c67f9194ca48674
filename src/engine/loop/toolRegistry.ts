// The tools of one runtime, assembled from sources that can change while the session runs: the
// built-in tools, each enabled plugin, each connected MCP server. A source replaces its whole list at
// once (an MCP `tools/list_changed`, a plugin enabled or disabled); agents read `list()` before every
// model request, so the model is offered the new list at its next step. The `[tools]` switch and each
// tool's `isAvailable` apply to every source alike.
import type { Tool, ToolAvailability } from '../../tools/defineTool';
import type { ToolFilter } from './toolFilter';
import { noteSurvivedFailure } from '../../store/crashLog';

export type ToolSourceKind = 'builtin' | 'plugin' | 'mcp';

/** Where a tool came from: `{kind: 'mcp', id: 'mcp:github'}`, `{kind: 'builtin', id: 'builtin'}`. */
export interface ToolSource {
  id: string;
  kind: ToolSourceKind;
}

/** What an agent needs from its tools: the list to offer and lookup by name. */
export interface ToolSet {
  /** The tools offered now, in offering order. */
  list(): readonly Tool[];
  get(name: string): Tool | undefined;
  keys(): Iterable<string>;
  /** Why a tool that was offered earlier is gone (its server was removed…), for the model's error. */
  goneReason?(name: string): string | undefined;
  /** Where an offered tool came from (an MCP server's tools are listed together when deferred). */
  sourceOf?(name: string): ToolSource | undefined;
}

export interface ToolRegistryOptions {
  /** The `[tools]` switch; absent = every tool. */
  filter?: Pick<ToolFilter, 'allows'>;
  /** What `isAvailable` sees (the model's capabilities, print mode). */
  availability: ToolAvailability;
}

export const BUILTIN_SOURCE: ToolSource = { id: 'builtin', kind: 'builtin' };

export class ToolRegistry implements ToolSet {
  private readonly sources = new Map<string, { source: ToolSource; tools: Tool[] }>();
  private readonly gone = new Map<string, string>();
  private readonly listeners = new Set<() => void>();
  private offered: { list: Tool[]; byName: Map<string, { tool: Tool; source: ToolSource }> } | undefined;
  readonly warnings: string[] = [];

  constructor(private readonly opts: ToolRegistryOptions) {}

  /** What `isAvailable` sees changed (another model after /model): the list is rebuilt. */
  setAvailability(availability: ToolAvailability): void {
    this.opts.availability = availability;
    this.changed();
  }

  /**
   * Sets (or replaces) every tool of one source. A name another source already offers is skipped with
   * a warning: built-in tools always keep their names, then the source registered first wins.
   * Returns the warnings of this call.
   */
  setSource(source: ToolSource, tools: readonly Tool[]): string[] {
    const previous = this.sources.get(source.id);
    this.sources.set(source.id, {
      source,
      tools: source.kind === 'builtin' ? [...tools] : tools.map(withDeclaredFootprint),
    });
    for (const t of tools) this.gone.delete(t.name);
    if (previous) {
      const kept = new Set(tools.map((t) => t.name));
      for (const t of previous.tools)
        if (!kept.has(t.name)) this.gone.set(t.name, `${describe(source)} no longer provides it`);
    }
    return this.changed();
  }

  /** Removes a source and all its tools; calls to them fail with `reason`. */
  removeSource(id: string, reason?: string): void {
    const entry = this.sources.get(id);
    if (!entry) return;
    this.sources.delete(id);
    for (const t of entry.tools)
      this.gone.set(t.name, reason ?? `${describe(entry.source)} was removed from this session`);
    this.changed();
  }

  /** Called after every change to the offered list (front ends refresh a tool count, ACP tells the editor). */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  list(): readonly Tool[] {
    return this.assemble().list;
  }

  get(name: string): Tool | undefined {
    return this.assemble().byName.get(name)?.tool;
  }

  keys(): Iterable<string> {
    return this.assemble().byName.keys();
  }

  goneReason(name: string): string | undefined {
    return this.gone.get(name);
  }

  sourceOf(name: string): ToolSource | undefined {
    return this.assemble().byName.get(name)?.source;
  }

  /**
   * A live subset (a subagent's tool list): follows later changes of the registry. The predicate sees
   * each offered tool and its source.
   */
  view(include: (tool: Tool, source: ToolSource) => boolean): ToolSet {
    // Built from the registry's own list, so the `[tools]` switch and availability apply first.
    const pick = () => this.list().filter((t) => include(t, this.sourceOf(t.name)!));
    return {
      list: pick,
      get: (name) => {
        const tool = this.get(name);
        return tool && include(tool, this.sourceOf(name)!) ? tool : undefined;
      },
      keys: () => pick().map((t) => t.name),
      goneReason: (name) => this.goneReason(name),
      sourceOf: (name) => this.sourceOf(name),
    };
  }

  private changed(): string[] {
    this.offered = undefined;
    const before = this.warnings.length;
    this.assemble();
    for (const listener of this.listeners) {
      try {
        listener();
      } catch (e) {
        // A listener's failure must not stop the registry from changing; the log has it.
        noteSurvivedFailure('a tool-registry listener threw', e);
      }
    }
    return this.warnings.slice(before);
  }

  private assemble(): NonNullable<ToolRegistry['offered']> {
    if (this.offered) return this.offered;
    const byName = new Map<string, { tool: Tool; source: ToolSource }>();
    const list: Tool[] = [];
    // Built-in tools first, whatever the order sources arrived in, so they always keep their names.
    const entries = [...this.sources.values()].sort(
      (a, b) => Number(b.source.kind === 'builtin') - Number(a.source.kind === 'builtin'),
    );
    for (const { source, tools } of entries) {
      for (const tool of tools) {
        if (this.opts.filter && !this.opts.filter.allows(tool.name)) continue;
        if (tool.isAvailable && !tool.isAvailable(this.opts.availability)) continue;
        const holder = byName.get(tool.name);
        if (holder) {
          const warning = `${describe(source)}: tool "${tool.name}" is not offered because ${describe(holder.source)} already provides a tool of that name`;
          if (!this.warnings.includes(warning)) this.warnings.push(warning);
          continue;
        }
        byName.set(tool.name, { tool, source });
        list.push(tool);
      }
    }
    this.offered = { list, byName };
    return this.offered;
  }
}

/**
 * `set` with tools of one run added after its own (a final-answer tool): they shadow a tool of the same name, and
 * their source is the built-in one (they are Jarvis's own).
 */
export function withRunTools(set: ToolSet, extra: readonly Tool[]): ToolSet {
  if (!extra.length) return set;
  const byName = new Map(extra.map((t) => [t.name, t]));
  // The same array while the set's own list is the same one (the deferral and front ends key caches on it).
  let cached: { from: readonly Tool[]; list: readonly Tool[] } | undefined;
  const list = () => {
    const from = set.list();
    if (cached?.from !== from) cached = { from, list: [...from.filter((t) => !byName.has(t.name)), ...extra] };
    return cached.list;
  };
  return {
    list,
    get: (name) => byName.get(name) ?? set.get(name),
    keys: () => list().map((t) => t.name),
    goneReason: (name) => set.goneReason?.(name),
    sourceOf: (name) => (byName.has(name) ? BUILTIN_SOURCE : set.sourceOf?.(name)),
  };
}

/**
 * A plugin or MCP tool that is not read-only and says nothing about what it touches is taken to run a
 * command in the working directory: plan mode refuses it and it never runs alongside a write.
 */
function withDeclaredFootprint(tool: Tool): Tool {
  if (tool.readOnly || tool.accesses) return tool;
  return { ...tool, accesses: (_args, ctx) => [{ kind: 'exec', cwd: ctx.cwd }] };
}

function describe(source: ToolSource): string {
  if (source.kind === 'builtin') return 'the built-in tool set';
  const name = source.id.replace(/^(mcp|plugin):/, '');
  return source.kind === 'mcp' ? `MCP server "${name}"` : `plugin "${name}"`;
}
