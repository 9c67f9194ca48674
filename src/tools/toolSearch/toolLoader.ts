// The service behind ToolSearch: the catalog of deferred tools and loading them into the session. The
// engine implements it (src/engine/loop/deferredTools.ts), where the session journal records each load so
// resume and fork keep the loaded tools (docs/tools.md, "Deferred tools").
import { serviceKey } from '../defineTool';

export interface DeferredToolEntry {
  name: string;
  /** One line: what the tool does. */
  summary: string;
  /** True once its schema is in the model's tool list. */
  loaded: boolean;
  /** The MCP server it comes from (its tool source id); the listing writes a server's prefix once. */
  group?: string;
  /** The server is a plugin's: its line counts against the plugins' listing budget. */
  fromPlugin?: boolean;
}

export interface ToolLoadOutcome {
  /** Loaded by this call, in the order given. */
  loaded: string[];
  /** Already in the model's tool list (loaded earlier, or never deferred). */
  available: string[];
  /** Not a tool of this session. */
  unknown: string[];
}

export interface ToolLoader {
  catalog(): DeferredToolEntry[];
  load(names: readonly string[]): ToolLoadOutcome;
}

export const TOOL_LOADER = serviceKey<ToolLoader>()('toolLoader');

/** A catalog line's summary is at most this many characters (every request pays for every line). */
export const SUMMARY_MAX_CHARS = 80;

/** One line of a tool's description for the catalog: its first sentence, at most SUMMARY_MAX_CHARS. */
export function summarise(description: string): string {
  const first = description.trim().split('\n')[0];
  const sentence = /^(.+?[.!?])(\s|$)/.exec(first)?.[1] ?? first;
  if (sentence.length <= SUMMARY_MAX_CHARS) return sentence;
  // Cut at a word boundary when there is one in the second half, so no word is left half-written.
  const cut = sentence.slice(0, SUMMARY_MAX_CHARS - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > SUMMARY_MAX_CHARS / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** Deferred tools matching a keyword query: every word must appear in the name or the summary. */
export function searchCatalog(catalog: readonly DeferredToolEntry[], query: string): DeferredToolEntry[] {
  const words = query
    .toLowerCase()
    .split(/[^\p{L}\p{N}_]+/u)
    .filter(Boolean);
  if (!words.length) return [];
  const score = (e: DeferredToolEntry) => {
    const name = e.name.toLowerCase();
    const text = `${name} ${e.summary.toLowerCase()}`;
    if (!words.every((w) => text.includes(w))) return 0;
    return words.reduce((s, w) => s + (name.includes(w) ? 2 : 1), 0);
  };
  return catalog
    .map((e) => ({ e, s: score(e) }))
    .filter((x) => x.s > 0)
    .sort((a, b) => b.s - a.s)
    .map((x) => x.e);
}
