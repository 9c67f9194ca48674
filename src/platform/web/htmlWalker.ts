// The page walker (docs/web-tools.md): a DOM element → readable Markdown, optionally with selector
// annotations (`<!-- div.card -->`) that a model can reuse in scripts. It is one self-contained
// function on purpose: the browser tools pass it to the live page (page.evaluate serialises its
// source), and FetchURL runs it on a linkedom document when Readability finds no article.

/** The DOM surface the walker uses; both linkedom and a real page provide it. */
export interface WalkerNode {
  nodeType: number;
  textContent: string | null;
  childNodes: ArrayLike<WalkerNode>;
  tagName?: string;
  id?: string;
  parentElement?: WalkerNode | null;
  getAttribute?(name: string): string | null;
  classList?: ArrayLike<string>;
}

export interface WalkOptions {
  /** Emit selector comments before headings and block containers (and keep nav/header/footer/aside). */
  annotate: boolean;
}

export function walkToMarkdown(root: WalkerNode, options: WalkOptions): string {
  // Reading an article drops the page chrome; annotating a live page keeps it (menus are operable).
  const DROP = new Set([
    'HEAD',
    'SCRIPT',
    'STYLE',
    'SVG',
    'NOSCRIPT',
    'IFRAME',
    'TEMPLATE',
    ...(options.annotate ? [] : ['NAV', 'HEADER', 'FOOTER', 'ASIDE']),
  ]);
  const BLOCK_GAP = new Set(['DIV', 'SECTION', 'BLOCKQUOTE', 'TABLE', 'FIGURE', 'ARTICLE', 'MAIN']);
  const ANNOTATED = new Set(['DIV', 'SECTION', 'ARTICLE', 'MAIN']);
  const lines: string[] = [];
  const tag = (n: WalkerNode) => (n.tagName ?? '').toUpperCase();
  const text = (n: WalkerNode) => (n.textContent ?? '').replace(/\s+/g, ' ').trim();
  const own = (n: WalkerNode) => {
    const name = tag(n).toLowerCase();
    if (n.id) return `#${n.id}`;
    const classes = Array.from(n.classList ?? []).slice(0, 2);
    return classes.length ? `${name}.${classes.join('.')}` : name;
  };
  const selectorOf = (n: WalkerNode) => {
    const parent = n.parentElement;
    if (!parent || ['HTML', 'BODY'].includes(tag(parent)) || n.id) return own(n);
    return `${own(parent)} > ${own(n)}`;
  };
  const inline = (n: WalkerNode): string => {
    if (n.nodeType === 3) return (n.textContent ?? '').replace(/\s+/g, ' ');
    if (n.nodeType !== 1 || DROP.has(tag(n))) return '';
    const t = tag(n);
    const inner = () => Array.from(n.childNodes).map(inline).join('');
    if (t === 'A') {
      const label = inner().trim();
      const href = n.getAttribute?.('href') ?? '';
      return !href || /^javascript:/i.test(href) || !label ? label : `[${label}](${href})`;
    }
    if (t === 'CODE') return `\`${text(n)}\``;
    if (t === 'STRONG' || t === 'B') return `**${inner().trim()}**`;
    if (t === 'EM' || t === 'I') return `*${inner().trim()}*`;
    if (t === 'BR') return '\n';
    return inner();
  };
  const isInlineOnly = (n: WalkerNode): boolean =>
    Array.from(n.childNodes).every(
      (c) =>
        c.nodeType !== 1 ||
        ([
          'A',
          'CODE',
          'STRONG',
          'B',
          'EM',
          'I',
          'SPAN',
          'BR',
          'SMALL',
          'SUB',
          'SUP',
          'ABBR',
          'TIME',
          'MARK',
          'LABEL',
          'IMG',
        ].includes(tag(c)) &&
          isInlineOnly(c)),
    );
  const walk = (n: WalkerNode, listDepth: number): void => {
    if (n.nodeType === 3) {
      const t = (n.textContent ?? '').trim();
      if (t) lines.push(t);
      return;
    }
    if (n.nodeType !== 1) return;
    const t = tag(n);
    if (DROP.has(t)) return;
    const heading = /^H([1-6])$/.exec(t);
    if (heading) {
      const content = text(n);
      if (!content) return;
      const note = options.annotate ? ` <!-- ${selectorOf(n)} -->` : '';
      lines.push('', `${'#'.repeat(Number(heading[1]))} ${content}${note}`, '');
      return;
    }
    if (t === 'PRE') {
      lines.push('', '```', (n.textContent ?? '').replace(/\n+$/, ''), '```', '');
      return;
    }
    if (t === 'HR') {
      lines.push('', '---', '');
      return;
    }
    if (t === 'BR') {
      lines.push('');
      return;
    }
    if (t === 'LI') {
      const indent = '  '.repeat(Math.max(0, listDepth - 1));
      if (isInlineOnly(n)) {
        lines.push(`${indent}- ${inline(n).replace(/\s+/g, ' ').trim()}`);
        return;
      }
      const first = lines.length;
      for (const c of Array.from(n.childNodes)) walk(c, listDepth);
      const firstText = lines.findIndex((l, i) => i >= first && l.trim() !== '');
      if (firstText >= 0) lines[firstText] = `${indent}- ${lines[firstText].trim()}`;
      return;
    }
    if (t === 'UL' || t === 'OL') {
      lines.push('');
      for (const c of Array.from(n.childNodes)) walk(c, listDepth + 1);
      lines.push('');
      return;
    }
    if (
      t === 'P' ||
      (isInlineOnly(n) &&
        ['A', 'CODE', 'STRONG', 'B', 'EM', 'I', 'SPAN', 'TD', 'TH', 'DT', 'DD', 'FIGCAPTION', 'LABEL'].includes(t))
    ) {
      const content = inline(n)
        .replace(/[ \t]+/g, ' ')
        .replace(/ ?\n ?/g, '\n')
        .trim();
      if (content) lines.push(...(t === 'P' ? ['', content, ''] : [content]));
      return;
    }
    if (options.annotate && ANNOTATED.has(t) && text(n)) lines.push(`<!-- ${selectorOf(n)} -->`);
    if (t === 'TR') {
      const cells = Array.from(n.childNodes)
        .filter((c) => c.nodeType === 1)
        .map((c) => text(c));
      if (cells.some(Boolean)) lines.push(`| ${cells.join(' | ')} |`);
      return;
    }
    for (const c of Array.from(n.childNodes)) walk(c, listDepth);
    if (BLOCK_GAP.has(t)) lines.push('');
  };
  walk(root, 0);
  return lines
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Crude fallback: drop script/style blocks, every tag becomes a space, whitespace collapses. */
export function stripTags(html: string): string {
  return html
    .replace(/<(script|style|noscript)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}
