// list_tabs, open_tab, close_tab, activate_tab (docs/browser.md): thin wrappers over BrowserSession.
import { z } from 'zod';
import { restrictedUrlReason } from '../../platform/browser/urlPolicy';
import { WINDOW_ID } from '../../platform/browser/browserSession';
import { defineTool, type ToolContext } from '../defineTool';
import activateText from './activateTab.md';
import { BROWSER_SERVICE, DEFAULT_LOAD_WAIT_MS, jsonError, jsonResult } from './browserService';
import closeText from './closeTab.md';
import listText from './listTabs.md';
import openText from './openTab.md';

const tabId = z.number().int().positive();

function browser(ctx: ToolContext<typeof BROWSER_SERVICE>) {
  return ctx.services.get(BROWSER_SERVICE);
}

function regex(pattern: string | undefined, name: string): RegExp | undefined {
  if (pattern === undefined) return undefined;
  try {
    return new RegExp(pattern, 'i');
  } catch {
    throw new Error(`Invalid ${name} regex: "${pattern}"`);
  }
}

export const listTabsTool = defineTool({
  name: 'list_tabs',
  services: [BROWSER_SERVICE],
  description: listText,
  schema: z.object({
    url_pattern: z.string().optional(),
    title_pattern: z.string().optional(),
    active: z.boolean().optional(),
  }),
  readOnly: true,
  defaultApproval: 'auto',
  async execute(args, ctx) {
    let urlRe: RegExp | undefined;
    let titleRe: RegExp | undefined;
    try {
      urlRe = regex(args.url_pattern, 'url_pattern');
      titleRe = regex(args.title_pattern, 'title_pattern');
    } catch (e) {
      return jsonError((e as Error).message);
    }
    const tabs = (await browser(ctx).session.list()).filter(
      (t) =>
        (!urlRe || urlRe.test(t.url)) &&
        (!titleRe || titleRe.test(t.title)) &&
        (args.active === undefined || t.active === args.active),
    );
    return jsonResult(tabs, `${tabs.length} tabs`);
  },
});

export const openTabTool = defineTool({
  name: 'open_tab',
  services: [BROWSER_SERVICE],
  description: openText,
  constants: { LOAD_WAIT_S: DEFAULT_LOAD_WAIT_MS / 1000 },
  schema: z.object({
    url: z.string().trim().min(1, 'url is required'),
    tab_id: tabId.optional(),
    active: z.boolean().optional(),
    window_id: z.number().int().optional(),
    wait_until_loaded: z.boolean().optional(),
  }),
  readOnly: false,
  defaultApproval: 'ask',
  subject: (args) => `open_tab(${args.url})`,
  async execute(args, ctx) {
    const b = browser(ctx);
    const restricted = restrictedUrlReason(args.url);
    if (restricted) return jsonError(`Cannot open ${args.url}: ${restricted}.`);
    if (args.window_id !== undefined && args.window_id !== WINDOW_ID)
      return jsonError(`Window ${args.window_id} not found (the browser has one window, id ${WINDOW_ID}).`);
    const refused = await b.session.checkUrl(args.url);
    if (refused) return jsonError(refused);
    const wait = args.wait_until_loaded ?? true;
    const target =
      args.tab_id === undefined ? await b.session.newTab() : { id: args.tab_id, page: b.session.page(args.tab_id) };
    try {
      await target.page.goto(args.url, {
        waitUntil: wait ? 'load' : 'commit',
        timeout: b.loadWaitMs ?? DEFAULT_LOAD_WAIT_MS,
      });
    } catch (e) {
      const message = (e as Error).message.split('\n')[0];
      // Like the reference behaviour: a page that is slow to finish loading is not an error.
      if (!/Timeout .* exceeded/i.test(message)) return jsonError(`Could not open ${args.url}: ${message}`);
    }
    if (args.tab_id === undefined && (args.active ?? true)) b.session.activate(target.id);
    const tab = (await b.session.list()).find((t) => t.id === target.id);
    if (!tab) return jsonError(`Tab ${target.id} closed while loading.`);
    return args.tab_id === undefined
      ? jsonResult(
          { id: tab.id, url: tab.url, title: tab.title, windowId: tab.windowId, index: tab.index },
          `Opened ${tab.url}`,
        )
      : jsonResult({ id: tab.id, url: tab.url, title: tab.title, status: tab.status }, `Navigated tab ${tab.id}`);
  },
});

export const closeTabTool = defineTool({
  name: 'close_tab',
  services: [BROWSER_SERVICE],
  description: closeText,
  schema: z.object({ tab_id: tabId }),
  readOnly: false,
  defaultApproval: 'auto',
  async execute(args, ctx) {
    let page;
    try {
      page = browser(ctx).session.page(args.tab_id);
    } catch (e) {
      return jsonError((e as Error).message);
    }
    await page.close();
    return jsonResult({ success: true, tab_id: args.tab_id }, `Closed tab ${args.tab_id}`);
  },
});

export const activateTabTool = defineTool({
  name: 'activate_tab',
  services: [BROWSER_SERVICE],
  description: activateText,
  schema: z.object({ tab_id: tabId }),
  readOnly: true,
  defaultApproval: 'auto',
  async execute(args, ctx) {
    const session = browser(ctx).session;
    try {
      const page = session.activate(args.tab_id);
      await page.bringToFront();
      return jsonResult({
        id: args.tab_id,
        url: page.url(),
        title: await page.title(),
        active: true,
        windowId: WINDOW_ID,
      });
    } catch (e) {
      return jsonError((e as Error).message);
    }
  },
});
