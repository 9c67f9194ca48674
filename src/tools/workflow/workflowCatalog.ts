// Where named workflows come from (docs/workflows.md): the built-in ones, then
// `$JARVIS_CODE_HOME/workflows/*.js`, then the project's `.jarvis-code/workflows/*.js`; a later source
// with the same name wins (the project over the user over the built-ins).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUILTIN_WORKFLOWS } from './builtinWorkflows';

export interface WorkflowSource {
  name: string;
  origin: 'built-in' | 'user' | 'project';
  /** The file it was read from (absent for built-ins). */
  path?: string;
  script: string;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

function folderEntries(dir: string, origin: WorkflowSource['origin']): Map<string, () => WorkflowSource> {
  const found = new Map<string, () => WorkflowSource>();
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return found; // no such folder: nothing from this source
  }
  for (const file of names) {
    const name = file.replace(/\.js$/, '');
    if (!file.endsWith('.js') || !NAME.test(name)) continue;
    const path = join(dir, file);
    found.set(name, () => ({ name, origin, path, script: readFileSync(path, 'utf8') }));
  }
  return found;
}

function sources(home: string, cwd: string): Map<string, () => WorkflowSource> {
  const all = new Map<string, () => WorkflowSource>();
  for (const [name, script] of Object.entries(BUILTIN_WORKFLOWS))
    all.set(name, () => ({ name, origin: 'built-in', script }));
  for (const [name, load] of folderEntries(join(home, 'workflows'), 'user')) all.set(name, load);
  for (const [name, load] of folderEntries(join(cwd, '.jarvis-code', 'workflows'), 'project')) all.set(name, load);
  return all;
}

export function workflowNames(home: string, cwd: string): string[] {
  return [...sources(home, cwd).keys()].sort();
}

/** The workflow called `name`, or a message listing the ones that exist. */
export function findWorkflow(name: string, home: string, cwd: string): WorkflowSource | { error: string } {
  const all = sources(home, cwd);
  const load = NAME.test(name) ? all.get(name) : undefined;
  if (!load)
    return {
      error: `There is no workflow named "${name}". Available: ${[...all.keys()].sort().join(', ')}. Or pass an inline script.`,
    };
  try {
    return load();
  } catch (e) {
    return { error: `The workflow "${name}" could not be read: ${(e as Error).message}` };
  }
}
