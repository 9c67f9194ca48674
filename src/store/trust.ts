// Workspace trust (docs/ui.md): whether the user trusts a folder, asked once per workspace on the
// first interactive launch. Kept in one small JSON file under the data root so that a folder's
// trust never depends on anything inside the folder itself (a repository cannot trust itself).
import { readFileSync, renameSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { mkdirPrivateSync, writePrivateFileSync } from './privateFiles';

export interface TrustEntry {
  trusted: boolean;
  decidedAt: string;
}

interface TrustFile {
  version: 1;
  workspaces: Record<string, TrustEntry>;
}

export function trustFilePath(home: string): string {
  return join(home, 'trusted_workspaces.json');
}

function readTrustFile(home: string): TrustFile {
  try {
    const parsed = JSON.parse(readFileSync(trustFilePath(home), 'utf8')) as Partial<TrustFile>;
    if (parsed && typeof parsed.workspaces === 'object' && parsed.workspaces)
      return { version: 1, workspaces: parsed.workspaces };
  } catch {
    // missing or unreadable: nothing has been decided yet, so the prompt asks again
  }
  return { version: 1, workspaces: {} };
}

/** The stored decision for this folder, or undefined when the user was never asked. */
export function workspaceTrust(home: string, workDir: string): TrustEntry | undefined {
  return readTrustFile(home).workspaces[resolve(workDir)];
}

export function isWorkspaceTrusted(home: string, workDir: string): boolean {
  return workspaceTrust(home, workDir)?.trusted === true;
}

/** Records the decision (atomically: a crash never leaves a half-written file). */
export function setWorkspaceTrust(home: string, workDir: string, trusted: boolean, now = new Date()): void {
  const file = readTrustFile(home);
  file.workspaces[resolve(workDir)] = { trusted, decidedAt: now.toISOString() };
  const path = trustFilePath(home);
  mkdirPrivateSync(dirname(path));
  const tmp = `${path}.${process.pid}.tmp`;
  writePrivateFileSync(tmp, `${JSON.stringify(file, null, 2)}\n`);
  renameSync(tmp, path);
}
