// Small file helpers for tests that lay out folders of Markdown (skills, agent files). Temporary folders
// live under the per-test TMPDIR (tempRoot.ts), which is removed after each test.
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export function tempDir(prefix = 'jarvis-files-'): string {
  return realpathSync(mkdtempSync(join(tmpdir(), prefix)));
}

/** Writes `text` to `path`, creating its folders; returns the path. */
export function putFile(path: string, text: string): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}
