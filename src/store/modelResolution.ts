// Which model a run talks to, and with which credentials (docs/configuration.md).
// Precedence: `-m <alias>` > the JARVIS_MODEL_* channel > `default_model`. Credentials come from the
// config file only (`api_key`, then `[providers.x.env]`); the shell's OPENAI_API_KEY and friends are
// never read, so a stray export can never silently bill a different account.
import {
  CAPABILITIES as CAPABILITY_NAMES,
  DEFAULT_BASE_URLS,
  PROVIDER_TYPES as PROVIDER_TYPE_NAMES,
  type Capability,
  type ProviderType,
  type ResolvedModel,
} from '../types/models';
import { type ConfigProviderType, type JarvisConfig, type ModelConfig, type ProviderConfig } from './configSchema';
import { displayPath } from './paths';
import { envValue, parseBooleanWord, parseIntInRange } from './settings';

export type { ResolvedModel };
type ProviderTypeName = ProviderType;
type CapabilityName = Capability;

export interface ResolveModelInput {
  config: JarvisConfig;
  env: NodeJS.ProcessEnv;
  /** The `-m` flag. */
  cliModel?: string;
  /** Where `config` came from, for messages. */
  configPath: string;
  /** Looks up a stored OAuth token for a provider with an `oauth` reference (written by login). */
  oauthToken?: (ref: { storage: string; key: string }, providerName: string) => string | undefined;
}

/** A model cannot be resolved: bad alias, missing credential, bad JARVIS_MODEL_* value. */
export class ModelConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ModelConfigError';
  }
}

/** Nothing configured at all; the message shows both ways to configure a model. */
export class NoModelConfiguredError extends ModelConfigError {
  constructor(configPath: string) {
    super(noModelMessage(configPath));
    this.name = 'NoModelConfiguredError';
  }
}

import { ENV_MODEL_ALIAS } from '../types/models';
export { ENV_MODEL_ALIAS };
export const ENV_MODEL_DEFAULT_CONTEXT_SIZE = 262_144;
const ENV_MODEL_DEFAULT_CAPABILITIES = 'image_in,thinking';

/** The conventional names looked up inside `[providers.x.env]` (never in the process environment). */
export const PROVIDER_ENV_KEYS: Record<ConfigProviderType, { apiKey: string[]; baseUrl?: string }> = {
  kimi: { apiKey: ['KIMI_API_KEY'], baseUrl: 'KIMI_BASE_URL' },
  anthropic: { apiKey: ['ANTHROPIC_API_KEY'], baseUrl: 'ANTHROPIC_BASE_URL' },
  openai: { apiKey: ['OPENAI_API_KEY'], baseUrl: 'OPENAI_BASE_URL' },
  openai_responses: { apiKey: ['OPENAI_API_KEY'], baseUrl: 'OPENAI_BASE_URL' },
  'google-genai': { apiKey: ['GOOGLE_API_KEY'] },
  vertexai: { apiKey: ['GOOGLE_API_KEY', 'VERTEXAI_API_KEY'] },
};

// First match wins; matched against the model id lowercased, after any `vendor/` prefix.
const CAPABILITY_RULES: Array<[RegExp, CapabilityName[]]> = [
  [/^claude-3-(?!7)/, ['image_in', 'tool_use']],
  [/^claude-/, ['thinking', 'image_in', 'tool_use']],
  [/^o\d(-|$)/, ['thinking', 'always_thinking', 'image_in', 'tool_use']],
  [/^gpt-5/, ['thinking', 'image_in', 'tool_use']],
  [/^(gpt-4o|chatgpt-4o|gpt-4\.1)/, ['image_in', 'tool_use']],
  [/^kimi-k2.*thinking/, ['thinking', 'always_thinking', 'tool_use']],
  [/^moonshot-.*vision/, ['image_in', 'tool_use']],
  [/^(kimi-k2|moonshot-)/, ['tool_use']],
  [/^deepseek-reasoner/, ['thinking', 'always_thinking', 'tool_use']],
  [/^deepseek-chat/, ['tool_use']],
  [/^gemini-(2\.5|[3-9])/, ['thinking', 'image_in', 'video_in', 'audio_in', 'tool_use']],
  [/^gemini-/, ['image_in', 'tool_use']],
  [/^(qwq|qwen3.*thinking)/, ['thinking', 'tool_use']],
];

/** Capabilities known from the model id alone. */
export function detectCapabilities(model: string): CapabilityName[] {
  const id = model.toLowerCase().split('/').pop() ?? '';
  return CAPABILITY_RULES.find(([re]) => re.test(id))?.[1].slice() ?? [];
}

