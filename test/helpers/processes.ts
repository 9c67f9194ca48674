// Process checks for tests: whether a command the code under test started is still running.
import { execFileSync } from 'node:child_process';

/** How many processes have exactly `command` as their command line (pgrep -f -x). */
export function processesRunning(command: string): number {
  try {
    return execFileSync('pgrep', ['-f', '-x', command], { encoding: 'utf8' }).trim().split('\n').filter(Boolean).length;
  } catch {
    return 0; // pgrep exits 1 when nothing matches
  }
}
