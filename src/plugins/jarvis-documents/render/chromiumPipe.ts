// A headless system Chromium driven over the DevTools protocol on a pipe (--remote-debugging-pipe:
// the browser reads NUL-terminated JSON on fd 3 and writes on fd 4). The plugin runs from its managed
// copy and cannot reach the CLI's playwright-core, and the few protocol calls a screenshot needs do not
// justify bundling a browser driver (docs/plugins-official.md, "Rendering").
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { findChromium } from '../../../platform/browser/findChromium';

type Pending = { resolve(value: Record<string, unknown>): void; reject(error: Error): void; method: string };

const CALL_TIMEOUT_MS = 60_000;

export class ChromiumPipe {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private buffered = '';
  private exited?: string;

  private constructor(
    private readonly child: ChildProcess,
    private readonly profile: string,
  ) {
    const input = child.stdio[4] as Readable;
    input.setEncoding('utf8');
    input.on('data', (chunk: string) => this.receive(chunk));
    child.on('exit', (code, signal) => {
      this.exited = `Chromium exited (${signal ?? `code ${code}`})`;
      for (const p of this.pending.values()) p.reject(new Error(`${this.exited} during ${p.method}`));
      this.pending.clear();
    });
    (child.stdio[3] as Writable).on('error', () => undefined);
  }

  /** Starts Chromium: `JARVIS_DOCUMENTS_CHROMIUM`, else the first chromium/google-chrome on PATH. */
  static async launch(env: NodeJS.ProcessEnv = process.env): Promise<ChromiumPipe> {
    const executable = env.JARVIS_DOCUMENTS_CHROMIUM || findChromium(env);
    if (!executable) {
      throw new Error(
        'Rendering needs Chromium, and none was found on PATH (chromium, chromium-browser, google-chrome). Install one (e.g. apt-get install chromium) or set JARVIS_DOCUMENTS_CHROMIUM to its path.',
      );
    }
    const profile = mkdtempSync(join(tmpdir(), 'jarvis-documents-chromium-'));
    const args = [
      '--headless=new',
      '--remote-debugging-pipe',
      `--user-data-dir=${profile}`,
      '--disable-gpu',
      '--no-first-run',
      '--no-default-browser-check',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
      '--hide-scrollbars',
      '--mute-audio',
      '--font-render-hinting=none',
      'about:blank',
    ];
    // Chromium refuses to run as root with its sandbox on.
    if (process.getuid?.() === 0) args.push('--no-sandbox');
    const child = spawn(executable, args, { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'] });
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', () => resolve());
      child.once('error', (e) => {
        rmSync(profile, { recursive: true, force: true });
        reject(new Error(`Could not start ${executable}: ${e.message}`));
      });
    });
    return new ChromiumPipe(child, profile);
  }

  private receive(chunk: string): void {
    this.buffered += chunk;
    let end: number;
    while ((end = this.buffered.indexOf('\0')) >= 0) {
      const message = JSON.parse(this.buffered.slice(0, end)) as {
        id?: number;
        result?: Record<string, unknown>;
        error?: { message: string };
      };
      this.buffered = this.buffered.slice(end + 1);
      const waiting = message.id === undefined ? undefined : this.pending.get(message.id);
      if (!waiting) continue;
      this.pending.delete(message.id!);
      if (message.error) waiting.reject(new Error(`${waiting.method}: ${message.error.message}`));
      else waiting.resolve(message.result ?? {});
    }
  }

  send(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<Record<string, unknown>> {
    if (this.exited) return Promise.reject(new Error(this.exited));
    const id = this.nextId++;
    const message = JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) });
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`Chromium did not answer ${method} within ${CALL_TIMEOUT_MS / 1000} s`));
      }, CALL_TIMEOUT_MS);
      this.pending.set(id, {
        method,
        resolve: (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      (this.child.stdio[3] as Writable).write(`${message}\0`);
    });
  }

  /** A fresh page of the given CSS size; returns a handle whose calls go to that page. */
  async openPage(width: number, height: number): Promise<PipePage> {
    const { targetId } = (await this.send('Target.createTarget', { url: 'about:blank' })) as { targetId: string };
    const { sessionId } = (await this.send('Target.attachToTarget', { targetId, flatten: true })) as {
      sessionId: string;
    };
    const page = new PipePage(this, sessionId, targetId);
    await page.call('Page.enable');
    await page.call('Runtime.enable');
    await page.call('Emulation.setDeviceMetricsOverride', { width, height, deviceScaleFactor: 1, mobile: false });
    return page;
  }

  async close(): Promise<void> {
    if (!this.exited) {
      const gone = new Promise((resolve) => this.child.once('exit', resolve));
      this.send('Browser.close').catch(() => undefined);
      const timer = setTimeout(() => this.child.kill('SIGKILL'), 5_000);
      await gone;
      clearTimeout(timer);
    }
    rmSync(this.profile, { recursive: true, force: true });
  }
}

export class PipePage {
  constructor(
    private readonly browser: ChromiumPipe,
    private readonly sessionId: string,
    private readonly targetId: string,
  ) {}

  call(method: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    return this.browser.send(method, params, this.sessionId);
  }

  /** Evaluates an expression (awaiting a promise) and returns its JSON value; a thrown error rejects. */
  async evaluate<T>(expression: string): Promise<T> {
    const reply = (await this.call('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true })) as {
      result: { value?: T };
      exceptionDetails?: { exception?: { description?: string }; text: string };
    };
    if (reply.exceptionDetails)
      throw new Error(reply.exceptionDetails.exception?.description ?? reply.exceptionDetails.text);
    return reply.result.value as T;
  }

  async setContent(html: string): Promise<void> {
    const { frameTree } = (await this.call('Page.getFrameTree')) as { frameTree: { frame: { id: string } } };
    await this.call('Page.setDocumentContent', { frameId: frameTree.frame.id, html });
    // Fonts and images finish loading before the picture is taken.
    await this.evaluate(
      `Promise.all([document.fonts.ready, ...[...document.images].map((i) => i.complete ? 0 : new Promise((r) => { i.onload = i.onerror = r; }))]).then(() => true)`,
    );
  }

  async screenshot(clip: { x: number; y: number; width: number; height: number }): Promise<Buffer> {
    const { data } = (await this.call('Page.captureScreenshot', {
      format: 'png',
      clip: { ...clip, scale: 1 },
      captureBeyondViewport: true,
    })) as { data: string };
    return Buffer.from(data, 'base64');
  }

  async close(): Promise<void> {
    await this.browser.send('Target.closeTarget', { targetId: this.targetId }).catch(() => undefined);
  }
}
