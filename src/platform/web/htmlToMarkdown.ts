// HTML → the page's main text as Markdown: Readability picks the article out of a linkedom document
// and turndown writes it as Markdown; when Readability finds nothing worth keeping, the page walker
// reads main/article/body instead, and a page with almost no text falls back to plain tag stripping.
// Those two are the only fallbacks (docs/web-tools.md): any other failure of a library is an
// HtmlExtractionError naming it, never a silent strip (docs/testing.md, "no silent catch-all").
// The three libraries load on first use only.
import { commonJsExports } from '../commonJsModule';
import { stripTags, walkToMarkdown, type WalkerNode } from './htmlWalker';
import { markdownWriter } from './markdownWriter';
import { dropPageChrome } from './pageChrome';

/** Below this many characters an extraction is treated as having found nothing. */
export const MIN_EXTRACTED_CHARS = 50;

export interface ExtractedPage {
  title?: string;
  markdown: string;
  method: 'readability' | 'walker' | 'strip';
}

/** A library of the pipeline failed (it could not load, or threw on this page); the message names it. */
export class HtmlExtractionError extends Error {}

interface Libraries {
  parseHTML: typeof import('linkedom').parseHTML;
  Readability: typeof import('@mozilla/readability').Readability;
  TurndownService: typeof import('turndown');
}

/** Runs one library's step; whatever it throws is reported as that library's failure. */
function step<T>(library: string, run: () => T): T {
  try {
    return run();
  } catch (e) {
    throw new HtmlExtractionError(`${library} failed: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
}

function required<T>(value: T | undefined, library: string, name: string): T {
  if (typeof value !== 'function') {
    throw new HtmlExtractionError(`${library} has no export "${name}" (a packaging fault; reinstall Jarvis)`);
  }
  return value;
}

let libraries: Promise<Libraries> | undefined;
function load(): Promise<Libraries> {
  const loading = (library: string, module: Promise<unknown>) =>
    module.catch((e: unknown) => {
      const why = e instanceof Error ? e.message : String(e);
      throw new HtmlExtractionError(`could not load ${library}: ${why}`, { cause: e });
    });
  libraries ??= Promise.all([
    loading('linkedom', import('linkedom')),
    loading('@mozilla/readability', import('@mozilla/readability')),
    loading('turndown', import('turndown')),
  ])
    .then(([linkedom, readability, turndown]) => {
      // linkedom is an ES module; the other two are CommonJS, whose exports sit on `default` in the bundle.
      const readabilityExports = commonJsExports(readability as typeof import('@mozilla/readability'));
      const turndownExports = commonJsExports(turndown as object) as typeof import('turndown');
      return {
        parseHTML: required((linkedom as typeof import('linkedom')).parseHTML, 'linkedom', 'parseHTML'),
        Readability: required(readabilityExports.Readability, '@mozilla/readability', 'Readability'),
        TurndownService: required(turndownExports, 'turndown', 'TurndownService'),
      };
    })
    .catch((e: unknown) => {
      libraries = undefined;
      throw e;
    });
  return libraries;
}

type LinkedomDocument = ReturnType<Libraries['parseHTML']>['document'];

/** The page's document without its chrome (pageChrome.ts). */
function parse(libs: Libraries, html: string): LinkedomDocument {
  const doc = step('linkedom', () => libs.parseHTML(html).document);
  step('the page-chrome filter', () => dropPageChrome(doc as unknown as Parameters<typeof dropPageChrome>[0]));
  return doc;
}

function readable(libs: Libraries, html: string): { title?: string; markdown: string } | undefined {
  const document = parse(libs, html) as unknown as ConstructorParameters<Libraries['Readability']>[0];
  // parse() returns null when it finds no article: the one condition the page walker is there for.
  // keepClasses: turndown reads a code block's language from its `language-*` class.
  const options = { charThreshold: 200, keepClasses: true };
  const article = step('@mozilla/readability', () => new libs.Readability(document, options).parse());
  if (!article?.content) return undefined;
  const content = article.content;
  const converted = step('turndown', () => markdownWriter(libs.TurndownService).turndown(content));
  const markdown = converted.replace(/\n{3,}/g, '\n\n').trim();
  return { title: article.title || undefined, markdown };
}

function walked(libs: Libraries, html: string): { title?: string; markdown: string } {
  const doc = parse(libs, html);
  const root = doc.querySelector('main, article, [role="main"]') ?? doc.body ?? doc.documentElement;
  const walk = () => walkToMarkdown(root as unknown as WalkerNode, { annotate: false });
  const markdown = root ? step('the page walker', walk) : '';
  return { title: doc.title || undefined, markdown };
}

/** Rejects with HtmlExtractionError when a library fails; finding no article is not a failure. */
export async function htmlToMarkdown(html: string): Promise<ExtractedPage> {
  const libs = await load();
  const article = readable(libs, html);
  if (article && article.markdown.length > MIN_EXTRACTED_CHARS) return { ...article, method: 'readability' };
  const page = walked(libs, html);
  if (page.markdown.length > MIN_EXTRACTED_CHARS) return { ...page, method: 'walker' };
  return { title: page.title ?? article?.title, markdown: stripTags(html), method: 'strip' };
}
