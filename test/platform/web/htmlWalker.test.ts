import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { stripTags, walkToMarkdown, type WalkerNode } from '../../../src/platform/web/htmlWalker';

function walk(html: string, annotate: boolean): string {
  const { document } = parseHTML(html);
  return walkToMarkdown(document.documentElement as unknown as WalkerNode, { annotate });
}

const PAGE = `<html><head><title>T</title><style>.a{}</style></head><body>
<nav id="menu"><a href="/home">Home</a></nav>
<h1 id="top">Welcome</h1>
<div class="card big extra"><h2>Card title</h2><p>Card text with <a href="javascript:void(0)">a fake link</a> and <a href="/real">a real one</a>.</p></div>
<section id="list"><ul><li>one</li><li>two <code>x()</code></li></ul></section>
<div class="empty"></div>
<pre>line 1
line 2</pre><hr><script>alert(1)</script></body></html>`;

describe('walkToMarkdown', () => {
  it('annotates headings and block containers with selectors, parent-prefixed below body', () => {
    expect(walk(PAGE, true)).toBe(
      [
        '[Home](/home)',
        '',
        '# Welcome <!-- #top -->',
        '',
        '<!-- div.card.big -->',
        '',
        '## Card title <!-- div.card.big > h2 -->',
        '',
        'Card text with a fake link and [a real one](/real).',
        '',
        '<!-- #list -->',
        '',
        '- one',
        '- two `x()`',
        '',
        '```',
        'line 1',
        'line 2',
        '```',
        '',
        '---',
      ].join('\n'),
    );
  });

  it('without annotations it drops navigation and writes plain Markdown; the head never appears', () => {
    const text = walk(PAGE, false);
    expect(text).not.toContain('Home');
    expect(text).not.toContain('<!--');
    expect(text).not.toMatch(/^T$/m);
    expect(text).toContain('# Welcome');
    expect(text).not.toContain('alert');
  });

  it('stripTags drops scripts and styles, every tag becomes a space, entities decoded', () => {
    expect(stripTags('<style>x{}</style><p>a&amp;b</p><script>evil()</script><b>c</b>')).toBe('a&b c');
  });
});