/** Auto-detected ∪ configured, in the canonical order. Configuration can add, never remove. */
function mergeCapabilities(model: string, ...added: Array<readonly CapabilityName[] | undefined>): CapabilityName[] {
  const all = new Set<CapabilityName>(detectCapabilities(model));
  for (const list of added) for (const c of list ?? []) all.add(c);
  return CAPABILITY_NAMES.filter((c) => all.has(c));
}

function quoted(names: string[]): string {
  return names.map((n) => JSON.stringify(n)).join(', ');
}

function noModelMessage(configPath: string): string {
  return [
    'No model is configured. Configure one in either of two ways:',
    '',
    `1. In ${displayPath(configPath)}:`,
    '',
    '     default_model = "my-model"',
    '',
    '     [providers.my-provider]',
    '     type = "openai"          # kimi | anthropic | openai | openai_responses',
    '     api_key = "sk-..."',
    '',
    '     [models.my-model]',
    '     provider = "my-provider"',
    '     model = "gpt-4.1"',
    '     max_context_size = 1047576',
    '',
    '2. Or, for a quick start without a config file, in the environment:',
    '',
    '     export JARVIS_MODEL_NAME=gpt-4.1',
    '     export JARVIS_MODEL_API_KEY=sk-...',
    '     export JARVIS_MODEL_PROVIDER_TYPE=openai                 # kimi | anthropic | openai | openai_responses',
    '     export JARVIS_MODEL_BASE_URL=https://api.openai.com/v1   # optional',
  ].join('\n');
}

function asProviderType(type: ConfigProviderType, where: string): ProviderTypeName {
  if ((PROVIDER_TYPE_NAMES as readonly string[]).includes(type)) return type as ProviderTypeName;
  throw new ModelConfigError(
    `${where}: provider type "${type}" is not supported yet; supported: ${PROVIDER_TYPE_NAMES.join(', ')}`,
  );
}

function resolveApiKey(
  input: ResolveModelInput,
  name: string,
  provider: ProviderConfig,
): { key: string; source: string } {
  const file = displayPath(input.configPath);
  if (provider.api_key !== undefined)
    return { key: provider.api_key, source: `api_key under [providers.${name}] in ${file}` };
  const keyNames = PROVIDER_ENV_KEYS[provider.type].apiKey;
  for (const keyName of keyNames) {
    const value = provider.env?.[keyName];
    if (value !== undefined && value.trim() !== '')
      return { key: value, source: `${keyName} under [providers.${name}.env] in ${file}` };
  }
  const where = `${file}: providers.${name}`;
  if (provider.oauth) {
    const token = input.oauthToken?.(provider.oauth, name);
    if (token)
      return {
        key: token,
        source: `the stored OAuth credential "${provider.oauth.key}" of [providers.${name}] (log in again)`,
      };
    throw new ModelConfigError(
      `${where}: no stored OAuth credential for oauth.key = "${provider.oauth.key}"; log in again or set api_key`,
    );
  }
  throw new ModelConfigError(
    `${where}: no API key: set api_key, or ${keyNames.join(' / ')} in [providers.${name}.env] ` +
      '(shell environment variables are not read for provider credentials)',
  );
}

function resolveAlias(input: ResolveModelInput, alias: string): ResolvedModel {
  const base: ModelConfig = input.config.models[alias];
  // Overrides win over the table they sit in: importers rewrite the table, users own the overrides.
  const m = { ...base, ...definedOnly(base.overrides ?? {}) };
  const provider = input.config.providers[m.provider];
  const file = displayPath(input.configPath);
  if (!provider) {
    const names = Object.keys(input.config.providers);
    throw new ModelConfigError(
      `${file}: models.${alias}.provider: no provider named "${m.provider}"; defined providers: ${quoted(names)}`,
    );
  }
  const providerType = asProviderType(m.protocol ?? provider.type, `${file}: models.${alias}`);
  const baseUrlKey = PROVIDER_ENV_KEYS[provider.type].baseUrl;
  const envBaseUrl = baseUrlKey ? provider.env?.[baseUrlKey]?.trim() || undefined : undefined;
  const credential = resolveApiKey(input, m.provider, provider);
  return {
    alias,
    providerName: m.provider,
    providerType,
    model: m.model,
    apiKey: credential.key,
    apiKeySource: credential.source,
    baseUrl: m.base_url ?? provider.base_url ?? envBaseUrl ?? DEFAULT_BASE_URLS[providerType],
    customHeaders: provider.custom_headers,
    maxContextSize: m.max_context_size,
    maxInputSize: m.max_input_size === undefined ? undefined : Math.min(m.max_input_size, m.max_context_size),
    maxOutputSize: m.max_output_size,
    capabilities: mergeCapabilities(m.model, base.capabilities, base.overrides?.capabilities),
    displayName: m.display_name ?? m.model,
    reasoningKey: m.reasoning_key,
    defaultEffort: m.default_effort,
    supportEfforts: m.support_efforts,
    offEffort: m.off_effort,
    adaptiveThinking: m.adaptive_thinking,
    ...(m.price
      ? {
          price: {
            input: m.price.input,
            output: m.price.output,
            ...(m.price.cache_read === undefined ? {} : { cacheRead: m.price.cache_read }),
            ...(m.price.cache_write === undefined ? {} : { cacheWrite: m.price.cache_write }),
          },
        }
      : {}),
  };
}

