// The WebBridge page tools when the browser is reached through the Jarvis WebBridge extension
// (docs/plugins-official.md): the same names and arguments as the CDP ones (tabTools.ts,
// getTabContentTool.ts, executeScriptTool.ts) plus screenshot. Each is one request to the extension,
// which decides what the agent may touch (the tabs it opened or the user shared) and reports tab closes.
import { z } from 'zod';
import { restrictedUrlReason } from '../../platform/browser/urlPolicy';
import { defineTool, serviceKey, type Tool, type ToolContext } from '../defineTool';
import activateText from './activateTab.md';
import { DEFAULT_SCRIPT_TIMEOUT_MS, jsonError, jsonResult } from './browserService';
import closeText from './closeTab.md';
import executeText from './executeScript.md';
import listText from './extensionListTabs.md';
import { readExpression } from './getTabContentTool';
import readText from './getTabContent.md';
import openText from './openTab.md';
import screenshotText from './screenshot.md';

/** One request to the extension; rejects with a message for the model (tab closed, not shared, …). */
export interface ExtensionChannel {
  call(method: string, params: Record<string, unknown>, signal: AbortSignal): Promise<unknown>;
}
export const EXTENSION_SERVICE = serviceKey<ExtensionChannel>()('webbridgeExtension');

interface TabInfo {
  id: number;
  url: string;
  title: string;
  active: boolean;
}

const tabId = z.number().int().positive();
type Ctx = ToolContext<typeof EXTENSION_SERVICE>;
const ask = <T>(ctx: Ctx, method: string, params: Record<string, unknown> = {}) =>
  ctx.services.get(EXTENSION_SERVICE).call(method, params, ctx.signal) as Promise<T>;

/** Runs a request; an extension's refusal or a lost connection becomes the tool's error. */
async function answer<T>(work: () => Promise<T>, shape: (v: T) => { content: string; summary?: string }) {
  try {
    return shape(await work());
  } catch (e) {
    return jsonError((e as Error).message);
  }
}

function pattern(text: string | undefined, name: string): RegExp | undefined {
  if (text === undefined) return undefined;
  try {
    return new RegExp(text, 'i');
  } catch {
    throw new Error(`Invalid ${name} regex: "${text}"`);
  }
}

const listTabs = defineTool({
  name: 'list_tabs',
  services: [EXTENSION_SERVICE],
  description: listText,
  schema: z.object({
    url_pattern: z.string().optional(),
    title_pattern: z.string().optional(),
    active: z.boolean().optional(),
  }),
  readOnly: true,
  defaultApproval: 'auto',
  execute: (args, ctx) =>
    answer(
      async () => {
        const url = pattern(args.url_pattern, 'url_pattern');
        const title = pattern(args.title_pattern, 'title_pattern');
        return (await ask<TabInfo[]>(ctx, 'list_tabs')).filter(
          (t) => (!url || url.test(t.url)) && (!title || title.test(t.title)) && (args.active ?? t.active) === t.active,
        );
      },
      (tabs) => jsonResult(tabs, `${tabs.length} tabs`),
    ),
});

const openTab = defineTool({
  name: 'open_tab',
  services: [EXTENSION_SERVICE],
  description: openText,
  constants: { LOAD_WAIT_S: 30 },
  schema: z.object({
    url: z.string().trim().min(1, 'url is required'),
    tab_id: tabId.optional(),
    active: z.boolean().optional(),
    wait_until_loaded: z.boolean().optional(),
  }),
  readOnly: false,
  defaultApproval: 'ask',
  subject: (args) => `open_tab(${args.url})`,
  async execute(args, ctx) {
    const restricted = restrictedUrlReason(args.url);
    if (restricted) return jsonError(`Cannot open ${args.url}: ${restricted}.`);
    return answer(
      () => ask<TabInfo>(ctx, 'open_tab', args),
      (tab) => jsonResult(tab, `Opened tab ${tab.id}`),
    );
  },
});

const closeTab = defineTool({
  name: 'close_tab',
  services: [EXTENSION_SERVICE],
  description: closeText,
  schema: z.object({ tab_id: tabId }),
  readOnly: false,
  defaultApproval: 'auto',
  execute: (args, ctx) =>
    answer(
      () => ask(ctx, 'close_tab', args),
      (r) => jsonResult(r, `Closed tab ${args.tab_id}`),
    ),
});

const activateTab = defineTool({
  name: 'activate_tab',
  services: [EXTENSION_SERVICE],
  description: activateText,
  schema: z.object({ tab_id: tabId }),
  readOnly: false,
  defaultApproval: 'auto',
  execute: (args, ctx) =>
    answer(
      () => ask<TabInfo>(ctx, 'activate_tab', args),
      (tab) => jsonResult(tab),
    ),
});

/** `tab_id`, else the active tab among the ones the agent may use. */
async function targetTab(ctx: Ctx, id: number | undefined): Promise<number> {
  if (id !== undefined) return id;
  const active = (await ask<TabInfo[]>(ctx, 'list_tabs')).find((t) => t.active);
  if (!active) throw new Error('No tab_id given and none of your tabs is active: pass tab_id (see list_tabs).');
  return active.id;
}

