// Where the system Chromium is: the browser tools (docs/browser.md) and the bundled jarvis-documents
// plugin's renderer (docs/plugins-official.md) both use the first of these names found on PATH.
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

const CHROMIUM_NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];

export function findChromium(env: NodeJS.ProcessEnv = process.env): string | undefined {
  for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
    for (const name of CHROMIUM_NAMES) {
      const path = join(dir, name);
      try {
        accessSync(path, constants.X_OK);
        return path;
      } catch {
        // not here
      }
    }
  }
  return undefined;
}
