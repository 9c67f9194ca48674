// Saved tool outputs (docs/sessions.md "What is kept on disk"): the full text of an output too long for
// the model, in the session scratch folder's `tool-outputs/`. Names are unique by construction — the agent's
// id, this process's monotonic counter and its pid — never the provider's call id, which some
// providers number per response (`functions.Bash:0`) and which subagents sharing the folder repeat.
// A file is created exclusively (never over another) and 0600; files older than the retention are
// swept when a session of the folder opens. Sandboxed commands may write the scratch folder, so nothing
// below it is followed if it is a link (ownedFiles.ts), for a save and for the sweep alike.
import { createHash } from 'node:crypto';
import { lstat, readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { mkdirBelow, readFileBelow, removeBelow, writeFileBelow } from './ownedFiles';
import { SCRATCH, sessionScratchDir } from './paths';
import { fsReason } from './privateFiles';

export const TOOL_OUTPUTS_DIR = SCRATCH.toolOutputs;
/** Saved outputs older than this are removed (the model is told where its output is only in that turn). */
export const TOOL_OUTPUT_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

let lastMs = 0;
let sequence = 0;

/** Strictly increasing within this process, whatever the clock does: `<ms>-<seq>-<pid>`, unique across processes. */
export function nextStamp(): string {
  const now = Date.now();
  if (now > lastMs) {
    lastMs = now;
    sequence = 0;
  } else {
    sequence++;
  }
  return `${lastMs}-${sequence}-${process.pid}`;
}

export function toolOutputsDir(scratchDir: string): string {
  return join(scratchDir, TOOL_OUTPUTS_DIR);
}

/** A fresh, unused name for one output of `agentId` (`main`, a subagent's id). */
export function newToolOutputPath(scratchDir: string, agentId: string): string {
  const agent = agentId.replace(/[^A-Za-z0-9_-]/g, '_') || 'agent';
  return join(toolOutputsDir(scratchDir), `${agent}-${nextStamp()}.txt`);
}

/**
 * `text` with the path of every saved output of `scratchDir` it names replaced by a digest of what that file
 * holds: two results that saved the same output to different files read the same, two that saved different
 * outputs do not (the loop's repeat limit compares results this way; engine/loop/turnLimits.ts). Commands may write
 * the scratch folder, so a named file is read without following a link and only if it is a regular file.
 */
export function savedOutputIdentity(text: string, scratchDir: string): string {
  const dir = `${toolOutputsDir(scratchDir)}/`;
  if (!text.includes(dir)) return text;
  const name = /^[A-Za-z0-9_-]+-\d+-\d+-\d+\.txt/;
  let out = '';
  let from = 0;
  for (let at = text.indexOf(dir); at >= 0; at = text.indexOf(dir, at + dir.length)) {
    const match = name.exec(text.slice(at + dir.length));
    if (!match) continue;
    out += `${text.slice(from, at)}<saved output ${digestOf(scratchDir, join(TOOL_OUTPUTS_DIR, match[0]))}>`;
    from = at + dir.length + match[0].length;
  }
  return out + text.slice(from);
}

function digestOf(scratchDir: string, rel: string): string {
  try {
    return `sha256:${createHash('sha256').update(readFileBelow(scratchDir, rel)).digest('hex')}`;
  } catch (e) {
    return `unreadable (${fsReason(e)})`;
  }
}

export type SavedToolOutput = { path: string } | { error: string };

/**
 * Saves `text` under a new name. Never throws: a full disk, a read-only folder, a file where the
 * folder should be or a link planted on the way comes back as `error`, in words the model and the user can act on.
 */
export async function saveToolOutput(scratchDir: string, agentId: string, text: string): Promise<SavedToolOutput> {
  const path = newToolOutputPath(scratchDir, agentId);
  try {
    writeFileBelow(scratchDir, relative(scratchDir, path), text, { exclusive: true, makeDirs: true });
    return { path };
  } catch (e) {
    return { error: `could not write ${path} (${fsReason(e)})` };
  }
}

/** Makes the scratch folder's `tool-outputs/` (for a writer that streams into it). */
export function ensureToolOutputsDir(scratchDir: string): void {
  mkdirBelow(scratchDir, TOOL_OUTPUTS_DIR);
}

/**
 * Removes saved outputs older than `maxAgeMs` in every session folder under `sessionsDir` (one work
 * directory's sessions). Only regular files directly in a real `tool-outputs/` folder go: a link there (or a
 * linked folder) is left alone and never followed. Returns how many went and what could not be removed.
 */
export async function sweepToolOutputs(
  sessionsDir: string,
  now = Date.now(),
  maxAgeMs = TOOL_OUTPUT_RETENTION_MS,
): Promise<{ removed: number; failures: string[] }> {
  const failures: string[] = [];
  let removed = 0;
  const sessions = await readdir(sessionsDir).catch((e: NodeJS.ErrnoException) => {
    if (e.code !== 'ENOENT') failures.push(`could not list ${sessionsDir} (${fsReason(e)})`);
    return [] as string[];
  });
  for (const session of sessions) {
    const scratch = sessionScratchDir(join(sessionsDir, session));
    const dir = toolOutputsDir(scratch);
    // Most sessions never saved an output (no folder); a session entry that is a file has none either.
    const folder = await lstat(dir).catch(() => undefined);
    if (!folder?.isDirectory()) continue;
    const names = await readdir(dir).catch((e: NodeJS.ErrnoException) => {
      failures.push(`could not list ${dir} (${fsReason(e)})`);
      return [] as string[];
    });
    for (const name of names) {
      const file = join(dir, name);
      try {
        const info = await lstat(file);
        if (!info.isFile() || now - info.mtimeMs <= maxAgeMs) continue;
        removeBelow(scratch, relative(scratch, file));
        removed++;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') failures.push(`could not remove ${file} (${fsReason(e)})`);
      }
    }
  }
  return { removed, failures };
}
