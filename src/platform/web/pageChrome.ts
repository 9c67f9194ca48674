// Page chrome removed before FetchURL reads a page (docs/web-tools.md): navigation, site header and footer,
// asides, cookie banners and ads. Readability drops much of it by itself, but on a short article (under
// its length thresholds) it retries without its "unlikely candidate" filter and keeps the chrome; the
// page walker sees the same document, so both paths get the page without it.

interface ChromeNode {
  tagName: string;
  id: string;
  className: string;
  textContent: string | null;
  getAttribute(name: string): string | null;
  closest(selector: string): ChromeNode | null;
  querySelector(selector: string): ChromeNode | null;
  remove(): void;
}

interface ChromeDocument {
  body: ChromeNode | null;
  querySelectorAll(selector: string): ArrayLike<ChromeNode>;
}

const CONTENT = 'main, article, [role="main"]';
/** Chrome by its element: always (nav, form controls of the site) or outside the content (header…). */
const ALWAYS = new Set(['NAV', 'DIALOG']);
const OUTSIDE_CONTENT = new Set(['HEADER', 'FOOTER', 'ASIDE']);
const ROLES = new Set(['navigation', 'banner', 'contentinfo', 'complementary', 'dialog', 'alertdialog']);
/** Chrome by a class or id token: ads, sponsors, cookie and consent banners, share bars, "related" lists. */
const WHOLE = new RegExp(
  '^(?:ads?|adv|advert\\w*|adsbygoogle|sponsor\\w*|promo\\w*|cookies?|consent|gdpr|newsletter|paywall|sidebar)$',
);
const PREFIX = /^(?:ads?|advert\w*|sponsor\w*|promo|cookies?|consent|gdpr|newsletter|share|social|related|most)[-_]/;
const SUFFIX = /[-_](?:ads?|advert\w*|banner|sponsor\w*|promo|sharing|social)$/;

function isChromeToken(token: string): boolean {
  const t = token.toLowerCase();
  return WHOLE.test(t) || PREFIX.test(t) || SUFFIX.test(t);
}

function looksLikeChrome(node: ChromeNode): boolean {
  const tag = node.tagName.toUpperCase();
  if (ALWAYS.has(tag)) return true;
  const insideContent = node.closest(CONTENT) !== null;
  if (OUTSIDE_CONTENT.has(tag) && !insideContent) return true;
  const role = node.getAttribute('role');
  if (role && ROLES.has(role) && !insideContent) return true;
  return [node.id, ...node.className.split(/\s+/)].some((token) => token !== '' && isChromeToken(token));
}

/**
 * Removes the chrome from `doc` in place. An element holding the page's content (main/article, an h1,
 * or most of the text) is never removed, whatever its class says.
 */
export function dropPageChrome(doc: ChromeDocument): void {
  const bodyText = (doc.body?.textContent ?? '').length;
  for (const node of Array.from(doc.querySelectorAll('body *'))) {
    if (!looksLikeChrome(node)) continue;
    if (node.querySelector(`${CONTENT}, h1`)) continue;
    if ((node.textContent ?? '').length > bodyText / 2) continue;
    node.remove();
  }
}
