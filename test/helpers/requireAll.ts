// Tests that need a system part (tmux, a PATH ripgrep, Chromium) skip with a printed reason when it is
// missing — unless JARVIS_TEST_REQUIRE_ALL=1 (CI), where a missing part is a failure.
import { execFileSync } from 'node:child_process';

export function hasCommand(command: string): boolean {
  try {
    execFileSync('bash', ['-c', `command -v ${command}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Returns true when the test may run; false (after printing why) when it should be skipped. */
export function requireSystemPart(command: string, why: string): boolean {
  if (hasCommand(command)) return true;
  if (process.env.JARVIS_TEST_REQUIRE_ALL === '1') {
    throw new Error(`JARVIS_TEST_REQUIRE_ALL=1 but '${command}' is missing (${why}); install it`);
  }
  console.warn(`skipping: '${command}' is not installed (${why})`);
  return false;
}

/** Skips the running test for a reason other than a missing system part, printing the reason first. */
export function skipBecause(ctx: { skip(note?: string): never }, reason: string): never {
  console.warn(`skipping: ${reason}`);
  return ctx.skip(reason);
}
