import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';

// End-to-end tests run the bundled binary, so make sure dist/ reflects the sources under test.
// A failed build must not hide the unit tests' results: it removes dist/ so that every end-to-end
// test fails with the build error instead.
export default function setup(): void {
  try {
    execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'pipe' });
  } catch (e) {
    rmSync('dist', { recursive: true, force: true });
    const output = e && typeof e === 'object' && 'stderr' in e ? String((e as { stderr: unknown }).stderr) : String(e);
    process.stderr.write(`\nbuild failed; end-to-end tests will fail:\n${output}\n`);
  }
}
