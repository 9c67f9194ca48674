// A Chromium the test starts in headless=new mode with its own temporary profile, optionally with the built
// Jarvis WebBridge extension loaded unpacked — "the user's everyday browser" of docs/plugins-official.md.
// The test reaches it through its own DevTools port (playwright-core over CDP) only to do what a user
// does: put a cookie in the profile, and type the pairing token into the extension's popup page.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';

export interface ExtensionChromium {
  /** The test's own DevTools address (http://127.0.0.1:PORT). */
  url: string;
  browser: Browser;
  /** CDP Target.getTargets of the browser: pages and service workers. */
  targets(): Promise<Array<{ type: string; url: string }>>;
  /** Opens the extension's popup as a page, types port and token, presses Pair; the error line it shows. */
  pair(extensionId: string, port: number, token: string): Promise<string>;
  /** Opens the popup and presses one of its buttons (`#stop`, `#resume`, `#share`). */
  press(extensionId: string, selector: string): Promise<void>;
  /** The popup's status line, read from a fresh popup page. */
  status(extensionId: string): Promise<string>;
  /** Waits until the popup's status line says `wanted`; resolves with its detail line. */
  waitForStatus(extensionId: string, wanted: string): Promise<string>;
  close(): Promise<void>;
}

async function until<T>(probe: () => T | undefined | Promise<T | undefined>, what: string, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function startExtensionChromium(extensionDir?: string): Promise<ExtensionChromium> {
  const profile = mkdtempSync(join(tmpdir(), 'jarvis-ext-chrome-'));
  const args = [
    '--headless=new',
    '--remote-debugging-address=127.0.0.1',
    '--remote-debugging-port=0',
    `--user-data-dir=${profile}`,
    '--no-first-run',
    '--no-default-browser-check',
    '--disable-gpu',
    '--disable-dev-shm-usage',
    ...(extensionDir ? [`--load-extension=${extensionDir}`, `--disable-extensions-except=${extensionDir}`] : []),
    'about:blank',
  ];
  if (process.getuid?.() === 0) args.push('--no-sandbox');
  const child: ChildProcess = spawn('/usr/bin/chromium', args, { stdio: 'ignore' });
  let exited = false;
  child.on('exit', () => (exited = true));
  const port = await until(() => {
    if (exited) throw new Error('/usr/bin/chromium exited before it listened');
    try {
      return readFileSync(join(profile, 'DevToolsActivePort'), 'utf8').split('\n')[0].trim() || undefined;
    } catch {
      return undefined;
    }
  }, 'DevToolsActivePort');
  const url = `http://127.0.0.1:${port}`;
  const browser = await chromium.connectOverCDP(url);
  const cdp = await browser.newBrowserCDPSession();
  const popup = async (id: string) => {
    const page = await browser.contexts()[0].newPage();
    await page.goto(`chrome-extension://${id}/popup.html`);
    // Polled from here, not with page.waitForFunction: its polling runs the string through eval, which the
    // extension page's content security policy refuses.
    await until(async () => ((await page.textContent('#status')) !== '…' ? true : undefined), 'the popup status');
    return page;
  };
  return {
    url,
    browser,
    async targets() {
      const { targetInfos } = (await cdp.send('Target.getTargets')) as {
        targetInfos: Array<{ type: string; url: string }>;
      };
      return targetInfos;
    },
    async pair(id, bridgePort, token) {
      const page = await popup(id);
      await page.fill('#port', String(bridgePort));
      await page.fill('#token', token);
      await page.click('#pair');
      const settled = async () =>
        !!(await page.textContent('#error')) || (await page.textContent('#status')) !== 'unpaired';
      await until(async () => ((await settled()) ? true : undefined), 'the popup to pair or show an error');
      const error = (await page.textContent('#error')) ?? '';
      await page.close();
      return error;
    },
    async press(id, selector) {
      const page = await popup(id);
      await page.click(selector);
      await until(async () => (!(await page.textContent('#error')) ? true : undefined), 'the popup error to clear');
      await page.close();
    },
    async status(id) {
      const page = await popup(id);
      const text = (await page.textContent('#status')) ?? '';
      await page.close();
      return text;
    },
    async waitForStatus(id, wanted) {
      const page = await popup(id);
      try {
        const said = async () => ((await page.textContent('#status')) === wanted ? true : undefined);
        await until(said, `the popup status "${wanted}"`);
        return (await page.textContent('#detail')) ?? '';
      } finally {
        await page.close();
      }
    },
    async close() {
      await browser.close().catch(() => undefined);
      if (!exited) {
        const gone = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await gone;
      }
      // Chromium's helper processes may still be writing the profile for a moment after the browser exits.
      rmSync(profile, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 });
    },
  };
}
