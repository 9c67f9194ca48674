// Where the browser tests save their screenshots (docs/web.md "Screenshots"). Every run takes them, so the code that
// takes them is exercised; they land in docs/web/ (committed, linked from docs/web.md) only with
// JARVIS_UPDATE_SCREENSHOTS=1, and otherwise in a folder under the system's temporary one, so a test run leaves the
// working tree clean.
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const SHOTS =
  process.env.JARVIS_UPDATE_SCREENSHOTS === '1'
    ? join(__dirname, '../../docs/web')
    : join(tmpdir(), `jarvis-web-screenshots-${process.pid}`);
mkdirSync(SHOTS, { recursive: true });
