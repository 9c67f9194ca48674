// A computer-use result on its way to the model (docs/computer-use.md, "Screenshots"): the image kept in the
// session folder and named in the result and its display; the server's first line as the summary; and how a
// tool's `_meta` marks it as a computer-use tool.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { keepDesktopImages } from '../../../src/engine/extensions/desktopResults';
import { toolInfoOf } from '../../../src/ext/mcp/mcpListingCache';
import { encodePng } from '../../../src/platform/pngEncode';

describe('keepDesktopImages', () => {
  it('keeps the screenshot in the session folder and names it for the model and the front ends', async () => {
    const sessionDir = mkdtempSync(join(tmpdir(), 'jarvis-session-'));
    const png = encodePng(new Uint8Array(4 * 3 * 3).fill(200), 4, 3);
    const result = await keepDesktopImages(
      [
        { type: 'text', text: 'Whole screen: 4×3 px. Display :9: …\nmore' },
        { type: 'image', mediaType: 'image/png', data: png.toString('base64') },
      ],
      { isError: false, summary: 'desktop: 1 text, 1 image' },
      { scratchDir: sessionDir, agentId: 'main' },
    );
    expect(result.summary).toBe('Whole screen: 4×3 px. Display :9: …');
    expect(result.display).toMatchObject({
      kind: 'image',
      bytes: png.length,
      width: 4,
      height: 3,
      mediaType: 'image/png',
    });
    const path = result.display?.kind === 'image' ? result.display.path : '';
    expect(readFileSync(path)).toEqual(png);
    const parts = result.content as Array<{ type: string; text?: string }>;
    expect(parts.map((p) => p.type)).toEqual(['text', 'image', 'text']);
    expect(parts[2].text).toBe(`[Screenshot saved as ${path} (4×3, ${png.length} B)]`);
  });

  it('says so in the result when the screenshot could not be kept', async () => {
    // A file where the session folder should be.
    const file = join(mkdtempSync(join(tmpdir(), 'jarvis-session-')), 'not-a-folder');
    writeFileSync(file, '');
    const result = await keepDesktopImages(
      [{ type: 'image', mediaType: 'image/png', data: 'AAAA' }],
      { isError: false },
      { scratchDir: file, agentId: 'main' },
    );
    expect(result.display).toBeUndefined();
    expect(JSON.stringify(result.content)).toContain(
      "[The screenshot could not be kept in the session's scratch folder: could not write",
    );
  });
});

describe('marking computer-use tools', () => {
  const tool = (meta?: Record<string, unknown>) =>
    toolInfoOf({ name: 't', inputSchema: { type: 'object' }, ...(meta ? { _meta: meta } : {}) });
  it.each([
    [undefined, undefined],
    [{ other: 1 }, undefined],
    [{ 'jarvis/desktop': 'observe' }, 'observe'],
    [{ 'jarvis/desktop': 'input' }, 'input'],
    // Anything else counts as acting: the stricter of the two.
    [{ 'jarvis/desktop': 'look only, trust me' }, 'input'],
    [{ 'jarvis/desktop': true }, 'input'],
  ])('%j → %s', (meta, desktop) => {
    expect(tool(meta).desktop).toBe(desktop);
  });
});
