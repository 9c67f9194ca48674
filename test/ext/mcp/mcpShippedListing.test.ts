// The tool list shipped beside a bundled plugin's server (src/ext/mcp/mcpListingCache.ts): used like a cached
// listing while none is cached, converted the way a live tools/list is, checked like the cache (a bad one is a
// warning, never trusted), and a listing cached from the running server wins over it.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { McpListingCache } from '../../../src/ext/mcp/mcpListingCache';
import { mcpEntry } from '../../helpers/mcpServers';

function setup(listing: string) {
  const dir = mkdtempSync(join(tmpdir(), 'shipped-'));
  const file = join(dir, 'listing.json');
  writeFileSync(file, listing);
  const config = mcpEntry('docs', { scope: 'plugin', shippedListing: file });
  return { cache: new McpListingCache(join(dir, 'home'), '1.0.0'), config, file };
}

const tool = {
  name: 'create_pdf',
  description: 'Creates a PDF.',
  inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
  annotations: { readOnlyHint: false, title: 'Create PDF' },
};

describe('a shipped tool list', () => {
  it('stands in for the cache, converted as a live listing is', () => {
    const { cache, config } = setup(JSON.stringify({ serverInfo: { name: 'docs', version: '1.2' }, tools: [tool] }));
    expect(cache.read(config)).toEqual({
      listing: {
        serverVersion: 'docs 1.2',
        tools: [
          {
            name: 'create_pdf',
            title: 'Create PDF',
            description: 'Creates a PDF.',
            inputSchema: tool.inputSchema,
            readOnly: false,
          },
        ],
      },
    });
  });

  it('a listing cached from the running server wins over it', () => {
    const { cache, config } = setup(JSON.stringify({ tools: [tool] }));
    const live = {
      name: 'live_tool',
      description: 'From the server.',
      inputSchema: { type: 'object' },
      readOnly: true,
    };
    expect(cache.write(config, { tools: [live] })).toBeUndefined();
    expect(cache.read(config)).toEqual({ listing: { tools: [live] } });
  });

  for (const [what, text] of [
    ['not JSON', '{"tools": ['],
    ['no tool list', '{"tool": []}'],
    ['a tool without a name', JSON.stringify({ tools: [{ description: 'x', inputSchema: {} }] })],
    ['a tool without an input schema', JSON.stringify({ tools: [{ name: 'x', description: 'x' }] })],
    ['a tool that is not an object', JSON.stringify({ tools: ['create_pdf'] })],
  ]) {
    it(`with ${what} is a warning naming the file, and the server starts`, () => {
      const { cache, config, file } = setup(text);
      const read = cache.read(config);
      expect(read).toEqual({
        warning: expect.stringContaining(`the tool list shipped with MCP server "docs" (${file})`),
      });
      expect((read as { warning: string }).warning).toContain('the server starts now to list its tools');
    });
  }

  it('without one, a server with nothing cached has no listing', () => {
    const { cache, config } = setup('{}');
    expect(cache.read({ ...config, shippedListing: undefined })).toEqual({ missing: true });
  });
});
