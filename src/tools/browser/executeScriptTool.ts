// execute_script: `page` evaluates in a tab through CDP (the page's own world: its DOM, globals and
// functions; not blocked by the page's CSP) and is terminated if it overruns; `sandbox` runs in
// QuickJS inside a worker with no host access. Page scripts ask in manual mode, sandbox scripts not.
import { z } from 'zod';
import { restrictedUrlReason } from '../../platform/browser/urlPolicy';
import { defineTool } from '../defineTool';
import { BROWSER_SERVICE, DEFAULT_SCRIPT_TIMEOUT_MS, jsonError, jsonResult } from './browserService';
import description from './executeScript.md';

const schema = z.object({
  code: z.string().refine((c) => c.trim().length > 0, 'code is required'),
  target: z.string().refine((t) => t === 'page' || t === 'sandbox', {
    error: (issue) => `Invalid target "${String(issue.input)}": use "page" or "sandbox"`,
  }),
  tab_id: z.number().int().positive().optional(),
});

async function runInPage(
  args: z.infer<typeof schema>,
  settings: import('./browserService').BrowserToolSettings,
  signal: AbortSignal,
) {
  const page = settings.session.page(args.tab_id);
  const tabId = settings.session.idOf(page);
  const restricted = restrictedUrlReason(page.url());
  if (restricted) return jsonError(`Scripts cannot run in tab ${tabId} (${page.url()}): ${restricted}.`);
  const timeoutMs = settings.pageScriptTimeoutMs ?? DEFAULT_SCRIPT_TIMEOUT_MS;
  // Opened before the script runs: attaching to a page whose thread is busy would never finish.
  const cdp = await page.context().newCDPSession(page);
  const evaluation = page.evaluate(`(async () => {\n${args.code}\n})()`);
  let timer: NodeJS.Timeout | undefined;
  const overrun = new Promise<'timeout' | 'aborted'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
    signal.addEventListener('abort', () => resolve('aborted'), { once: true });
  });
  try {
    const outcome = await Promise.race([evaluation.then((value) => ({ value })), overrun]);
    if (typeof outcome === 'object')
      return jsonResult({ result: outcome.value ?? null, target: 'page', tab_id: tabId });
    evaluation.catch(() => undefined);
    // Stop the runaway script: CDP can interrupt JavaScript even while the page's thread is busy.
    const stopped = await cdp.send('Runtime.terminateExecution').then(
      () => true,
      () => false,
    );
    const what =
      outcome === 'timeout' ? `execute_script timed out after ${timeoutMs / 1000}s` : 'execute_script was cancelled';
    return jsonError(
      stopped ? `${what}; the page script was terminated.` : `${what}; the page script may still be running.`,
    );
  } catch (e) {
    return jsonError(`The page script threw: ${(e as Error).message.split('\n')[0].replace(/^page\.evaluate: /, '')}`);
  } finally {
    clearTimeout(timer);
    void cdp.detach().catch(() => undefined);
  }
}

export const executeScriptTool = defineTool({
  name: 'execute_script',
  services: [BROWSER_SERVICE],
  description,
  constants: { TIMEOUT_S: DEFAULT_SCRIPT_TIMEOUT_MS / 1000 },
  schema,
  readOnly: false,
  defaultApproval: 'ask',
  approvalFor: (args) => (args.target === 'sandbox' ? 'auto' : 'ask'),
  subject: (args) => `execute_script(${args.target})`,
  async execute(args, ctx) {
    const settings = ctx.services.get(BROWSER_SERVICE);
    if (args.target === 'page') {
      try {
        return await runInPage(args, settings, ctx.signal);
      } catch (e) {
        return jsonError((e as Error).message);
      }
    }
    const { runInSandbox } = await import('../../platform/sandbox/quickjsSandbox');
    try {
      const out = await runInSandbox(args.code, { timeoutMs: settings.sandboxTimeoutMs, signal: ctx.signal });
      return jsonResult({
        result: JSON.parse(out.json) as unknown,
        target: 'sandbox',
        ...(out.logs.length ? { logs: out.logs } : {}),
      });
    } catch (e) {
      return jsonError((e as Error).message);
    }
  },
});
