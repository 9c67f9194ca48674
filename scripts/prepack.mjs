// Runs around `npm pack` / `npm publish` (see docs/distribution.md). Before: builds dist/ and writes
// npm-shrinkwrap.json from package-lock.json, so an install of the package gets exactly the versions
// the tests ran with (npm installs only the non-dev entries of a dependency's shrinkwrap). After
// (--clean): removes the shrinkwrap again; package-lock.json stays the one lock file of the checkout.
import { execFileSync } from 'node:child_process';
import { copyFileSync, rmSync } from 'node:fs';

const SHRINKWRAP = 'npm-shrinkwrap.json';

if (process.argv.includes('--clean')) {
  rmSync(SHRINKWRAP, { force: true });
} else {
  execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
  copyFileSync('package-lock.json', SHRINKWRAP);
}
