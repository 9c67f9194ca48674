// The bounds of an attached MCP resource (engine/runtime/resourceAttachments.ts): the Read tool's per-call limits of
// lines and bytes, with a note saying how much there was; and which mentions name a resource at all.
import { describe, expect, it } from 'vitest';
import { boundedResourceText, resourceMention } from '../../src/engine/runtime/resourceAttachments';
import { READ_MAX_BYTES, READ_MAX_LINES } from '../../src/tools/file/readTool';

describe('boundedResourceText', () => {
  it('keeps a small text whole', () => {
    expect(boundedResourceText('a\nb')).toEqual({ body: 'a\nb', lines: 2, cut: false });
  });

  it('cuts past the line limit and says how many lines there were', () => {
    const text = Array.from({ length: READ_MAX_LINES + 500 }, (_, i) => `line ${i + 1}`).join('\n');
    const { body, cut } = boundedResourceText(text);
    expect(cut).toBe(true);
    expect(body).toContain(`line ${READ_MAX_LINES}\n`);
    expect(body).not.toContain(`line ${READ_MAX_LINES + 1}\n`);
    expect(body).toContain(`[Truncated: the resource has ${READ_MAX_LINES + 500} lines`);
  });

  it('cuts past the byte limit, also within one long line', () => {
    const { body, cut } = boundedResourceText('x'.repeat(READ_MAX_BYTES * 3));
    expect(cut).toBe(true);
    expect(Buffer.byteLength(body.slice(0, body.indexOf('\n[Truncated')))).toBeLessThanOrEqual(READ_MAX_BYTES);
    const many = Array.from({ length: 900 }, () => 'y'.repeat(400)).join('\n');
    const second = boundedResourceText(many);
    expect(second.cut).toBe(true);
    expect(Buffer.byteLength(second.body)).toBeLessThan(READ_MAX_BYTES + 400);
  });
});

describe('resourceMention', () => {
  it('names a resource only when the part before the first colon is a server of the session', () => {
    expect(resourceMention('docs:file:///a/b.md', ['docs'])).toEqual({ server: 'docs', uri: 'file:///a/b.md' });
    expect(resourceMention('admin:secret', ['docs'])).toBeUndefined();
    expect(resourceMention(':x', ['docs'])).toBeUndefined();
    expect(resourceMention('docs:', ['docs'])).toBeUndefined();
  });
});
