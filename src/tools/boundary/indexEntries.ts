// How the workspace index (workspaceIndex.ts) reads one entry of a folder: a secret to hide (the list the file tools
// refuse, docs/approvals.md "Sensitive files"), a link to one, a git entry whose code runs later, a folder to walk, or
// nothing of interest. Version-control folders and node_modules are not walked (docs/trust-boundary.md "Secrets").
import { lstatSync, realpathSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { isSensitiveEntry, VCS_DIRS } from '../file/sensitivePaths';

export type EntryKind = 'dir' | 'file' | 'link' | 'other';

export type EntryClass = 'git' | 'secret' | 'secret-link' | 'descend' | 'plain';

/** Folders the index does not walk: version control (git's own are guarded as git entries) and installed packages. */
const NOT_WALKED = new Set([...VCS_DIRS, 'node_modules']);

export function classifyEntry(parentName: string, name: string, kind: EntryKind, path: string): EntryClass {
  if (name === '.git' && kind !== 'other') return 'git';
  if (isSensitiveEntry(parentName, name)) return 'secret';
  if (kind === 'dir') return NOT_WALKED.has(name) ? 'plain' : 'descend';
  if (kind === 'link' && linksToSecret(path)) return 'secret-link';
  return 'plain';
}

/** A symbolic link whose target is a secret file by name (`notes.txt -> .env`, `k -> ~/.ssh/id_rsa`). */
function linksToSecret(path: string): boolean {
  try {
    const target = realpathSync(path);
    return lstatSync(target).isFile() && isSensitiveEntry(basename(dirname(target)), basename(target));
  } catch {
    return false; // dangling, or a loop: nothing readable behind it
  }
}
