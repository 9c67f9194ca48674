// htmlToMarkdown from src/ (docs/web-tools.md): which path reads a page, what the page-chrome filter removes
// and what it must keep, and tables as pipe tables. test/cli/fetchUrlPrint.test.ts runs the same on the
// built CLI with whole fixture pages.
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from '../../../src/platform/web/htmlToMarkdown';
import { dropPageChrome } from '../../../src/platform/web/pageChrome';

const PROSE = 'A sentence of the article, long enough for the extractor to count it as real content. ';

function afterChrome(body: string): string {
  const { document } = parseHTML(`<html><body>${body}</body></html>`);
  dropPageChrome(document as unknown as Parameters<typeof dropPageChrome>[0]);
  return document.body.textContent?.replace(/\s+/g, ' ').trim() ?? '';
}

describe('the page-chrome filter', () => {
  it('removes nav, site header/footer/asides, and ads, cookie banners and share bars by class or id', () => {
    const text = afterChrome(`<header>HEAD</header><nav>NAV</nav><div class="cookie-banner">COOKIE</div>
      <div id="top-ad">AD1</div><div class="adsbygoogle">AD2</div><div class="share-buttons">SHARE</div>
      <div class="most-read">MOST</div><main><p>${PROSE}</p></main><aside>ASIDE</aside><footer>FOOT</footer>`);
    expect(text).toBe(PROSE.trim());
  });

  it('keeps a header, footer or aside inside the article, and words that merely contain "ad"', () => {
    const text = afterChrome(`<article><header>By Ana</header><p class="lead shadow">${PROSE}</p>
      <aside>A note</aside><footer>Filed under birds</footer></article><div class="download">Download</div>`);
    expect(text).toContain('By Ana');
    expect(text).toContain('A note');
    expect(text).toContain('Filed under birds');
    expect(text).toContain('Download');
  });

  it('never removes the element that holds the content, whatever its class says', () => {
    expect(afterChrome(`<div class="ad-layout"><article><p>${PROSE}</p></article></div>`)).toBe(PROSE.trim());
    expect(afterChrome(`<div class="sidebar"><h1>Title</h1><p>${PROSE}</p></div>`)).toContain('Title');
    expect(afterChrome(`<div class="promo-page"><p>${PROSE.repeat(3)}</p></div><p>short</p>`)).toContain(PROSE.trim());
  });
});

describe('htmlToMarkdown', () => {
  it('an article: Readability, with the language of code blocks and tables as pipe tables', async () => {
    const page = await htmlToMarkdown(`<html><head><title>T</title></head><body><article><h1>T</h1>
      <p>${PROSE.repeat(3)}</p><pre><code class="language-js">let a = 1;</code></pre>
      <table><tr><th>a|b</th><th>c</th></tr><tr><td>1</td><td><code>x</code>
      y</td></tr></table><p>${PROSE.repeat(2)}</p></article></body></html>`);
    expect(page.method).toBe('readability');
    expect(page.markdown).toContain('```js\nlet a = 1;\n```');
    expect(page.markdown).toContain('| a\\|b | c |\n| --- | --- |\n| 1 | `x` y |');
  });

  it('a page whose text Readability drops is read by the page walker; a near-empty one is stripped', async () => {
    // Readability drops form controls; the walker reads their text.
    const options = Array.from({ length: 12 }, (_, i) => `<option>Option ${i} of a long list</option>`).join('');
    const walked = await htmlToMarkdown(`<html><body><main><select>${options}</select></main></body></html>`);
    expect(walked.method).toBe('walker');
    expect(walked.markdown).toContain('Option 11 of a long list');
    const stripped = await htmlToMarkdown('<html><body><b>hi</b> there</body></html>');
    expect(stripped).toEqual({ title: undefined, markdown: 'hi there', method: 'strip' });
  });
});
