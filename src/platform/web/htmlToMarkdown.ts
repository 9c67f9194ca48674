// HTML → the page's main text as Markdown: Readability picks the article out of a linkedom document
// and turndown writes it as Markdown; when Readability finds nothing worth keeping, the page walker
// reads main/article/body instead, and a page with almost no text falls back to plain tag stripping.
// The three libraries load on first use only.
import { stripTags, walkToMarkdown, type WalkerNode } from './htmlWalker';

/** Below this many characters an extraction is treated as having found nothing. */
export const MIN_EXTRACTED_CHARS = 50;

export interface ExtractedPage {
  title?: string;
  markdown: string;
  method: 'readability' | 'walker' | 'strip';
}

interface Libraries {
  parseHTML: typeof import('linkedom').parseHTML;
  Readability: typeof import('@mozilla/readability').Readability;
  TurndownService: typeof import('turndown');
}

let libraries: Promise<Libraries> | undefined;
function load(): Promise<Libraries> {
  libraries ??= Promise.all([import('linkedom'), import('@mozilla/readability'), import('turndown')]).then(([linkedom, readability, turndown]) => ({
    parseHTML: linkedom.parseHTML,
    Readability: readability.Readability,
    TurndownService: (turndown as unknown as { default: typeof import('turndown') }).default ?? turndown,
  }));
  return libraries;
}

type LinkedomDocument = ReturnType<Libraries['parseHTML']>['document'];

function parse(libs: Libraries, html: string): LinkedomDocument {
  return libs.parseHTML(html).document;
}

function readable(libs: Libraries, html: string): { title?: string; markdown: string } | undefined {
  const article = new libs.Readability(parse(libs, html) as unknown as ConstructorParameters<Libraries['Readability']>[0], { charThreshold: 200 }).parse();
  if (!article?.content) return undefined;
  const turndown = markdownWriter(libs);
  const markdown = turndown.turndown(article.content).replace(/\n{3,}/g, '\n\n').trim();
  return { title: article.title ?? undefined, markdown };
}

type TurndownNode = Parameters<import('turndown').ReplacementFunction>[1] & { parentNode: HTMLLike | null };
interface HTMLLike {
  nodeName: string;
  children: ArrayLike<unknown>;
  getAttribute(name: string): string | null;
}

/** turndown with compact list items (`- item`, not `-   item`) and fenced blocks for bare <pre>. */
function markdownWriter(libs: Libraries): import('turndown') {
  const turndown = new libs.TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
  turndown.remove(['script', 'style', 'noscript', 'iframe']);
  turndown.addRule('compactListItem', {
    filter: 'li',
    replacement(content, node) {
      const item = node as TurndownNode;
      const parent = item.parentNode;
      let marker = '- ';
      if (parent?.nodeName === 'OL') {
        const start = Number(parent.getAttribute('start') ?? 1);
        marker = `${start + Array.prototype.indexOf.call(parent.children, item)}. `;
      }
      const body = content.replace(/^\n+/, '').replace(/\n+$/, '\n').replace(/\n(?!$)/g, '\n  ');
      return marker + body + (item.nextSibling && !body.endsWith('\n') ? '\n' : '');
    },
  });
  turndown.addRule('barePre', {
    filter: (node) => node.nodeName === 'PRE' && node.firstChild?.nodeName !== 'CODE',
    replacement: (_content, node) => `\n\n\`\`\`\n${(node.textContent ?? '').replace(/\n$/, '')}\n\`\`\`\n\n`,
  });
  return turndown;
}

function walked(libs: Libraries, html: string): { title?: string; markdown: string } {
  const doc = parse(libs, html);
  const root = doc.querySelector('main, article, [role="main"]') ?? doc.body ?? doc.documentElement;
  return { title: doc.title || undefined, markdown: root ? walkToMarkdown(root as unknown as WalkerNode, { annotate: false }) : '' };
}

export async function htmlToMarkdown(html: string): Promise<ExtractedPage> {
  const libs = await load();
  try {
    const article = readable(libs, html);
    if (article && article.markdown.length > MIN_EXTRACTED_CHARS) return { ...article, method: 'readability' };
    const page = walked(libs, html);
    if (page.markdown.length > MIN_EXTRACTED_CHARS) return { ...page, method: 'walker' };
    return { title: page.title ?? article?.title, markdown: stripTags(html), method: 'strip' };
  } catch {
    return { markdown: stripTags(html), method: 'strip' };
  }
}
