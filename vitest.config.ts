import { readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

// Tool descriptions live in .md files beside the code; load them as plain strings like esbuild does.
const markdownAsText = {
  name: 'markdown-as-text',
  enforce: 'pre' as const,
  load(id: string) {
    if (!id.endsWith('.md')) return null;
    return `export default ${JSON.stringify(readFileSync(id, 'utf8'))};`;
  },
};

export default defineConfig({
  plugins: [markdownAsText],
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/helpers/globalSetup.ts'],
    // Per-test temporary folders, removed after each test.
    setupFiles: ['test/helpers/tempRoot.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
