// Deferred tools (docs/tools.md, "Deferred tools"): the model always gets the full schemas of a small
// core; every other tool is listed by name and one line in ToolSearch's description, and ToolSearch
// loads chosen ones for the rest of the session. Loads are journalled (`tools_loaded`), so resume and
// fork keep them. The offered list is core tools, then ToolSearch, then loaded tools in load order:
// loading only ever appends, so the bytes before it — the provider's cached prefix — do not change.
// A deferred tool can still be called by name before it is loaded; if its arguments are rejected,
// the error tells the model to load it.
import type { Tool } from '../../tools/defineTool';
import {
  summarise,
  TOOL_SEARCH_NAME,
  toolSearchTool,
  type DeferredToolEntry,
  type ToolLoader,
  type ToolLoadOutcome,
} from '../../tools/toolSearch';
import type { TurnExtension } from './loop';
import type { RecordBody, SessionState } from '../session/records';
import type { ToolSet } from './toolRegistry';
import { toolNameMatcher } from './toolFilter';

/** `[tools] deferred` / `pinned` from config.toml: exact names, or mcp__ globs. */
export interface DeferralConfig {
  deferred: readonly string[];
  pinned: readonly string[];
  /** The room of the plugins' MCP server lines in ToolSearch (src/tools/listingBudget.ts); its floor when unset. */
  listingBytes?: number;
}

/** A session uses at most this many MCP tools with full schemas up front; with more, all are deferred. */
export const MCP_INLINE_MAX = 4;

/** The tool source the deferral sits on (the runtime's tool registry). */
export interface ToolSource {
  list(): readonly Tool[];
  get(name: string): Tool | undefined;
  goneReason?(name: string): string | undefined;
  sourceOf?(name: string): { kind: string; id?: string } | undefined;
}

export interface DeferralSession {
  readonly state: Pick<SessionState, 'loadedTools' | 'planMode' | 'goal'>;
  commit(body: RecordBody): void;
}

/**
 * Whether an MCP tool is deferred, given how many MCP tools the session offers: config pins win, then
 * config deferrals, then volume. The same rule `partition` applies; front ends give it to the MCP
 * manager, which leaves a server unstarted only when all its tools are deferred (docs/mcp.md).
 */
export function mcpToolDeferral(
  config: DeferralConfig = { deferred: [], pinned: [] },
): (name: string, mcpToolCount: number) => boolean {
  const pinned = config.pinned.map(toolNameMatcher);
  const deferred = config.deferred.map(toolNameMatcher);
  return (name, count) => !pinned.some((m) => m(name)) && (deferred.some((m) => m(name)) || count > MCP_INLINE_MAX);
}

/** Start-up warnings for `[tools] deferred` / `pinned` entries that name no tool (mcp__ globs are checked in config.ts). */
export function deferralWarnings(config: DeferralConfig | undefined, knownNames: readonly string[]): string[] {
  if (!config) return [];
  const known = new Set([...knownNames, TOOL_SEARCH_NAME]);
  const warnings: string[] = [];
  for (const [key, list] of [
    ['deferred', config.deferred],
    ['pinned', config.pinned],
  ] as const) {
    for (const entry of list) {
      if (entry === TOOL_SEARCH_NAME)
        warnings.push(`[tools] ${key}: ToolSearch is offered whenever a tool is deferred; the entry has no effect`);
      else if (!entry.startsWith('mcp__') && !known.has(entry)) {
        const near = knownNames.find((n) => n.toLowerCase() === entry.toLowerCase());
        warnings.push(
          `[tools] ${key}: "${entry}" is not a tool name${near ? ` (did you mean "${near}"? names are case-sensitive)` : ''}`,
        );
      }
    }
  }
  return warnings;
}

export class DeferredTools implements ToolSet {
  private readonly deferredBy: Array<(name: string) => boolean>;
  private readonly pinnedBy: Array<(name: string) => boolean>;
  private readonly listingBytes: number | undefined;
  private search: { key: string; tool: Tool } | undefined;
  private offered: { all: readonly Tool[]; loadedCount: number; list: readonly Tool[] } | undefined;
  private split: { all: readonly Tool[]; core: Tool[]; deferred: Tool[] } | undefined;
  private readonly hinted = new WeakMap<Tool, Tool>();

  constructor(
    private readonly source: ToolSource,
    private readonly session: DeferralSession,
    config: DeferralConfig = { deferred: [], pinned: [] },
  ) {
    this.deferredBy = config.deferred.map(toolNameMatcher);
    this.pinnedBy = config.pinned.map(toolNameMatcher);
    this.listingBytes = config.listingBytes;
  }

  /**
   * What the model is offered now: core tools, ToolSearch (when anything is deferred), loaded tools.
   * The same array until the source's tools or the loaded set change (front ends key caches on it).
   */
  list(): readonly Tool[] {
    const all = this.source.list();
    const loadedCount = this.session.state.loadedTools.length;
    if (this.offered?.all === all && this.offered.loadedCount === loadedCount) return this.offered.list;
    const { core, deferred } = this.partition();
    let list: readonly Tool[] = core;
    if (deferred.length) {
      const byName = new Map(deferred.map((t) => [t.name, t]));
      const loaded = this.session.state.loadedTools.map((n) => byName.get(n)).filter((t): t is Tool => t !== undefined);
      list = [...core, this.searchTool(deferred), ...loaded];
    }
    this.offered = { all, loadedCount, list };
    return list;
  }