interface Evaluation {
  value?: unknown;
  threw?: string;
  url: string;
}

const getTabContent = defineTool({
  name: 'get_tab_content',
  services: [EXTENSION_SERVICE],
  description: readText,
  schema: z.object({
    tab_id: tabId,
    selector: z.string().trim().min(1).optional(),
    max_length: z.number().int().positive().optional(),
  }),
  readOnly: true,
  defaultApproval: 'auto',
  execute: (args, ctx) =>
    answer(
      async () => {
        const out = await ask<Evaluation>(ctx, 'evaluate', {
          tab_id: args.tab_id,
          expression: readExpression(args.selector),
        });
        if (out.threw) throw new Error(`Could not read tab ${args.tab_id}: ${out.threw}`);
        const restricted = restrictedUrlReason(out.url);
        if (restricted) throw new Error(`Tab ${args.tab_id} (${out.url}) cannot be read: ${restricted}.`);
        const read = out.value as { missing?: boolean; content?: string; html?: string; url: string; title: string };
        const whole = read.missing ? `Element not found: ${args.selector}` : (read.html ?? read.content ?? '');
        const cut = args.max_length !== undefined && whole.length > args.max_length;
        return {
          tab_id: args.tab_id,
          url: read.url,
          title: read.title,
          content: cut ? whole.slice(0, args.max_length) : whole,
          truncated: cut,
          used_selector: args.selector ?? null,
        };
      },
      (r) => jsonResult(r, `Read tab ${args.tab_id} (${r.content.length} characters)`),
    ),
});

const executeScript = defineTool({
  name: 'execute_script',
  services: [EXTENSION_SERVICE],
  description: executeText,
  constants: { TIMEOUT_S: DEFAULT_SCRIPT_TIMEOUT_MS / 1000 },
  schema: z.object({
    code: z.string().refine((c) => c.trim().length > 0, 'code is required'),
    target: z.string().refine((t) => t === 'page' || t === 'sandbox', {
      error: (issue) => `Invalid target "${String(issue.input)}": use "page" or "sandbox"`,
    }),
    tab_id: tabId.optional(),
  }),
  readOnly: false,
  defaultApproval: 'ask',
  approvalFor: (args) => (args.target === 'sandbox' ? 'auto' : 'ask'),
  subject: (args) => `execute_script(${args.target})`,
  async execute(args, ctx) {
    if (args.target === 'sandbox') {
      const { runInSandbox } = await import('../../platform/sandbox/quickjsSandbox');
      return answer(
        () => runInSandbox(args.code, { timeoutMs: DEFAULT_SCRIPT_TIMEOUT_MS, signal: ctx.signal }),
        (out) =>
          jsonResult({
            result: JSON.parse(out.json) as unknown,
            target: 'sandbox',
            ...(out.logs.length ? { logs: out.logs } : {}),
          }),
      );
    }
    return answer(
      () => runInPage(ctx, args.code, args.tab_id),
      (r) => jsonResult(r),
    );
  },
});

/** A page script, stopped (Runtime.terminateExecution in the extension) when it overruns. */
async function runInPage(ctx: Ctx, code: string, id: number | undefined) {
  const tab = await targetTab(ctx, id);
  let timer: NodeJS.Timeout | undefined;
  const overrun = new Promise<'timeout'>(
    (resolve) => (timer = setTimeout(() => resolve('timeout'), DEFAULT_SCRIPT_TIMEOUT_MS)),
  );
  const run = ask<Evaluation>(ctx, 'evaluate', { tab_id: tab, expression: `(async () => {\n${code}\n})()` });
  try {
    const out = await Promise.race([run, overrun]);
    if (out === 'timeout') {
      run.catch(() => undefined);
      await ask(ctx, 'terminate', { tab_id: tab });
      throw new Error(
        `execute_script timed out after ${DEFAULT_SCRIPT_TIMEOUT_MS / 1000}s; the page script was terminated.`,
      );
    }
    if (out.threw) throw new Error(`The page script threw: ${out.threw}`);
    return { result: out.value ?? null, target: 'page', tab_id: tab };
  } finally {
    clearTimeout(timer);
  }
}

const screenshot = defineTool({
  name: 'screenshot',
  services: [EXTENSION_SERVICE],
  description: screenshotText,
  schema: z.object({ tab_id: tabId, full_page: z.boolean().optional() }),
  readOnly: true,
  defaultApproval: 'auto',
  async execute(args, ctx) {
    try {
      const shot = await ask<{ data: string; mime_type: string; url: string }>(ctx, 'screenshot', args);
      return {
        content: [
          { type: 'text', text: `Screenshot of tab ${args.tab_id} (${shot.url})` },
          { type: 'image', mediaType: shot.mime_type, data: shot.data },
        ],
        summary: `Screenshot of tab ${args.tab_id}`,
      };
    } catch (e) {
      return jsonError((e as Error).message);
    }
  },
});

export const extensionPageTools: Tool[] = [
  listTabs,
  openTab,
  closeTab,
  activateTab,
  getTabContent,
  executeScript,
  screenshot,
];