function definedOnly<T extends object>(table: T): Partial<T> {
  return Object.fromEntries(Object.entries(table).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function envInt(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const raw = envValue(env, name);
  if (raw === undefined) return undefined;
  const n = parseIntInRange(raw, 1);
  if (n === undefined) throw new ModelConfigError(`${name}: expected a positive integer, got ${JSON.stringify(raw)}`);
  return n;
}

/** The providers' own API hosts: the only base URLs a provider type is told from (docs/configuration.md). */
const KNOWN_API_HOSTS: ReadonlyArray<readonly [string, ProviderTypeName]> = [
  ['api.openai.com', 'openai'],
  ['api.anthropic.com', 'anthropic'],
  ['api.moonshot.ai', 'kimi'],
  ['api.moonshot.cn', 'kimi'],
];

/**
 * JARVIS_MODEL_PROVIDER_TYPE left out: a key must only go to a host the user named, so the type is
 * never guessed. It is told from an explicit base URL on a provider's own host, and refused otherwise.
 */
function providerTypeOfBaseUrl(baseUrl: string | undefined): ProviderTypeName {
  const choices = `Set JARVIS_MODEL_PROVIDER_TYPE to one of ${PROVIDER_TYPE_NAMES.join(', ')}`;
  if (!baseUrl) {
    throw new ModelConfigError(
      `JARVIS_MODEL_PROVIDER_TYPE is not set, so it is not known which API JARVIS_MODEL_API_KEY is for. ${choices} ` +
        '(and JARVIS_MODEL_BASE_URL for any other endpoint); the key is only ever sent to the endpoint you name.',
    );
  }
  let host: string;
  try {
    host = new URL(baseUrl).hostname.toLowerCase();
  } catch {
    throw new ModelConfigError(
      `JARVIS_MODEL_BASE_URL is not a valid URL: ${JSON.stringify(baseUrl)}. ` +
        'Give the full URL, e.g. https://api.openai.com/v1',
    );
  }
  const known = KNOWN_API_HOSTS.find(([name]) => host === name);
  if (known) return known[1];
  throw new ModelConfigError(
    `JARVIS_MODEL_PROVIDER_TYPE is not set, and the API of ${host} (JARVIS_MODEL_BASE_URL) cannot be told from its ` +
      `address. ${choices} (openai for OpenAI-compatible servers).`,
  );
}

/** The ephemeral JARVIS_MODEL_* channel: a whole model from the environment, no config file needed. */
function resolveFromEnv(env: NodeJS.ProcessEnv): ResolvedModel {
  const model = (envValue(env, 'JARVIS_MODEL_NAME') ?? '').trim();
  const apiKey = envValue(env, 'JARVIS_MODEL_API_KEY')?.trim();
  if (!apiKey) {
    throw new ModelConfigError(
      'JARVIS_MODEL_NAME is set but JARVIS_MODEL_API_KEY is missing: set both, or unset JARVIS_MODEL_NAME',
    );
  }
  const baseUrl = envValue(env, 'JARVIS_MODEL_BASE_URL')?.trim() || undefined;
  const typeRaw = envValue(env, 'JARVIS_MODEL_PROVIDER_TYPE')?.trim().toLowerCase() || undefined;
  if (typeRaw !== undefined && !(PROVIDER_TYPE_NAMES as readonly string[]).includes(typeRaw)) {
    throw new ModelConfigError(
      `JARVIS_MODEL_PROVIDER_TYPE: expected one of ${PROVIDER_TYPE_NAMES.join(', ')}, got ${JSON.stringify(typeRaw)}`,
    );
  }
  const providerType = (typeRaw as ProviderTypeName | undefined) ?? providerTypeOfBaseUrl(baseUrl);
  const capsRaw = env.JARVIS_MODEL_CAPABILITIES ?? ENV_MODEL_DEFAULT_CAPABILITIES;
  const caps = capsRaw
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean);
  const unknown = caps.filter((c) => !(CAPABILITY_NAMES as readonly string[]).includes(c));
  if (unknown.length) {
    throw new ModelConfigError(
      `JARVIS_MODEL_CAPABILITIES: unknown capability ${quoted(unknown)}; known: ${CAPABILITY_NAMES.join(', ')}`,
    );
  }
  const adaptiveRaw = envValue(env, 'JARVIS_MODEL_ADAPTIVE_THINKING');
  const adaptive = adaptiveRaw === undefined ? undefined : parseBooleanWord(adaptiveRaw);
  if (adaptiveRaw !== undefined && adaptive === undefined) {
    throw new ModelConfigError(
      `JARVIS_MODEL_ADAPTIVE_THINKING: expected true or false, got ${JSON.stringify(adaptiveRaw)}`,
    );
  }
  return {
    alias: ENV_MODEL_ALIAS,
    providerName: ENV_MODEL_ALIAS,
    providerType,
    model,
    apiKey,
    apiKeySource: 'the JARVIS_MODEL_API_KEY environment variable',
    baseUrl: baseUrl ?? DEFAULT_BASE_URLS[providerType],
    maxContextSize: envInt(env, 'JARVIS_MODEL_MAX_CONTEXT_SIZE') ?? ENV_MODEL_DEFAULT_CONTEXT_SIZE,
    maxOutputSize: envInt(env, 'JARVIS_MODEL_MAX_OUTPUT_SIZE'),
    capabilities: mergeCapabilities(model, caps as CapabilityName[]),
    displayName: envValue(env, 'JARVIS_MODEL_DISPLAY_NAME')?.trim() ?? model,
    reasoningKey: envValue(env, 'JARVIS_MODEL_REASONING_KEY')?.trim(),
    defaultEffort: envValue(env, 'JARVIS_MODEL_THINKING_EFFORT')?.trim(),
    adaptiveThinking: adaptive,
  };
}

function envNumber(env: NodeJS.ProcessEnv, name: string, min: number, max: number): number | undefined {
  const raw = envValue(env, name)?.trim();
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min || n > max)
    throw new ModelConfigError(`${name}: expected a number from ${min} to ${max}, got ${JSON.stringify(raw)}`);
  return n;
}