  /** Any tool of the session by name, deferred ones included (a direct call works before loading). */
  get(name: string): Tool | undefined {
    const { deferred } = this.partition();
    if (name === TOOL_SEARCH_NAME && deferred.length) return this.searchTool(deferred);
    const tool = this.source.get(name);
    if (!tool || !deferred.includes(tool) || this.session.state.loadedTools.includes(name)) return tool;
    return this.withLoadHint(tool);
  }

  keys(): Iterable<string> {
    const names = this.source.list().map((t) => t.name);
    return this.partition().deferred.length ? [...names, TOOL_SEARCH_NAME] : names;
  }

  goneReason(name: string): string | undefined {
    return this.source.goneReason?.(name);
  }

  /** The deferred tools, each with its one-line summary and whether it is loaded. */
  catalog(): DeferredToolEntry[] {
    const loaded = new Set(this.session.state.loadedTools);
    return this.partition().deferred.map((t) => ({ ...this.entry(t), loaded: loaded.has(t.name) }));
  }

  /** Loads deferred tools (journalled); names that are core or already loaded are reported as available. */
  load(names: readonly string[]): ToolLoadOutcome {
    const { deferred } = this.partition();
    const deferredNames = new Set(deferred.map((t) => t.name));
    const outcome: ToolLoadOutcome = { loaded: [], available: [], unknown: [] };
    for (const name of new Set(names)) {
      if (deferredNames.has(name) && !this.session.state.loadedTools.includes(name)) outcome.loaded.push(name);
      else if (deferredNames.has(name) || this.source.get(name) || name === TOOL_SEARCH_NAME)
        outcome.available.push(name);
      else outcome.unknown.push(name);
    }
    if (outcome.loaded.length) this.session.commit({ type: 'tools_loaded', names: outcome.loaded });
    // A lazy MCP server starts now, so it is likely ready by the time the model calls the tool.
    for (const name of outcome.loaded) this.source.get(name)?.onLoaded?.();
    return outcome;
  }

  /**
   * Loads, before a step, the deferred tools the session's state calls for: ExitPlanMode while plan mode
   * is on (the plan has to be handed in), UpdateGoal while a goal is active (progress has to be reported).
   */
  extension(): TurnExtension {
    return {
      beforeStep: () => {
        const { planMode, goal, loadedTools } = this.session.state;
        const wanted = [
          ...(planMode.active ? ['ExitPlanMode'] : []),
          ...(goal?.status === 'active' ? ['UpdateGoal'] : []),
        ];
        const deferred = new Set(this.partition().deferred.map((t) => t.name));
        const missing = wanted.filter((name) => deferred.has(name) && !loadedTools.includes(name));
        if (missing.length) this.load(missing);
      },
    };
  }

  /** The ToolSearch service for the tools that run in this session. */
  loader(): ToolLoader {
    return { catalog: () => this.catalog(), load: (names) => this.load(names) };
  }

  /** Whether a tool is deferred: config pins win, then config deferrals, the tool's own flag, MCP volume. */
  private partition(): { core: Tool[]; deferred: Tool[] } {
    const all = this.source.list();
    if (this.split?.all === all) return this.split;
    const mcpCount = all.filter((t) => this.isMcp(t)).length;
    const core: Tool[] = [];
    const deferred: Tool[] = [];
    for (const tool of all) {
      const name = tool.name;
      const isDeferred =
        !this.pinnedBy.some((m) => m(name)) &&
        (this.deferredBy.some((m) => m(name)) ||
          tool.deferred === true ||
          (this.isMcp(tool) && mcpCount > MCP_INLINE_MAX));
      (isDeferred ? deferred : core).push(tool);
    }
    this.split = { all, core, deferred };
    return this.split;
  }

  /** A catalog entry: the name, one line, and for an MCP tool its source (the listing groups by it). */
  private entry(tool: Tool): { name: string; summary: string; group?: string; fromPlugin?: boolean } {
    // A plugin's MCP server is a plugin source, its tools keep their mcp__ names (docs/plugins.md).
    const source = tool.name.startsWith('mcp__') ? this.source.sourceOf?.(tool.name) : undefined;
    const group = source?.id;
    const plugin = source?.kind === 'plugin' ? { fromPlugin: true } : {};
    return { name: tool.name, summary: summarise(tool.renderedDescription), ...(group ? { group, ...plugin } : {}) };
  }

  private isMcp(tool: Tool): boolean {
    return this.source.sourceOf?.(tool.name)?.kind === 'mcp' || tool.name.startsWith('mcp__');
  }

  /** One ToolSearch per catalog, so its description bytes stay identical from step to step. */
  private searchTool(deferred: readonly Tool[]): Tool {
    const entries = deferred.map((t) => ({ ...this.entry(t), loaded: false }));
    const key = JSON.stringify(entries.map((e) => [e.name, e.summary, e.group, e.fromPlugin]));
    if (this.search?.key !== key) this.search = { key, tool: toolSearchTool(entries, this.listingBytes) };
    return this.search.tool;
  }

  private withLoadHint(tool: Tool): Tool {
    let hinted = this.hinted.get(tool);
    if (!hinted) {
      const hint = `${tool.name} is a deferred tool and its schema is not loaded: call ${TOOL_SEARCH_NAME} with names ["${tool.name}"], then call ${tool.name} again.`;
      hinted = Object.assign(Object.create(tool) as Tool, {
        validateArgs: (raw: unknown) => {
          const check = tool.validateArgs(raw);
          return check.ok ? check : { ok: false as const, error: `${check.error}\n${hint}` };
        },
      });
      this.hinted.set(tool, hinted);
    }
    return hinted;
  }
}
