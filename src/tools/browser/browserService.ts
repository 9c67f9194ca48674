// What the browser tools need from their session: the one BrowserSession (started lazily) and the
// timeouts, which tests shorten.
import type { BrowserSession } from '../../platform/browser/browserSession';
import { serviceKey } from '../defineTool';

export interface BrowserToolSettings {
  session: BrowserSession;
  /** execute_script in a page; 30 s. */
  pageScriptTimeoutMs?: number;
  /** execute_script in the sandbox; 30 s. */
  sandboxTimeoutMs?: number;
  /** How long open_tab waits for `load` before returning anyway; 30 s. */
  loadWaitMs?: number;
}

export const BROWSER_SERVICE = serviceKey<BrowserToolSettings>()('browser');

export const DEFAULT_LOAD_WAIT_MS = 30_000;
export const DEFAULT_SCRIPT_TIMEOUT_MS = 30_000;

/** Tool results of the browser profile are JSON text (docs/browser.md). */
export function jsonResult(value: unknown, summary?: string): { content: string; summary?: string } {
  return { content: JSON.stringify(value, null, 2), summary };
}

export function jsonError(message: string): { content: string; isError: true } {
  return { content: JSON.stringify({ error: message }), isError: true };
}
