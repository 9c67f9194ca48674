// Per-directory prompt history (docs/ui.md): one JSONL file per working directory under
// user-history/, one `{"text": …}` line per submitted prompt or shell command, oldest first.
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { userHistoryPath } from './paths';
import { appendPrivateFileSync, mkdirPrivateSync } from './privateFiles';

/** How many entries the input box keeps for ↑/↓ browsing. */
export const HISTORY_LIMIT = 500;

export interface HistoryEntry {
  text: string;
  ts?: number;
}

/** The entries of `workDir`, oldest first, at most `limit`. Unreadable lines are skipped. */
export function loadUserHistory(home: string, workDir: string, limit = HISTORY_LIMIT): string[] {
  let raw: string;
  try {
    raw = readFileSync(userHistoryPath(home, workDir), 'utf8');
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const line of raw.split('\n')) {
    if (!line.trim()) continue;
    try {
      const entry = JSON.parse(line) as HistoryEntry;
      if (typeof entry.text === 'string' && entry.text.trim() && out[out.length - 1] !== entry.text)
        out.push(entry.text);
    } catch {
      // a torn last line (crash mid-append) loses only itself
    }
  }
  return out.slice(-limit);
}

/** Appends one entry; consecutive duplicates are kept out by the reader. */
export function appendUserHistory(home: string, workDir: string, text: string, now = Date.now()): void {
  if (!text.trim()) return;
  const path = userHistoryPath(home, workDir);
  mkdirPrivateSync(dirname(path));
  appendPrivateFileSync(path, `${JSON.stringify({ text, ts: now } satisfies HistoryEntry)}\n`);
}
