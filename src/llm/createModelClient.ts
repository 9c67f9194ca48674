// Builds the ModelClient for a resolved model. Provider SDKs are large, so neither they nor the
// adapters are imported until a client is actually needed: this module stays cheap on the start path.

import type { Dispatcher } from 'undici';
import { mergeHeaders, parseCustomHeaders, proxyFetchOptions } from './network';
import { DEFAULT_BASE_URLS, type ModelClient, type ResolvedModel } from './types';
import { JARVIS_VERSION } from './version';

export interface ModelClientOptions {
  /** Version in the `jarvis-code/<version>` User-Agent; defaults to this build's version. */
  userAgentVersion?: string;
  /** How long to wait for the response headers, in ms. */
  timeoutMs?: number;
  /** How long a started stream may stay silent before it is abandoned, in ms (0 = never). */
  idleTimeoutMs?: number;
  /** Environment for JARVIS_CODE_CUSTOM_HEADERS and the proxy variables; defaults to process.env. */
  env?: Record<string, string | undefined>;
  /**
   * The connection pool requests go through when no proxy applies (default: Node's global one). The SDK gives each
   * session its own and closes it with the session, so no idle connection outlives a query (docs/sdk.md).
   */
  dispatcher?: Dispatcher;
}

/** Settings every adapter receives, defaults filled in. */
export interface AdapterSettings {
  userAgent: string;
  timeoutMs: number;
  idleTimeoutMs: number;
  env: Record<string, string | undefined>;
  /** Extra fetch options for the SDK: the proxy dispatcher, when a proxy applies to the base URL. */
  fetchOptions?: { dispatcher: Dispatcher };
}

/** `[loop_control] idle_timeout_s`: both the wait for the first byte and for each next chunk. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 120_000;
export const DEFAULT_STREAM_IDLE_TIMEOUT_MS = 120_000;

export function adapterSettings(options: ModelClientOptions = {}): AdapterSettings {
  return {
    userAgent: `jarvis-code/${options.userAgentVersion ?? JARVIS_VERSION}`,
    timeoutMs: options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
    idleTimeoutMs: options.idleTimeoutMs ?? DEFAULT_STREAM_IDLE_TIMEOUT_MS,
    env: options.env ?? process.env,
  };
}

/**
 * Headers sent with every request: JARVIS_CODE_CUSTOM_HEADERS, then our User-Agent, then the model's
 * custom headers; names compare case-insensitively and a later set wins. The SDKs apply these after
 * their own auth headers, so an `Authorization` here replaces the bearer token the API key would
 * give (all four provider types with the SDK versions we ship).
 */
export function requestHeaders(resolved: ResolvedModel, settings: AdapterSettings): Record<string, string> {
  return mergeHeaders(
    parseCustomHeaders(settings.env.JARVIS_CODE_CUSTOM_HEADERS),
    { 'User-Agent': settings.userAgent },
    resolved.customHeaders,
  );
}

/** The base URL a model's client talks to: the resolved one, else the provider type's default. */
export function baseUrlOf(resolved: ResolvedModel): string {
  return resolved.baseUrl ?? DEFAULT_BASE_URLS[resolved.providerType];
}

/** What every provider SDK client is constructed with (the OpenAI and Anthropic SDKs share these names). */
export interface SdkClientOptions {
  apiKey: string;
  baseURL: string;
  maxRetries: number;
  timeout: number;
  defaultHeaders: Record<string, string>;
  fetchOptions?: { dispatcher: Dispatcher };
  logLevel: 'off';
}

/**
 * Builds an adapter's SDK client: SDK retries off (the engine retries), our time-out, headers and
 * proxy, and the SDK's own logging off (a garbled chunk is reported through ProviderError instead).
 */
export function buildSdkClient<C>(
  Client: new (options: SdkClientOptions) => C,
  resolved: ResolvedModel,
  settings: AdapterSettings,
): { client: C; baseURL: string } {
  const baseURL = baseUrlOf(resolved);
  const client = new Client({
    apiKey: resolved.apiKey,
    baseURL,
    maxRetries: 0,
    timeout: settings.timeoutMs,
    defaultHeaders: requestHeaders(resolved, settings),
    ...(settings.fetchOptions ? { fetchOptions: settings.fetchOptions } : {}),
    logLevel: 'off',
  });
  return { client, baseURL };
}

export async function createModelClient(
  resolved: ResolvedModel,
  options: ModelClientOptions = {},
): Promise<ModelClient> {
  const settings = adapterSettings(options);
  // Throws a clear error for an invalid or SOCKS proxy: the first request fails with it.
  const fetchOptions = await proxyFetchOptions(baseUrlOf(resolved), settings.env);
  if (fetchOptions) settings.fetchOptions = fetchOptions;
  else if (options.dispatcher) settings.fetchOptions = { dispatcher: options.dispatcher };
  switch (resolved.providerType) {
    case 'openai':
    case 'kimi': {
      const [sdk, adapter] = await Promise.all([import('openai'), import('./openaiChat')]);
      return new adapter.OpenAIChatClient(resolved, sdk, settings);
    }
    case 'openai_responses': {
      const [sdk, adapter] = await Promise.all([import('openai'), import('./openaiResponses')]);
      return new adapter.OpenAIResponsesClient(resolved, sdk, settings);
    }
    case 'anthropic': {
      const [sdk, adapter] = await Promise.all([import('@anthropic-ai/sdk'), import('./anthropic')]);
      return new adapter.AnthropicClient(resolved, sdk, settings);
    }
    default: {
      const unknown: never = resolved.providerType;
      throw new Error(`Unsupported provider type "${String(unknown)}" for model "${resolved.alias}".`);
    }
  }
}
