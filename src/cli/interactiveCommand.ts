// TEMPORARY until the UI lands (helper-5 replaces this file).
import type { MainOptions } from './program';

export async function runInteractiveCommand(_options: MainOptions): Promise<number> {
  process.stderr.write('jarvis: the interactive UI is being built; use jarvis -p "<task>" meanwhile.\n');
  return 1;
}