/**
 * The Moonshot/Kimi run-time knobs (docs/configuration.md): they apply to every kimi model, from the
 * config or from JARVIS_MODEL_*, and are read here so the adapter never reads the environment.
 */
function withKimiKnobs(model: ResolvedModel, env: NodeJS.ProcessEnv): ResolvedModel {
  if (model.providerType !== 'kimi') return model;
  const capRaw = envValue(env, 'JARVIS_MODEL_MAX_COMPLETION_TOKENS')?.trim();
  const cap = capRaw === undefined ? undefined : Number(capRaw);
  if (cap !== undefined && !Number.isInteger(cap))
    throw new ModelConfigError(
      `JARVIS_MODEL_MAX_COMPLETION_TOKENS: expected an integer (0 or less: no cap), got ${JSON.stringify(capRaw)}`,
    );
  const knobs = {
    ...(cap !== undefined && cap > 0 ? { maxCompletionTokens: cap } : {}),
    ...definedOnly({
      temperature: envNumber(env, 'JARVIS_MODEL_TEMPERATURE', 0, 2),
      topP: envNumber(env, 'JARVIS_MODEL_TOP_P', 0, 1),
    }),
  };
  // JARVIS_MODEL_THINKING_EFFORT forces the wire effort of a kimi model from the config too.
  const effort = envValue(env, 'JARVIS_MODEL_THINKING_EFFORT')?.trim() || undefined;
  return {
    ...model,
    ...(Object.keys(knobs).length ? { kimi: knobs } : {}),
    ...(effort ? { defaultEffort: effort } : {}),
  };
}

/** Picks and resolves the model for this run. Throws ModelConfigError (or NoModelConfiguredError). */
export function resolveModel(input: ResolveModelInput): ResolvedModel {
  return withKimiKnobs(pickModel(input), input.env);
}

function pickModel(input: ResolveModelInput): ResolvedModel {
  const { config, env, cliModel, configPath } = input;
  const aliases = Object.keys(config.models);
  const file = displayPath(configPath);

  if (cliModel !== undefined) {
    if (config.models[cliModel]) return resolveAlias(input, cliModel);
    throw new ModelConfigError(
      aliases.length
        ? `-m ${JSON.stringify(cliModel)}: no such model alias in ${file}; defined aliases: ${quoted(aliases)}`
        : `-m ${JSON.stringify(cliModel)}: no such model alias; ${file} defines no [models.<alias>] tables`,
    );
  }
  if (envValue(env, 'JARVIS_MODEL_NAME') !== undefined) return resolveFromEnv(env);
  if (config.default_model !== undefined) {
    if (config.models[config.default_model]) return resolveAlias(input, config.default_model);
    throw new ModelConfigError(
      `${file}: default_model: no model alias "${config.default_model}"; defined aliases: ${quoted(aliases)}`,
    );
  }
  if (aliases.length === 0) throw new NoModelConfiguredError(configPath);
  throw new ModelConfigError(
    `${file}: default_model is not set; set it to one of ${quoted(aliases)}, or pass -m <alias>`,
  );
}
