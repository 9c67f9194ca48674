// Completion for the input box: `/` at the start opens the command menu (live-filtered, aliases
// match too); `@` completes paths from the same walk as the Glob tool (ignore files honoured, `.git`
// and secrets never listed; globWalk.ts), ranked by how well they match, then by recency: paths
// mentioned lately first, then the most recently modified. Folders end with `/`. The MCP servers' resources
// complete after `@` too, as `@<server>:<uri>` (docs/mcp.md "Prompts and resources"), after the paths.
import { relative, sep } from 'node:path';
import type { AutocompleteItem, AutocompleteProvider, AutocompleteSuggestions } from '@mariozechner/pi-tui';
import { mentionedPaths } from '../engine/runtime/promptAttachments';
import { modifiedTimes } from '../tools/file/fileTimes';
import { walkAllFiles } from '../tools/file/globWalk';
import type { McpResourceEntry } from '../tools/mcp';

export interface CommandInfo {
  name: string;
  aliases: string[];
  description: string;
}

const MAX_PATH_ITEMS = 50;
/** MCP resources offered after `@` at most. */
const MAX_RESOURCE_ITEMS = 50;
/** A resource's `server:uri` up to this length is shown with its description beside it (pi-tui's first column). */
const RESOURCE_LABEL_WITH_DESCRIPTION = 30;
/** A completion list stops growing here; a bigger tree is still searchable with Glob. */
const WALK_LIMIT = 20_000;
/** How many recently mentioned paths are remembered for ranking. */
const RECENT_MENTIONS = 50;

export interface PathEntry {
  /** Relative to cwd, `/`-separated; folders end with `/`. */
  path: string;
  /** The file's modification time; a folder's is its newest file's. */
  mtimeMs: number;
}

/** Commands whose name or an alias contains the query; name-prefix matches first. */
export function filterCommands(commands: readonly CommandInfo[], query: string): CommandInfo[] {
  const q = query.toLowerCase();
  const score = (c: CommandInfo): number => {
    const names = [c.name, ...c.aliases];
    if (names.some((n) => n === q)) return 0;
    if (c.name.startsWith(q)) return 1;
    if (c.aliases.some((a) => a.startsWith(q))) return 2;
    if (names.some((n) => n.includes(q))) return 3;
    return -1;
  };
  return commands
    .map((c) => ({ c, s: score(c) }))
    .filter((x) => x.s >= 0)
    .sort((a, b) => a.s - b.s || a.c.name.localeCompare(b.c.name))
    .map((x) => x.c);
}

/** Every file and folder below `cwd` that Glob would see, with modification times. */
export async function listPaths(cwd: string, signal: AbortSignal = new AbortController().signal): Promise<PathEntry[]> {
  const files = await walkAllFiles(cwd, { cwd, signal, maxFiles: WALK_LIMIT });
  const times = await modifiedTimes(files, { filesOnly: false, signal });
  const folders = new Map<string, number>();
  const entries: PathEntry[] = [];
  files.forEach((abs, i) => {
    const path = relative(cwd, abs).split(sep).join('/');
    const mtimeMs = times[i] ?? 0;
    entries.push({ path, mtimeMs });
    const parts = path.split('/');
    for (let j = 1; j < parts.length; j++) {
      const folder = `${parts.slice(0, j).join('/')}/`;
      folders.set(folder, Math.max(folders.get(folder) ?? 0, mtimeMs));
    }
  });
  for (const [path, mtimeMs] of folders) entries.push({ path, mtimeMs });
  return entries;
}

/**
 * The entries matching `query` (a prefix of the path, then of its last part, then anywhere), each
 * group most recent first: paths in `mentioned` (newest mention first), then by modification time.
 */
export function matchPaths(entries: readonly PathEntry[], query: string, mentioned: readonly string[] = []): string[] {
  const q = query.toLowerCase();
  const recentRank = new Map(mentioned.map((p, i) => [p, i]));
  const scored: Array<{ e: PathEntry; tier: number; recent: number }> = [];
  for (const e of entries) {
    const lower = e.path.toLowerCase();
    const base = (lower.endsWith('/') ? lower.slice(0, -1) : lower).split('/').pop()!;
    let tier = -1;
    if (!q || lower.startsWith(q)) tier = 0;
    else if (base.startsWith(q)) tier = 1;
    else if (lower.includes(q)) tier = 2;
    if (tier >= 0) scored.push({ e, tier, recent: recentRank.get(e.path) ?? Infinity });
  }
  return scored
    .sort(
      (a, b) =>
        a.tier - b.tier ||
        a.recent - b.recent ||
        b.e.mtimeMs - a.e.mtimeMs ||
        a.e.path.length - b.e.path.length ||
        a.e.path.localeCompare(b.e.path),
    )
    .slice(0, MAX_PATH_ITEMS)
    .map((x) => x.e.path);
}

