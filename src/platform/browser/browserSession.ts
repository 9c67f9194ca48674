// One browser per session (docs/browser.md): a headless system Chromium driven by playwright-core,
// launched on the first browser tool call, or the user's own browser attached with `[browser] cdp_url`.
// Tabs get integer ids in creation order (popups included); one tab is active. close() ends it all.
import type { LookupFunction } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { findChromium } from './findChromium';
import { startRequestProxy, type RequestProxy } from './requestProxy';

export { findChromium };

export interface BrowserOptions {
  /** `[browser] executable`; default: chromium / chromium-browser / google-chrome(-stable) on PATH. */
  executable?: string;
  /** `[browser] cdp_url`: attach to a running browser instead of launching one. */
  cdpUrl?: string;
  /** `--headed` / `[browser] headed`: a visible window (needs a display; see displayProblem). */
  headed?: boolean;
  /**
   * Checks a URL a managed browser is about to request; returns why it is refused, or undefined. Every
   * request of every tab goes through it (navigations, redirects, subresources). Not used in attach mode.
   */
  checkRequest?(url: string): Promise<string | undefined>;
  /**
   * Resolves host names for the connections the browser's proxy makes (requestProxy.ts); the runtime
   * passes one that checks every address it returns, so a second DNS answer cannot slip past checkRequest.
   */
  lookup?: LookupFunction;
  env?: NodeJS.ProcessEnv;
}

export interface TabInfo {
  id: number;
  url: string;
  title: string;
  active: boolean;
  windowId: number;
  index: number;
  audible: boolean;
  status: 'loading' | 'complete' | 'unknown';
}

/** The slice of the page's DOM that list() reads (the tools layer has no DOM typings). */
interface PageDocument {
  readyState: string;
  querySelectorAll(selector: string): ArrayLike<{ paused: boolean; muted: boolean; volume: number }>;
}

/** The managed browser has one window; ids are kept for the spec's tab shape. */
export const WINDOW_ID = 1;

const PROBE_TIMEOUT_MS = 1_000;
/**
 * Why a visible browser window cannot open here, or undefined. On Linux and the BSDs a window needs an
 * X11 or Wayland display; macOS and Windows always have one.
 */
