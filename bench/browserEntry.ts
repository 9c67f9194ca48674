// Bundled by bench/browser.bench.mjs: browser start-up to the first get_tab_content through the tools,
// and the same through bare playwright-core (launch, goto, page.content()).
import { chromium } from 'playwright-core';
import { BrowserSession, findChromium } from '../src/platform/browser/browserSession';
import { BROWSER_SERVICE } from '../src/tools/browser/browserService';
import { getTabContentTool } from '../src/tools/browser/getTabContentTool';
import { openTabTool } from '../src/tools/browser/tabTools';
import { makeToolHarness } from '../test/helpers/toolHarness';

export async function toolsToFirstContent(url: string): Promise<number> {
  const t = process.hrtime.bigint();
  const session = new BrowserSession({});
  const h = makeToolHarness();
  h.register(BROWSER_SERVICE, { session });
  const opened = JSON.parse((await h.run(openTabTool, { url })).text) as { id: number };
  const read = await h.run(getTabContentTool, { tab_id: opened.id });
  if (read.isError) throw new Error(read.text);
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  await session.close();
  return ms;
}

export async function bareToFirstContent(url: string): Promise<number> {
  const t = process.hrtime.bigint();
  const browser = await chromium.launch({
    executablePath: findChromium(),
    headless: true,
    args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
  });
  const page = await (await browser.newContext()).newPage();
  await page.goto(url, { waitUntil: 'load' });
  await page.content();
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  await browser.close();
  return ms;
}
