// Computer-use screenshots kept in the session's scratch folder (docs/computer-use.md, "Screenshots"): each image
// the desktop tools return is saved as `screenshots/<agent>-<stamp>.png` (0600, in a 0700 folder, named uniquely as
// saved tool outputs are), so front ends can show it by path and the user can look at it later. The folder is
// bounded: after each save the oldest files go until at most MAX_SCREENSHOTS files and MAX_SCREENSHOT_BYTES remain.
// Sandboxed commands may write the scratch folder, so every write and removal goes through ownedFiles.ts: a link
// planted where the folder or a file should be is refused, never followed.
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { mkdirBelow, removeBelow, writeFileBelow } from './ownedFiles';
import { fsReason, PRIVATE_FILE_MODE } from './privateFiles';
import { nextStamp } from './toolOutputs';

export const SCREENSHOTS_DIR = 'screenshots';
export const MAX_SCREENSHOTS = 200;
export const MAX_SCREENSHOT_BYTES = 64 * 1024 * 1024;

/** `sweepError`: the image was saved, but older ones could not be removed. */
export type SavedScreenshot = { path: string; swept: number; sweepError?: string } | { error: string };

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
};

/** A size for people: `812 B`, `143 KB`, `2.4 MB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** Saves one image; never throws (a full disk or a read-only folder comes back as `error`). */
export async function saveScreenshot(
  scratchDir: string,
  agentId: string,
  image: Uint8Array,
  mediaType: string,
  bounds = { files: MAX_SCREENSHOTS, bytes: MAX_SCREENSHOT_BYTES },
): Promise<SavedScreenshot> {
  const dir = join(scratchDir, SCREENSHOTS_DIR);
  const agent = agentId.replace(/[^A-Za-z0-9_-]/g, '_') || 'agent';
  const name = `${agent}-${nextStamp()}.${EXTENSIONS[mediaType] ?? 'img'}`;
  const path = join(dir, name);
  try {
    mkdirBelow(scratchDir, SCREENSHOTS_DIR);
    writeFileBelow(scratchDir, join(SCREENSHOTS_DIR, name), image, { exclusive: true, mode: PRIVATE_FILE_MODE });
  } catch (e) {
    return { error: `could not write ${path} (${fsReason(e)})` };
  }
  try {
    return { path, swept: await sweep(scratchDir, bounds) };
  } catch (e) {
    return { path, swept: 0, sweepError: `older screenshots in ${dir} could not be removed (${fsReason(e)})` };
  }
}

/** Removes the oldest screenshots beyond the bounds; the newest one always stays. */
async function sweep(scratchDir: string, bounds: { files: number; bytes: number }): Promise<number> {
  const dir = join(scratchDir, SCREENSHOTS_DIR);
  const names = (await readdir(dir)).filter((n) => /^[A-Za-z0-9_-]+-\d+-\d+-\d+\.[a-z]+$/.test(n));
  // Oldest first: the stamp starts with the time in milliseconds.
  const stamp = (n: string) =>
    n
      .slice(n.search(/-\d+-\d+-\d+\./) + 1)
      .split('.')[0]
      .split('-')
      .map(Number);
  names.sort((a, b) => {
    const [x, y] = [stamp(a), stamp(b)];
    return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
  });
  // A file another session's sweep removed meanwhile counts as nothing.
  const sizeOf = (n: string) =>
    lstat(join(dir, n)).then(
      (s) => s.size,
      (e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? 0 : Promise.reject(e)),
    );
  const sizes = await Promise.all(names.map(sizeOf));
  let total = sizes.reduce((a, b) => a + b, 0);
  let count = names.length;
  let removed = 0;
  for (let i = 0; i < names.length - 1 && (count > bounds.files || total > bounds.bytes); i++) {
    removeBelow(scratchDir, join(SCREENSHOTS_DIR, names[i]));
    total -= sizes[i];
    count--;
    removed++;
  }
  return removed;
}
