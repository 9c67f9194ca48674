// Tests of the command sandbox need bubblewrap that can create namespaces: they skip with the probe's reason
// where it cannot, unless JARVIS_TEST_REQUIRE_ALL=1 (CI), where that is a failure (test/helpers/requireAll.ts).
import { probeBwrap } from '../../src/platform/sandbox/bwrapSandbox';

/** True when the sandbox can run here; false (after printing why) when the caller should skip. */
export function sandboxAvailable(): boolean {
  const probe = probeBwrap();
  if (probe.ok) return true;
  if (process.env.JARVIS_TEST_REQUIRE_ALL === '1') {
    throw new Error(`JARVIS_TEST_REQUIRE_ALL=1 but the command sandbox cannot run: ${probe.reason}`);
  }
  console.warn(`skipping: the command sandbox cannot run here (${probe.reason})`);
  return false;
}
