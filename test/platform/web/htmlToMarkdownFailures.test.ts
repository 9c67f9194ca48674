// htmlToMarkdown takes a fallback only for the condition it exists for (docs/web-tools.md); a library that
// cannot load, lacks its export or throws is an HtmlExtractionError naming it, and FetchURL hands that
// to the model as an error instead of a tag-stripped page.
import { afterEach, describe, expect, it, vi } from 'vitest';

const ARTICLE = `<html><head><title>Notes</title></head><body><nav>NAV-LINKS</nav><article><h1>Notes</h1>
<p>${'A sentence of the article that Readability should keep as the main content. '.repeat(6)}</p>
<h2>More</h2><p>${'Another sentence, so that the article has more than one paragraph to score. '.repeat(4)}</p>
</article></body></html>`;

async function importFresh() {
  vi.resetModules();
  return import('../../../src/platform/web/htmlToMarkdown');
}

afterEach(() => {
  vi.doUnmock('@mozilla/readability');
  vi.doUnmock('turndown');
});

describe('htmlToMarkdown failures are named, never stripped silently', () => {
  it('a library that cannot load says which, and the next call tries again', async () => {
    // The real Readability, whatever an earlier test mocked (vitest keeps a mocked module's result).
    vi.doMock('@mozilla/readability', () => vi.importActual('@mozilla/readability'));
    vi.doMock('turndown', () => {
      throw new Error('turndown is missing');
    });
    const { htmlToMarkdown } = await importFresh();
    await expect(htmlToMarkdown(ARTICLE)).rejects.toThrow(/^could not load turndown: /);
    vi.doUnmock('turndown');
    expect((await htmlToMarkdown(ARTICLE)).method).toBe('readability');
  });

  it("a CommonJS package whose exports sit only on `default` (the bundle's shape) still works", async () => {
    const real = await vi.importActual<typeof import('@mozilla/readability')>('@mozilla/readability');
    vi.doMock('@mozilla/readability', () => ({ default: { Readability: real.Readability } }));
    const { htmlToMarkdown } = await importFresh();
    const page = await htmlToMarkdown(ARTICLE);
    expect(page.method).toBe('readability');
    expect(page.markdown).toMatch(/^## More$/m);
    expect(page.markdown).not.toContain('NAV-LINKS');
  });

  it('a package without the export it needs is a packaging fault naming the library and the export', async () => {
    vi.doMock('@mozilla/readability', () => ({ default: { isProbablyReaderable: () => true } }));
    const { htmlToMarkdown, HtmlExtractionError } = await importFresh();
    const failure = htmlToMarkdown(ARTICLE);
    await expect(failure).rejects.toBeInstanceOf(HtmlExtractionError);
    const message = '@mozilla/readability has no export "Readability" (a packaging fault; reinstall Jarvis)';
    await expect(failure).rejects.toThrow(message);
  });

  it('Readability throwing on a page is its error, not the tag-strip fallback', async () => {
    class Broken {
      parse(): never {
        throw new TypeError('cannot read properties of undefined');
      }
    }
    vi.doMock('@mozilla/readability', () => ({ Readability: Broken, default: { Readability: Broken } }));
    const { htmlToMarkdown } = await importFresh();
    const message = '@mozilla/readability failed: cannot read properties of undefined';
    await expect(htmlToMarkdown(ARTICLE)).rejects.toThrow(message);
  });

  it('turndown throwing is named as turndown', async () => {
    vi.doMock('turndown', () => ({
      default: class {
        remove() {}
        addRule() {}
        turndown(): never {
          throw new RangeError('bad node');
        }
      },
    }));
    const { htmlToMarkdown } = await importFresh();
    await expect(htmlToMarkdown(ARTICLE)).rejects.toThrow('turndown failed: bad node');
  });

  it('FetchURL gives the model the failure with the URL and the library', async () => {
    vi.doMock('@mozilla/readability', () => ({ default: {} }));
    vi.resetModules();
    const { startFixtureServer, serve } = await import('../../helpers/fixtureServer');
    const { makeToolHarness } = await import('../../helpers/toolHarness');
    const { fetchUrlTool } = await import('../../../src/tools/web/fetchUrlTool');
    const { WEB_SERVICE } = await import('../../../src/tools/web');
    const site = await startFixtureServer({ '/a.html': serve(ARTICLE, 'text/html') });
    try {
      const h = makeToolHarness();
      h.register(WEB_SERVICE, { allowPrivateNetwork: true });
      const r = await h.run(fetchUrlTool, { url: `${site.url}/a.html` });
      expect(r.isError).toBe(true);
      const failure = '@mozilla/readability has no export "Readability" (a packaging fault; reinstall Jarvis)';
      expect(r.text).toBe(`Could not turn the HTML of ${site.url}/a.html into text: ${failure}`);
      expect(r.text).not.toContain('NAV-LINKS');
    } finally {
      await site.close();
    }
  });
});
