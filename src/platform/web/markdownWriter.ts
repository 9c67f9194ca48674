// The turndown settings FetchURL's HTML → Markdown uses (docs/web-tools.md): ATX headings, fenced code with
// the language of a `language-*` class, compact list items (`- item`, not `-   item`), fenced blocks for
// a bare <pre>, and tables as GFM pipe tables (turndown itself writes a table as loose lines).
type Turndown = import('turndown');
type TurndownConstructor = typeof import('turndown');
type TurndownNode = Parameters<import('turndown').ReplacementFunction>[1];

interface ElementLike {
  nodeName: string;
  children: ArrayLike<ElementLike>;
  parentNode: ElementLike | null;
  getAttribute(name: string): string | null;
}

const element = (node: TurndownNode) => node as unknown as ElementLike;

/** The table a row belongs to (its parent, or the parent's parent through thead/tbody/tfoot). */
function tableOf(row: ElementLike): ElementLike | null {
  const parent = row.parentNode;
  return parent && parent.nodeName !== 'TABLE' ? parent.parentNode : parent;
}

/** The table's first row, which becomes the header row of the pipe table. */
function firstRow(table: ElementLike): ElementLike | undefined {
  for (const child of Array.from(table.children)) {
    if (child.nodeName === 'TR') return child;
    const row = Array.from(child.children).find((c) => c.nodeName === 'TR');
    if (row) return row;
  }
  return undefined;
}

export function markdownWriter(TurndownService: TurndownConstructor): Turndown {
  const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
  turndown.remove(['script', 'style', 'noscript', 'iframe']);
  turndown.addRule('compactListItem', {
    filter: 'li',
    replacement(content, node) {
      const parent = element(node).parentNode;
      let marker = '- ';
      if (parent?.nodeName === 'OL') {
        const start = Number(parent.getAttribute('start') ?? 1);
        marker = `${start + Array.prototype.indexOf.call(parent.children, node)}. `;
      }
      const body = content
        .replace(/^\n+/, '')
        .replace(/\n+$/, '\n')
        .replace(/\n(?!$)/g, '\n  ');
      return marker + body + (node.nextSibling && !body.endsWith('\n') ? '\n' : '');
    },
  });
  turndown.addRule('barePre', {
    filter: (node) => node.nodeName === 'PRE' && node.firstChild?.nodeName !== 'CODE',
    replacement: (_content, node) => `\n\n\`\`\`\n${(node.textContent ?? '').replace(/\n$/, '')}\n\`\`\`\n\n`,
  });
  turndown.addRule('tableCell', {
    filter: ['th', 'td'],
    replacement: (content) =>
      ` ${content
        .replace(/\s*\n+\s*/g, ' ')
        .trim()
        .replace(/\|/g, '\\|')} |`,
  });
  turndown.addRule('tableRow', {
    filter: 'tr',
    replacement(content, node) {
      const row = element(node);
      const table = tableOf(row);
      const cells = Array.from(row.children).filter((c) => c.nodeName === 'TH' || c.nodeName === 'TD').length;
      const header = table && firstRow(table) === row ? `\n|${' --- |'.repeat(cells)}` : '';
      return `\n|${content}${header}`;
    },
  });
  turndown.addRule('tableSection', { filter: ['thead', 'tbody', 'tfoot'], replacement: (content) => content });
  turndown.addRule('table', { filter: 'table', replacement: (content) => `\n\n${content.trim()}\n\n` });
  return turndown;
}