/** Resources whose `server:uri` or name contains the query (a prefix of `server:uri` first), as `@` items. */
export function matchResources(resources: readonly McpResourceEntry[], query: string): AutocompleteItem[] {
  const q = query.toLowerCase();
  return resources
    .map((r) => ({ r, mention: `${r.server}:${r.uri}` }))
    .map((x) => ({
      ...x,
      tier: x.mention.toLowerCase().startsWith(q) ? 0 : x.mention.toLowerCase().includes(q) ? 1 : 2,
    }))
    .filter((x) => x.tier < 2 || x.r.name.toLowerCase().includes(q))
    .sort((a, b) => a.tier - b.tier || a.mention.localeCompare(b.mention))
    .slice(0, MAX_RESOURCE_ITEMS)
    .map((x) => {
      // The list cuts a label at its first column when a description follows: a long URI is shown whole instead.
      const description = x.mention.length <= RESOURCE_LABEL_WITH_DESCRIPTION ? (x.r.description ?? x.r.name) : '';
      return { value: x.mention, label: x.mention, ...(description ? { description } : {}) };
    });
}

export class InputCompletion implements AutocompleteProvider {
  private paths: Promise<PathEntry[]> | undefined;
  /** Paths the user sent with @ lately, newest first. */
  private mentioned: string[] = [];

  constructor(
    private readonly cwd: string,
    /** The menu's entries; `query` is what follows the `/` so far. */
    private readonly commands: (query: string) => readonly CommandInfo[],
    /** The MCP resources `@` completes; `query` is what follows the `@` so far. */
    private readonly resources: (query: string) => readonly McpResourceEntry[] = () => [],
  ) {}

  /** Forget the cached file list (files change between prompts). */
  refresh(): void {
    this.paths = undefined;
  }

  /** A sent prompt's @-mentions rank first in later completions. */
  noteMentions(text: string): void {
    const sent = mentionedPaths(text).map((p) => p.replace(/^\.\//, ''));
    this.mentioned = [...new Set([...sent.reverse(), ...this.mentioned])].slice(0, RECENT_MENTIONS);
  }

  async getSuggestions(
    lines: string[],
    cursorLine: number,
    cursorCol: number,
  ): Promise<AutocompleteSuggestions | null> {
    const before = (lines[cursorLine] ?? '').slice(0, cursorCol);
    const slash = /^\/(\S*)$/.exec(before);
    if (cursorLine === 0 && slash) {
      const items: AutocompleteItem[] = filterCommands(this.commands(slash[1]), slash[1]).map((c) => ({
        value: `/${c.name}`,
        label: `/${c.name}`,
        description: c.aliases.length
          ? `${c.description} (${c.aliases.map((a) => `/${a}`).join(', ')})`
          : c.description,
      }));
      return items.length ? { items, prefix: before } : null;
    }
    const at = /(?:^|\s)@(\S*)$/.exec(before);
    if (at) {
      this.paths ??= listPaths(this.cwd);
      const items: AutocompleteItem[] = matchPaths(await this.paths, at[1], this.mentioned).map((p) => ({
        value: p,
        label: p,
      }));
      items.push(...matchResources(this.resources(at[1]), at[1]));
      return items.length ? { items, prefix: `@${at[1]}` } : null;
    }
    return null;
  }

  applyCompletion(
    lines: string[],
    cursorLine: number,
    cursorCol: number,
    item: AutocompleteItem,
    prefix: string,
  ): { lines: string[]; cursorLine: number; cursorCol: number } {
    const line = lines[cursorLine] ?? '';
    const start = cursorCol - prefix.length;
    const isPath = prefix.startsWith('@');
    // A path with a space is quoted, as `@"my notes.md"` is how a prompt mentions it (promptAttachments.ts).
    const path = /\s/.test(item.value) ? `"${item.value}"` : item.value;
    const insert = isPath ? `@${path}${item.value.endsWith('/') ? '' : ' '}` : item.value;
    const next = [...lines];
    next[cursorLine] = line.slice(0, start) + insert + line.slice(cursorCol);
    return { lines: next, cursorLine, cursorCol: start + insert.length };
  }

  shouldTriggerFileCompletion(lines: string[], cursorLine: number, cursorCol: number): boolean {
    return /(?:^|\s)@\S*$/.test((lines[cursorLine] ?? '').slice(0, cursorCol));
  }
}
