// Markdown of the model's text, drawn from marked's lexer tokens into DOM nodes made here (docs/web.md "Model text
// is hostile"). No HTML from the text is ever parsed: an HTML block or inline tag is shown as text, and a link
// becomes an anchor only for http(s) and mailto, opened with rel="noopener noreferrer"; images are shown as their
// alt text and address, never loaded (a tracking pixel could tell a third party the page was read).
import { Lexer, type Token, type Tokens } from 'marked';
import { h, type Child } from '../dom';

const SAFE_LINK = /^(https?:|mailto:)/i;

function link(href: string, children: Child[], title?: string | null): Child {
  let url: URL | undefined;
  try {
    url = new URL(href, 'http://invalid.invalid/');
  } catch {
    url = undefined;
  }
  if (!url || !SAFE_LINK.test(href.trim()) || !SAFE_LINK.test(url.protocol))
    return h('span', { class: 'md-link-off' }, children, ` (${href})`);
  return h('a', { href: url.href, rel: 'noopener noreferrer', target: '_blank', title: title ?? undefined }, children);
}

function inline(tokens: Token[] | undefined): Child[] {
  return (tokens ?? []).map((t): Child => {
    switch (t.type) {
      case 'text':
      case 'escape':
        return 'tokens' in t && t.tokens?.length ? inline(t.tokens) : (t as Tokens.Text).text;
      case 'strong':
        return h('strong', null, inline((t as Tokens.Strong).tokens));
      case 'em':
        return h('em', null, inline((t as Tokens.Em).tokens));
      case 'del':
        return h('del', null, inline((t as Tokens.Del).tokens));
      case 'codespan':
        return h('code', null, (t as Tokens.Codespan).text);
      case 'br':
        return h('br');
      case 'link': {
        const l = t as Tokens.Link;
        return link(l.href, inline(l.tokens), l.title);
      }
      case 'image': {
        const i = t as Tokens.Image;
        return h('span', { class: 'md-image' }, `[image: ${i.text || 'no description'}] `, link(i.href, [i.href]));
      }
      case 'html':
        return (t as Tokens.HTML).text;
      default:
        return 'raw' in t ? String(t.raw) : '';
    }
  });
}

function block(t: Token): Child {
  switch (t.type) {
    case 'space':
      return null;
    case 'heading': {
      const x = t as Tokens.Heading;
      const level = Math.min(6, Math.max(3, x.depth + 2)) as 3 | 4 | 5 | 6;
      return h(`h${level}`, null, inline(x.tokens));
    }
    case 'paragraph':
      return h('p', null, inline((t as Tokens.Paragraph).tokens));
    case 'text': {
      const x = t as Tokens.Text;
      return h('p', null, x.tokens ? inline(x.tokens) : x.text);
    }
    case 'code': {
      const x = t as Tokens.Code;
      const lang = (x.lang ?? '').split(/\s/)[0];
      return h(
        'figure',
        { class: 'md-code' },
        lang ? h('figcaption', null, lang) : null,
        h('pre', { tabindex: 0, 'aria-label': lang ? `${lang} code` : 'code' }, h('code', null, x.text)),
      );
    }
    case 'blockquote':
      return h('blockquote', null, (t as Tokens.Blockquote).tokens.map(block));
    case 'list': {
      const x = t as Tokens.List;
      // A tight list's items hold bare text: drawn inline, not as paragraphs.
      const inItem = (c: Token): Child =>
        c.type === 'text' && !x.loose ? inline((c as Tokens.Text).tokens ?? [c]) : block(c);
      const items = x.items.map((it) =>
        h(
          'li',
          null,
          it.task
            ? h('input', { type: 'checkbox', disabled: true, checked: it.checked === true, 'aria-label': 'task' })
            : null,
          it.tokens.map(inItem),
        ),
      );
      return x.ordered
        ? h('ol', { start: typeof x.start === 'number' ? x.start : undefined }, items)
        : h('ul', null, items);
    }
    case 'table': {
      const x = t as Tokens.Table;
      return h(
        'div',
        { class: 'md-table' },
        h(
          'table',
          null,
          h(
            'thead',
            null,
            h(
              'tr',
              null,
              x.header.map((c) => h('th', null, inline(c.tokens))),
            ),
          ),
          h(
            'tbody',
            null,
            x.rows.map((r) =>
              h(
                'tr',
                null,
                r.map((c) => h('td', null, inline(c.tokens))),
              ),
            ),
          ),
        ),
      );
    }
    case 'hr':
      return h('hr');
    case 'html':
      // Raw HTML in the model's text is shown as the text it is.
      return h('pre', { class: 'md-html' }, (t as Tokens.HTML).text);
    default:
      return 'raw' in t ? h('p', null, String(t.raw)) : null;
  }
}

export function markdown(text: string): HTMLElement {
  let tokens: Token[];
  try {
    tokens = new Lexer({ gfm: true }).lex(text);
  } catch {
    return h('div', { class: 'md' }, h('p', null, text));
  }
  return h('div', { class: 'md' }, tokens.map(block));
}