export function displayProblem(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string | undefined {
  if (platform === 'darwin' || platform === 'win32') return undefined;
  if (env.DISPLAY?.trim() || env.WAYLAND_DISPLAY?.trim()) return undefined;
  return 'a visible browser needs a display, and neither DISPLAY nor WAYLAND_DISPLAY is set (no X11 or Wayland session here). Run without --headed (the browser then runs headless), or start a display (e.g. xvfb-run jarvis …)';
}

export class BrowserSession {
  private started?: Promise<BrowserContext>;
  private browser?: Browser;
  private proxy?: RequestProxy;
  private readonly tabs = new Map<number, Page>();
  private readonly ids = new WeakMap<Page, number>();
  private nextId = 1;
  private activeId?: number;
  private closed = false;

  constructor(private readonly opts: BrowserOptions) {}

  get attached(): boolean {
    return this.opts.cdpUrl !== undefined;
  }

  /** Why the managed browser may not go to `url`, or undefined; the user's attached browser goes anywhere. */
  async checkUrl(url: string): Promise<string | undefined> {
    return this.attached ? undefined : this.opts.checkRequest?.(url);
  }

  /** Starts (or attaches to) the browser on first use. */
  context(): Promise<BrowserContext> {
    if (this.closed) return Promise.reject(new Error('the browser session is closed'));
    this.started ??= this.start().catch((e: unknown) => {
      this.started = undefined;
      throw e;
    });
    return this.started;
  }

  private async start(): Promise<BrowserContext> {
    const { chromium } = await import('playwright-core');
    let context: BrowserContext;
    if (this.opts.cdpUrl) {
      try {
        this.browser = await chromium.connectOverCDP(this.opts.cdpUrl, { timeout: 15_000 });
      } catch (e) {
        throw new Error(
          `Could not attach to the browser at ${this.opts.cdpUrl} ([browser] cdp_url): ${(e as Error).message.split('\n')[0]}. Start Chrome/Chromium with --remote-debugging-port and check the URL.`,
        );
      }
      context = this.browser.contexts()[0] ?? (await this.browser.newContext());
    } else {
      const executablePath = this.opts.executable ?? findChromium(this.opts.env);
      if (!executablePath) {
        throw new Error(
          'No Chromium was found on PATH (chromium, chromium-browser, google-chrome). Install one (e.g. apt-get install chromium), or set [browser] executable or [browser] cdp_url in config.toml.',
        );
      }
      const args = [
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-dev-shm-usage',
      ];
      // Chromium refuses to run as root with its sandbox on.
      if (process.getuid?.() === 0) args.push('--no-sandbox');
      const check = this.opts.checkRequest;
      if (check) {
        // Every connection goes through the checking proxy, loopback ones too (Chromium skips the proxy for
        // loopback unless told `<-loopback>`), and WebRTC may use no UDP outside it.
        this.proxy = await startRequestProxy({ check, ...(this.opts.lookup ? { lookup: this.opts.lookup } : {}) });
        args.push(
          '--proxy-bypass-list=<-loopback>',
          '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
          '--webrtc-ip-handling-policy=disable_non_proxied_udp',
        );
      }
      try {
        const proxy = this.proxy ? { proxy: { server: this.proxy.url } } : {};
        const headless = !this.opts.headed;
        // Signals are the front end's (a first Ctrl-C in print mode ends the turn gently, with its result);
        // playwright's own handlers would close the browser and exit at once. Chromium ends with this process
        // however it ends: playwright kills it on exit, and it quits when its pipe to us closes.
        const signals = { handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false };
        this.browser = await chromium.launch({ executablePath, headless, args, timeout: 30_000, ...signals, ...proxy });
      } catch (e) {
        await this.proxy?.close();
        this.proxy = undefined;
        const display = this.opts.headed
          ? ` as a visible window on display ${this.opts.env?.DISPLAY ?? this.opts.env?.WAYLAND_DISPLAY ?? '(none)'} (--headed; without it the browser runs headless)`
          : '';
        throw new Error(`Could not start ${executablePath}${display}: ${(e as Error).message.split('\n')[0]}`);
      }
      context = await this.browser.newContext();
      if (check) {
        await context.route('**/*', async (route) => {
          const url = route.request().url();
          if (await check(url)) return route.abort('blockedbyclient');
          if (!/^https?:/i.test(url)) return route.continue();
          // Redirects are not routed again, so the request is made here (through the proxy too), one hop
          // at a time, and the hop's target is checked before the browser may follow it.
          let response;
          try {
            response = await route.fetch({ maxRedirects: 0 });
          } catch {
            return route.abort('failed');
          }
          const location = response.headers()['location'];
          if (
            response.status() >= 300 &&
            response.status() < 400 &&
            location &&
            (await check(new URL(location, url).href))
          )
            return route.abort('blockedbyclient');
          return route.fulfill({ response });
        });
      }
    }
    for (const page of context.pages()) this.register(page);
    context.on('page', (page) => this.register(page));
    return context;
  }

  private register(page: Page): number {
    const known = this.ids.get(page);
    if (known !== undefined) return known;
    const id = this.nextId++;
    this.ids.set(page, id);
    this.tabs.set(id, page);
    this.activeId ??= id;
    page.on('close', () => {
      this.tabs.delete(id);
      if (this.activeId === id) this.activeId = [...this.tabs.keys()].at(-1);
    });
    return id;
  }

  page(tabId?: number): Page {
    const id = tabId ?? this.activeId;
    const page = id === undefined ? undefined : this.tabs.get(id);
    if (!page)
      throw new Error(
        tabId === undefined
          ? 'There is no open tab; open one with open_tab.'
          : `Tab ${tabId} not found; list_tabs shows the open tabs.`,
      );
    return page;
  }

  idOf(page: Page): number {
    return this.register(page);
  }

  get activeTabId(): number | undefined {
    return this.activeId;
  }

  async newTab(): Promise<{ id: number; page: Page }> {
    const page = await (await this.context()).newPage();
    return { id: this.register(page), page };
  }

  activate(tabId: number): Page {
    const page = this.page(tabId);
    this.activeId = tabId;
    return page;
  }

  async list(): Promise<TabInfo[]> {
    await this.context();
    const entries = [...this.tabs.entries()];
    return Promise.all(
      entries.map(async ([id, page], index) => {
        // A page whose script is busy does not answer; it is listed with status "unknown".
        const busy = new Promise<undefined>((resolve) =>
          setTimeout(() => resolve(undefined), PROBE_TIMEOUT_MS).unref(),
        );
        const probing = page
          .evaluate(() => {
            const doc = (globalThis as unknown as { document: PageDocument }).document;
            return {
              ready: doc.readyState,
              audible: Array.from(doc.querySelectorAll('audio, video')).some(
                (m) => !m.paused && !m.muted && m.volume > 0,
              ),
            };
          })
          .catch(() => undefined);
        const probe = await Promise.race([probing, busy]);
        return {
          id,
          url: page.url(),
          title: probe === undefined ? '' : await page.title().catch(() => ''),
          active: id === this.activeId,
          windowId: WINDOW_ID,
          index,
          audible: probe?.audible ?? false,
          status: probe === undefined ? 'unknown' : probe.ready === 'complete' ? 'complete' : 'loading',
        } satisfies TabInfo;
      }),
    );
  }

  async close(): Promise<void> {
    this.closed = true;
    const started = this.started;
    this.started = undefined;
    if (!started) return;
    await started.catch(() => undefined);
    // Attached to the user's browser: disconnect, never close their browser.
    await this.browser?.close().catch(() => undefined);
    await this.proxy?.close();
    this.proxy = undefined;
    this.tabs.clear();
  }
}
