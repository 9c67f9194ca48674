// .prettierignore (its own header says what it keeps): our TypeScript and JavaScript is formatted wherever it lives. Its `/plugins/`
// entry means the top-level folder of marketplace data only; an unanchored `plugins/` also skipped src/ext/plugins,
// src/plugins, src/ui/plugins and their tests.
import { resolve } from 'node:path';
import { getFileInfo } from 'prettier';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../..');
const ignored = async (file: string) =>
  (await getFileInfo(resolve(ROOT, file), { ignorePath: resolve(ROOT, '.prettierignore') })).ignored;

describe('.prettierignore', () => {
  it.each([
    'src/ext/plugins/manifest.ts',
    'src/plugins/jarvis-documents/server.ts',
    'src/ui/plugins/pluginsPanel.ts',
    'test/ext/plugins/manifest.test.ts',
    'test/plugins/webbridge.test.ts',
  ])('formats %s', async (file) => {
    expect(await ignored(file)).toBe(false);
  });

  it.each(['plugins/marketplace.json', 'test/fixtures/lsp/lsp-recorder.mjs', 'docs/lsp.md', 'dist/jarvis.js'])(
    'leaves %s as it is',
    async (file) => {
      expect(await ignored(file)).toBe(true);
    },
  );
});
