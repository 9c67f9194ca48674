// Process checks for tests: whether a command the code under test started is still running.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** How many processes have exactly `command` as their command line (pgrep -f -x). */
export function processesRunning(command: string): number {
  try {
    return execFileSync('pgrep', ['-f', '-x', command], { encoding: 'utf8' }).trim().split('\n').filter(Boolean).length;
  } catch {
    return 0; // pgrep exits 1 when nothing matches
  }
}

/** True while process `pid` runs (a zombie waiting for its parent to reap it does not run). */
export function pidRunning(pid: number): boolean {
  try {
    return !/^\S+ \(.*\) [ZX] /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}
