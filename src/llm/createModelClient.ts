// Builds the ModelClient for a resolved model. Provider SDKs are large, so neither they nor the
// adapters are imported until a client is actually needed: this module stays cheap on the start path.

import type { ModelClient, ProviderType, ResolvedModel } from './types';

export interface ModelClientOptions {
  /** Version in the `jarvis-code/<version>` User-Agent. */
  userAgentVersion?: string;
  /** How long to wait for the response headers, in ms. */
  timeoutMs?: number;
  /** How long a started stream may stay silent before it is abandoned, in ms (0 = never). */
  idleTimeoutMs?: number;
  /** Environment for the JARVIS_MODEL_* run-time knobs (kimi); defaults to process.env. */
  env?: Record<string, string | undefined>;
}

/** Settings every adapter receives, defaults filled in. */
export interface AdapterSettings {
  userAgent: string;
  timeoutMs: number;
  idleTimeoutMs: number;
  env: Record<string, string | undefined>;
}

export const DEFAULT_REQUEST_TIMEOUT_MS = 5 * 60_000;
export const DEFAULT_STREAM_IDLE_TIMEOUT_MS = 5 * 60_000;

export const DEFAULT_BASE_URLS: Readonly<Partial<Record<ProviderType, string>>> = {
  kimi: 'https://api.moonshot.ai/v1',
  openai: 'https://api.openai.com/v1',
  openai_responses: 'https://api.openai.com/v1',
};

export function adapterSettings(options: ModelClientOptions = {}): AdapterSettings {
  return {
    userAgent: `jarvis-code/${options.userAgentVersion ?? '0.0.0-dev'}`,
    timeoutMs: options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
    idleTimeoutMs: options.idleTimeoutMs ?? DEFAULT_STREAM_IDLE_TIMEOUT_MS,
    env: options.env ?? process.env,
  };
}

/** Headers sent with every request: our User-Agent, then the model's custom headers (which win). */
export function requestHeaders(resolved: ResolvedModel, settings: AdapterSettings): Record<string, string> {
  return { 'User-Agent': settings.userAgent, ...(resolved.customHeaders ?? {}) };
}

export async function createModelClient(resolved: ResolvedModel, options: ModelClientOptions = {}): Promise<ModelClient> {
  const settings = adapterSettings(options);
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
