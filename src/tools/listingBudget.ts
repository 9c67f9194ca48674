// How much room the listings every request carries get — the skills in the system prompt, plugins' agents in
// the Agent tool, plugins' MCP servers in ToolSearch — and how a listing is fitted into it (docs/plugins.md,
// "Context budget"). The room grows with the model's context window, the way Claude Code sizes its skill
// listing: 1 % of the window (about 4 bytes a token), never less than a floor. Within it every entry keeps its
// whole description; past it descriptions are shortened, all alike, then the last entries are named without
// one. No entry is ever left out: every name is in the listing, whatever it costs.

/** The listing's share of the context window (Claude Code gives its skill listing 1 %). */
export const LISTING_WINDOW_SHARE = 0.01;
/** Bytes per token used to turn that share into bytes. */
export const LISTING_BYTES_PER_TOKEN = 4;
/** The least room a listing gets, whatever the window (Claude Code's fallback is 8,000 characters). */
export const LISTING_MIN_BYTES = 8000;
/** One entry's description is cut at this many characters even when there is room (Claude Code: 1,536). */
export const ENTRY_MAX_CHARS = 1536;
/** Shortened descriptions keep at least this many characters; below it an entry is named without one. */
export const SHORTENED_MIN_CHARS = 60;

/** The room of one listing for a model with this context window (tokens). */
export function listingBudgetBytes(contextWindowTokens: number): number {
  const share = Math.floor(contextWindowTokens * LISTING_WINDOW_SHARE * LISTING_BYTES_PER_TOKEN);
  return Math.max(LISTING_MIN_BYTES, share);
}

/** One entry of a listing: a name and the text that describes it. */
export interface ListingEntry {
  name: string;
  text: string;
}

/** How one listing writes its entries. */
export interface ListingFormat {
  /** An entry with (part of) its description. */
  described(name: string, text: string): string;
  /** The entries past the room, named without descriptions (never empty). */
  namesOnly(names: readonly string[]): string;
  /** What joins two written entries (its bytes count). */
  separator: string;
}

export interface FittedListing {
  /** The written entries, in the order given; the names-only part (if any) last. */
  parts: string[];
  /** `full`: every description whole; `shortened`: cut to `cutAt` characters; `names`: some named only. */
  fit: 'full' | 'shortened' | 'names';
  cutAt?: number;
  /** Entries listed without a description. */
  namesOnly: string[];
}

/** `text` cut to at most `max` characters, at a word boundary when one is near, marked with `…`. */
export function cutText(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

function bytesOf(parts: readonly string[], separator: string): number {
  if (!parts.length) return 0;
  return parts.reduce((n, p) => n + Buffer.byteLength(p), 0) + Buffer.byteLength(separator) * (parts.length - 1);
}

/**
 * Writes the entries within `budget` bytes: whole descriptions when they fit; else every description cut to
 * the longest common length that fits (at least SHORTENED_MIN_CHARS); else that shortest form for the first
 * entries and the rest named without descriptions. Every entry is named in every case.
 */
export function fitListing(entries: readonly ListingEntry[], budget: number, format: ListingFormat): FittedListing {
  const written = (max: number, described = entries.length) => {
    const head = entries.slice(0, described).map((e) => format.described(e.name, cutText(e.text, max)));
    const rest = entries.slice(described).map((e) => e.name);
    return rest.length ? [...head, format.namesOnly(rest)] : head;
  };
  const fits = (parts: readonly string[]) => bytesOf(parts, format.separator) <= budget;
  const full = written(ENTRY_MAX_CHARS);
  if (fits(full)) return { parts: full, fit: 'full', namesOnly: [] };
  // The longest cut that fits: the sizes only grow with the cut, so a binary search finds it.
  let low = SHORTENED_MIN_CHARS;
  let high = ENTRY_MAX_CHARS;
  if (fits(written(low))) {
    while (low < high) {
      const mid = Math.ceil((low + high) / 2);
      if (fits(written(mid))) low = mid;
      else high = mid - 1;
    }
    return { parts: written(low), fit: 'shortened', cutAt: low, namesOnly: [] };
  }
  // The most entries that keep a shortest description with the rest named; none when even names overflow.
  let described = entries.length - 1;
  while (described > 0 && !fits(written(SHORTENED_MIN_CHARS, described))) described--;
  return {
    parts: written(SHORTENED_MIN_CHARS, described),
    fit: 'names',
    cutAt: SHORTENED_MIN_CHARS,
    namesOnly: entries.slice(described).map((e) => e.name),
  };
}
