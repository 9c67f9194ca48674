// The shared types layer: facts about models that both `llm` (which talks to providers) and `store`
// (which resolves config and environment into a model) need. It sits below both, imports nothing, and
// holds each definition once (DESIGN §1.2).

export const PROVIDER_TYPES = ['kimi', 'anthropic', 'openai', 'openai_responses'] as const;
export type ProviderType = (typeof PROVIDER_TYPES)[number];

export const CAPABILITIES = ['thinking', 'always_thinking', 'image_in', 'video_in', 'audio_in', 'tool_use'] as const;
export type Capability = (typeof CAPABILITIES)[number];

/** Where each provider type's API lives when neither the config nor the environment says. */
export const DEFAULT_BASE_URLS: Readonly<Record<ProviderType, string>> = {
  kimi: 'https://api.moonshot.ai/v1',
  anthropic: 'https://api.anthropic.com',
  openai: 'https://api.openai.com/v1',
  openai_responses: 'https://api.openai.com/v1',
};

/**
 * Moonshot/Kimi request knobs read from the environment during model resolution (docs/configuration.md):
 * JARVIS_MODEL_MAX_COMPLETION_TOKENS, JARVIS_MODEL_TEMPERATURE, JARVIS_MODEL_TOP_P.
 */
export interface KimiRequestOverrides {
  /** Hard cap on max_tokens. */
  maxCompletionTokens?: number;
  temperature?: number;
  topP?: number;
}

/** Everything needed to build a client for one model: the result of config + env resolution. */
export interface ResolvedModel {
  alias: string;
  providerName: string;
  providerType: ProviderType;
  model: string;
  apiKey: string;
  /** Where the key came from, in words a user can act on ("api_key in ~/.jarvis-code/config.toml [providers.x]"). */
  apiKeySource?: string;
  /** Always set by resolution; the provider type's default when nothing else says. */
  baseUrl?: string;
  customHeaders?: Record<string, string>;
  maxContextSize: number;
  maxInputSize?: number;
  maxOutputSize?: number;
  capabilities: Capability[];
  displayName: string;
  reasoningKey?: string;
  defaultEffort?: string;
  supportEfforts?: string[];
  /** The effort value that means "thinking off" for this model (config `off_effort`). */
  offEffort?: string;
  adaptiveThinking?: boolean;
  /** Kimi only. */
  kimi?: KimiRequestOverrides;
  /** `[models.<alias>] price`: what a request costs when the provider reports no cost (docs/configuration.md). */
  price?: TokenPrices;
}

/** USD per million tokens. Cached input falls back to the input price when its own is not given. */
export interface TokenPrices {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
}

/** Alias and provider name given to a model that came from the JARVIS_MODEL_* variables (never shown as a name). */
export const ENV_MODEL_ALIAS = 'JARVIS_MODEL';
