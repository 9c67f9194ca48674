// The folder of the installed jarvis-code package (where package.json, dist/ and plugins/ are). The code
// runs from dist/jarvis.js, from a chunk in dist/chunks/, or from src/ in a checkout, so the folder is
// found by walking up to the package.json that names this package rather than by a fixed "../..".
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_NAME = 'jarvis-code';
let cached: string | undefined;

export function packageRoot(): string {
  if (cached) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === PACKAGE_NAME)
          return (cached = dir);
      } catch {
        // an unreadable package.json on the way up is not ours; keep walking
      }
    }
    const parent = dirname(dir);
    if (parent === dir)
      throw new Error(
        `Could not find the ${PACKAGE_NAME} package folder above ${fileURLToPath(import.meta.url)}; reinstall Jarvis.`,
      );
    dir = parent;
  }
}
