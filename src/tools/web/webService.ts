// What the web tools need from their session: the `[web]` settings, the search backend chosen from
// config, and (in tests) an injected DNS resolver and timeout.
import type { Dispatcher } from 'undici';
import { JARVIS_VERSION } from '../../llm/version';
import type { Resolver } from '../../platform/web/guardedFetch';
import { serviceKey } from '../defineTool';

export type SearchProviderName = 'brave' | 'langsearch' | 'moonshot';

export interface SearchBackendConfig {
  provider: SearchProviderName;
  apiKey?: string;
  baseUrl: string;
  /** Extra headers (the Moonshot service's custom_headers). */
  headers?: Record<string, string>;
}

export interface WebSettings {
  /** `[web] allow_private_network`: let web tools reach loopback and private addresses. */
  allowPrivateNetwork: boolean;
  /** The WebSearch backend; absent = no WebSearch tool. */
  search?: SearchBackendConfig;
  /** Brave is the explicitly chosen backend and has a key: the ten Brave tools are offered. */
  braveTools?: { apiKey: string; baseUrl: string };
  /** Per-request timeout; 30 s unless a test shortens it. */
  timeoutMs?: number;
  resolver?: Resolver;
  /** A proxy for this URL, when the environment configures one. */
  proxyFor?(url: string): Promise<Dispatcher | undefined>;
}

export const WEB_SERVICE = serviceKey<WebSettings>()('web');

export const WEB_USER_AGENT = `Mozilla/5.0 (compatible; JarvisCode/${JARVIS_VERSION} Agent)`;

export const DEFAULT_WEB_SETTINGS: WebSettings = { allowPrivateNetwork: false };
