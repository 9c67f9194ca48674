// get_tab_content: the live page → Markdown with selector annotations, computed inside the page by
// the same walker FetchURL uses (so selectors match the real DOM, after the page's own scripts ran).
import { z } from 'zod';
import { restrictedUrlReason } from '../../platform/browser/urlPolicy';
import { walkToMarkdown } from '../../platform/web/htmlWalker';
import { defineTool } from '../defineTool';
import { BROWSER_SERVICE, jsonError, jsonResult } from './browserService';
import description from './getTabContent.md';
import { answerPrompt, SUMMARY_SERVICE } from './pageSummary';

/** At most this long a read waits for a page that is still loading. */
const READY_WAIT_MS = 5_000;
/** An annotated extraction this short is replaced by the element's HTML (the reference behaviour). */
const TINY_EXTRACTION_CHARS = 20;

interface PageRead {
  missing?: boolean;
  content?: string;
  html?: string;
  url: string;
  title: string;
}

export function readExpression(selector: string | undefined): string {
  return `(() => {
    const walk = ${walkToMarkdown.toString()};
    const selector = ${JSON.stringify(selector ?? null)};
    const root = selector === null ? document.documentElement : document.querySelector(selector);
    if (!root) return { missing: true, url: location.href, title: document.title };
    const content = walk(root, { annotate: true });
    if (content.length > ${TINY_EXTRACTION_CHARS}) return { content, url: location.href, title: document.title };
    const copy = root.cloneNode(true);
    copy.querySelectorAll('script, style, noscript, svg, iframe, link[rel=stylesheet]').forEach((n) => n.remove());
    return { content, html: copy.outerHTML, url: location.href, title: document.title };
  })()`;
}

export const getTabContentTool = defineTool({
  name: 'get_tab_content',
  services: [BROWSER_SERVICE],
  optionalServices: [SUMMARY_SERVICE],
  description,
  schema: z.object({
    tab_id: z.number().int().positive(),
    selector: z.string().trim().min(1).optional(),
    prompt: z.string().trim().min(1).optional(),
    max_length: z.number().int().positive().optional(),
  }),
  readOnly: true,
  defaultApproval: 'auto',
  async execute(args, ctx) {
    const { session } = ctx.services.get(BROWSER_SERVICE);
    let page;
    try {
      page = session.page(args.tab_id);
    } catch (e) {
      return jsonError((e as Error).message);
    }
    const restricted = restrictedUrlReason(page.url());
    if (restricted) return jsonError(`Tab ${args.tab_id} (${page.url()}) cannot be read: ${restricted}.`);
    await page.waitForLoadState('load', { timeout: READY_WAIT_MS }).catch(() => undefined);
    let read: PageRead;
    try {
      read = (await page.evaluate(readExpression(args.selector))) as PageRead;
    } catch (e) {
      const message = (e as Error).message.split('\n')[0];
      return jsonError(
        /not a valid selector|SyntaxError/i.test(message)
          ? `Invalid selector "${args.selector}": ${message}`
          : `Could not read tab ${args.tab_id}: ${message}`,
      );
    }
    const base = { tab_id: args.tab_id, url: read.url, title: read.title };
    if (read.missing)
      return jsonResult({
        ...base,
        content: `Element not found: ${args.selector}`,
        truncated: false,
        used_selector: args.selector,
      });
    const whole = read.html ?? read.content ?? '';
    // max_length limits what is read (and so what a summary is made of); a summary is complete.
    const cut = args.max_length !== undefined && whole.length > args.max_length;
    let answer;
    try {
      answer = await answerPrompt(
        ctx.services.find(SUMMARY_SERVICE),
        args.prompt,
        cut ? whole.slice(0, args.max_length) : whole,
        cut,
        ctx.signal,
      );
    } catch (e) {
      if (ctx.signal.aborted) throw e;
      return jsonError((e as Error).message);
    }
    return jsonResult(
      { ...base, content: answer.content, truncated: answer.truncated, used_selector: args.selector ?? null },
      `Read tab ${args.tab_id} (${answer.content.length} characters${args.prompt ? ', summarised' : ''})`,
    );
  },
});
