// Which URLs a browser tab may show or be driven on (docs/browser.md, "URL policy"): browser-internal
// pages, local files and source views are off limits; http(s) follows the web tools' address rules.

const RESTRICTED_PREFIXES = [
  'chrome:',
  'chrome-extension:',
  'chrome-untrusted:',
  'edge:',
  'devtools:',
  'view-source:',
  'file:',
  'about:',
  'javascript:',
  'data:',
  'blob:',
  'filesystem:',
];

/** Why this tab URL may not be used, or undefined when it may. `about:blank` is allowed. */
export function restrictedUrlReason(url: string): string | undefined {
  if (!url) return 'the tab has no URL';
  const lower = url.trim().toLowerCase();
  if (lower === 'about:blank') return undefined;
  const prefix = RESTRICTED_PREFIXES.find((p) => lower.startsWith(p));
  if (prefix) return `${prefix} pages are not available to browser tools`;
  if (!lower.startsWith('http://') && !lower.startsWith('https://'))
    return 'only http(s) pages and about:blank are allowed';
  return undefined;
}
