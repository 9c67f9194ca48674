// Completion for the input box: `/` at the start opens the command menu (live-filtered, aliases
// match too); `@` completes paths — tracked and untracked-but-not-ignored files from `git ls-files`
// inside a repository, a bounded folder walk elsewhere. Folders end with `/`; `.git` never appears.
import { execFile } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { AutocompleteItem, AutocompleteProvider, AutocompleteSuggestions } from '@mariozechner/pi-tui';

export interface CommandInfo {
  name: string;
  aliases: string[];
  description: string;
}

const MAX_PATH_ITEMS = 50;
const WALK_LIMIT = 20_000;
const WALK_SKIP = new Set(['.git', 'node_modules']);

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

function gitFiles(cwd: string): Promise<string[] | undefined> {
  return new Promise((resolve) => {
    execFile('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd, maxBuffer: 64 * 1024 * 1024 }, (err, stdout) => {
      if (err) resolve(undefined);
      else resolve(stdout.split('\0').filter(Boolean));
    });
  });
}

async function walkFiles(root: string): Promise<string[]> {
  const out: string[] = [];
  const queue = [''];
  while (queue.length && out.length < WALK_LIMIT) {
    const rel = queue.shift()!;
    let entries;
    try {
      entries = await readdir(join(root, rel), { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      if (WALK_SKIP.has(e.name)) continue;
      const path = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) queue.push(path);
      else out.push(path);
    }
  }
  return out;
}

/** Every file and folder (folders with a trailing `/`) below `cwd`, `.git` excluded. */
export async function listPaths(cwd: string): Promise<string[]> {
  const files = (await gitFiles(cwd)) ?? (await walkFiles(cwd));
  const dirs = new Set<string>();
  for (const f of files) {
    const parts = f.split('/');
    for (let i = 1; i < parts.length; i++) dirs.add(`${parts.slice(0, i).join('/')}/`);
  }
  return [...dirs, ...files].filter((p) => p !== '.git/' && !p.startsWith('.git/')).sort();
}

export function matchPaths(paths: readonly string[], query: string): string[] {
  const q = query.toLowerCase();
  const scored: Array<{ p: string; s: number }> = [];
  for (const p of paths) {
    const lower = p.toLowerCase();
    const base = lower.endsWith('/') ? lower.slice(0, -1).split('/').pop()! : lower.split('/').pop()!;
    let s = -1;
    if (!q) s = p.split('/').filter(Boolean).length + (p.endsWith('/') ? 0 : 0.5);
    else if (lower.startsWith(q)) s = 0;
    else if (base.startsWith(q)) s = 1;
    else if (lower.includes(q)) s = 2;
    if (s >= 0) scored.push({ p, s: s * 1000 + p.length });
  }
  return scored.sort((a, b) => a.s - b.s || a.p.localeCompare(b.p)).slice(0, MAX_PATH_ITEMS).map((x) => x.p);
}

export class InputCompletion implements AutocompleteProvider {
  private paths: Promise<string[]> | undefined;

  constructor(private readonly cwd: string, private readonly commands: () => readonly CommandInfo[]) {}

  /** Forget the cached file list (files change between prompts). */
  refresh(): void {
    this.paths = undefined;
  }

  async getSuggestions(lines: string[], cursorLine: number, cursorCol: number): Promise<AutocompleteSuggestions | null> {
    const before = (lines[cursorLine] ?? '').slice(0, cursorCol);
    const slash = /^\/(\S*)$/.exec(before);
    if (cursorLine === 0 && slash) {
      const items: AutocompleteItem[] = filterCommands(this.commands(), slash[1]).map((c) => ({
        value: `/${c.name}`,
        label: `/${c.name}`,
        description: c.aliases.length ? `${c.description} (${c.aliases.map((a) => `/${a}`).join(', ')})` : c.description,
      }));
      return items.length ? { items, prefix: before } : null;
    }
    const at = /(?:^|\s)@(\S*)$/.exec(before);
    if (at) {
      this.paths ??= listPaths(this.cwd);
      const items = matchPaths(await this.paths, at[1]).map((p) => ({ value: p, label: p }));
      return items.length ? { items, prefix: `@${at[1]}` } : null;
    }
    return null;
  }

  applyCompletion(lines: string[], cursorLine: number, cursorCol: number, item: AutocompleteItem, prefix: string): { lines: string[]; cursorLine: number; cursorCol: number } {
    const line = lines[cursorLine] ?? '';
    const start = cursorCol - prefix.length;
    const isPath = prefix.startsWith('@');
    const insert = isPath ? `@${item.value}${item.value.endsWith('/') ? '' : ' '}` : item.value;
    const next = [...lines];
    next[cursorLine] = line.slice(0, start) + insert + line.slice(cursorCol);
    return { lines: next, cursorLine, cursorCol: start + insert.length };
  }

  shouldTriggerFileCompletion(lines: string[], cursorLine: number, cursorCol: number): boolean {
    return /(?:^|\s)@\S*$/.test((lines[cursorLine] ?? '').slice(0, cursorCol));
  }
}
