import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ResolvedModel as LlmResolvedModel } from '../../src/llm/types';
import { parseConfigText, readConfigFile } from '../../src/store/config';
import type { JarvisConfig } from '../../src/store/configSchema';
import {
  ENV_MODEL_ALIAS,
  ModelConfigError,
  NoModelConfiguredError,
  detectCapabilities,
  resolveModel,
  type ResolveModelInput,
} from '../../src/store/modelResolution';

const CONFIG_PATH = '/cfg/config.toml';
const FULL = readConfigFile(join(__dirname, '../fixtures/config/valid-full.toml')).config;

function cfg(text: string): JarvisConfig {
  return parseConfigText(text, CONFIG_PATH).config;
}

function resolve(input: Partial<ResolveModelInput> & { config: JarvisConfig }) {
  return resolveModel({ env: {}, configPath: CONFIG_PATH, ...input });
}

function errorOf(fn: () => unknown): Error {
  try {
    fn();
  } catch (err) {
    if (err instanceof Error) return err;
  }
  throw new Error('expected an error');
}

const ENV_CHANNEL = {
  JARVIS_MODEL_NAME: 'kimi-k2-0905-preview',
  JARVIS_MODEL_API_KEY: 'env-key',
  JARVIS_MODEL_PROVIDER_TYPE: 'kimi',
};

const TWO_MODELS = `default_model = "a"
[providers.p]
type = "openai"
api_key = "file-key"
[models.a]
provider = "p"
model = "gpt-4.1"
max_context_size = 1000
[models.b]
provider = "p"
model = "o3"
max_context_size = 2000
`;

describe('model selection precedence: -m > JARVIS_MODEL_* > default_model', () => {
  it.each([
    ['default_model alone', {}, undefined, 'a'],
    ['env channel beats default_model', ENV_CHANNEL, undefined, ENV_MODEL_ALIAS],
    ['-m beats the env channel', ENV_CHANNEL, 'b', 'b'],
    ['-m beats default_model', {}, 'b', 'b'],
  ])('%s', (_name, env, cliModel, alias) => {
    expect(resolve({ config: cfg(TWO_MODELS), env, cliModel }).alias).toBe(alias);
  });

  it('-m is not validated against a broken env channel it overrides', () => {
    expect(resolve({ config: cfg(TWO_MODELS), env: { JARVIS_MODEL_NAME: 'x' }, cliModel: 'a' }).alias).toBe('a');
  });

  it('an unknown -m alias lists the aliases', () => {
    expect(errorOf(() => resolve({ config: cfg(TWO_MODELS), cliModel: 'c' })).message).toBe(
      '-m "c": no such model alias in /cfg/config.toml; defined aliases: "a", "b"',
    );
    expect(errorOf(() => resolve({ config: cfg(''), cliModel: 'c' })).message).toContain(
      'defines no [models.<alias>] tables',
    );
  });

  it('models without default_model asks for one', () => {
    const err = errorOf(() => resolve({ config: cfg(TWO_MODELS.replace('default_model = "a"', '')) }));
    expect(err).toBeInstanceOf(ModelConfigError);
    expect(err.message).toBe(
      '/cfg/config.toml: default_model is not set; set it to one of "a", "b", or pass -m <alias>',
    );
  });
});

describe('no model configured', () => {
  it('shows both the config.toml snippet and the env-var quick start', () => {
    const err = errorOf(() => resolve({ config: cfg('') }));
    expect(err).toBeInstanceOf(NoModelConfiguredError);
    expect(err).toBeInstanceOf(ModelConfigError);
    for (const part of [
      '/cfg/config.toml',
      '[providers.my-provider]',
      '[models.my-model]',
      'default_model = "my-model"',
      'JARVIS_MODEL_NAME',
      'JARVIS_MODEL_API_KEY',
      'JARVIS_MODEL_PROVIDER_TYPE',
      'JARVIS_MODEL_BASE_URL',
    ]) {
      expect(err.message).toContain(part);
    }
  });
});

describe('provider credentials', () => {
  const withProvider = (provider: string) =>
    cfg(
      `default_model = "m"\n[providers.p]\n${provider}\n[models.m]\nprovider = "p"\nmodel = "gpt-4.1"\nmax_context_size = 1000\n`,
    );

  it('api_key beats the [providers.x.env] table', () => {
    const config = withProvider('type = "openai"\napi_key = "from-key"\nenv = { OPENAI_API_KEY = "from-env-table" }');
    expect(resolve({ config }).apiKey).toBe('from-key');
  });

  it('falls back to the conventional name in the env table', () => {
    expect(resolve({ config: withProvider('type = "openai"\nenv = { OPENAI_API_KEY = "t" }') }).apiKey).toBe('t');
    expect(resolve({ config: withProvider('type = "openai_responses"\nenv = { OPENAI_API_KEY = "t" }') }).apiKey).toBe(
      't',
    );
    expect(resolve({ config: withProvider('type = "kimi"\nenv = { KIMI_API_KEY = "k" }') }).apiKey).toBe('k');
    expect(resolve({ config: withProvider('type = "anthropic"\nenv = { ANTHROPIC_API_KEY = "a" }') }).apiKey).toBe('a');
  });

  it('neither → an error naming the provider and where a key goes', () => {
    const err = errorOf(() =>
      resolve({ config: withProvider('type = "openai"\nenv = { ANTHROPIC_API_KEY = "wrong-name" }') }),
    );
    expect(err).toBeInstanceOf(ModelConfigError);
    expect(err.message).toBe(
      '/cfg/config.toml: providers.p: no API key: set api_key, or OPENAI_API_KEY in [providers.p.env] ' +
        '(shell environment variables are not read for provider credentials)',
    );
  });

  it('never reads an exported shell OPENAI_API_KEY / *_BASE_URL', () => {
    const config = withProvider('type = "openai"');
    const env = {
      OPENAI_API_KEY: 'shell-key',
      OPENAI_BASE_URL: 'http://shell',
      KIMI_API_KEY: 'x',
      ANTHROPIC_API_KEY: 'y',
    };
    expect(() => resolve({ config, env })).toThrow(/no API key/);
    const withKey = withProvider('type = "openai"\napi_key = "file"');
    expect(resolve({ config: withKey, env })).toMatchObject({ apiKey: 'file', baseUrl: 'https://api.openai.com/v1' });
  });

  it('base_url: provider base_url, then the env table, then the per-type default', () => {
    expect(
      resolve({
        config: withProvider(
          'type = "kimi"\napi_key = "k"\nbase_url = "http://b"\nenv = { KIMI_BASE_URL = "http://e" }',
        ),
      }).baseUrl,
    ).toBe('http://b');
    expect(
      resolve({ config: withProvider('type = "kimi"\napi_key = "k"\nenv = { KIMI_BASE_URL = "http://e" }') }).baseUrl,
    ).toBe('http://e');
    expect(resolve({ config: withProvider('type = "kimi"\napi_key = "k"') }).baseUrl).toBe(
      'https://api.moonshot.ai/v1',
    );
    expect(resolve({ config: withProvider('type = "anthropic"\napi_key = "k"') }).baseUrl).toBe(
      'https://api.anthropic.com',
    );
  });

  it('uses a stored OAuth token for a provider with an oauth reference', () => {
    const config = withProvider('type = "openai"\noauth = { storage = "file", key = "gw" }');
    expect(resolve({ config, oauthToken: (ref) => (ref.key === 'gw' ? 'tok' : undefined) }).apiKey).toBe('tok');
    expect(() => resolve({ config })).toThrow('no stored OAuth credential for oauth.key = "gw"');
  });

  it('rejects provider types that are valid config but not built yet', () => {
    const config = withProvider('type = "google-genai"\napi_key = "g"');
    expect(() => resolve({ config })).toThrow('provider type "google-genai" is not supported yet');
  });
});

describe('resolved model fields', () => {
  it('maps the full example (overrides, custom headers, clamping, protocol routing)', () => {
    const fast = resolve({ config: FULL });
    expect(fast).toEqual({
      alias: 'fast',
      providerName: 'moonshot',
      providerType: 'kimi',
      model: 'kimi-k2-turbo-preview',
      apiKey: 'sk-kimi',
      apiKeySource: expect.stringMatching(
        /^(api_key under \[providers\.moonshot\]|MOONSHOT_API_KEY|KIMI_API_KEY under \[providers\.moonshot\.env\]) in /,
      ),
      baseUrl: 'https://api.moonshot.ai/v1',
      customHeaders: { 'X-Team': 'core' },
      maxContextSize: 262144,
      maxInputSize: 262144, // 300000 clamped to the window
      maxOutputSize: undefined,
      capabilities: ['image_in', 'video_in', 'tool_use'],
      displayName: 'Kimi (fast)',
      reasoningKey: undefined,
      defaultEffort: 'low',
      supportEfforts: ['low', 'high'],
      offEffort: 'none',
      adaptiveThinking: undefined,
    });
    const routed = resolve({ config: FULL, cliModel: 'routed', oauthToken: () => 'tok' });
    expect(routed).toMatchObject({
      providerType: 'openai_responses',
      baseUrl: 'http://127.0.0.1:9/responses',
      reasoningKey: 'reasoning_content',
      displayName: 'gpt-4.1',
    });
    const claude = resolve({ config: FULL, cliModel: 'claude.sonnet' });
    expect(claude).toMatchObject({
      apiKey: 'sk-ant',
      baseUrl: 'http://127.0.0.1:9/anthropic',
      maxOutputSize: 64000,
      adaptiveThinking: true,
    });
    expect(claude.capabilities).toEqual(['thinking', 'image_in', 'tool_use']);
  });

  it('capabilities in config add to auto-detected ones and never remove them', () => {
    const config = cfg(
      `default_model = "m"\n[providers.p]\ntype = "anthropic"\napi_key = "k"\n[models.m]\nprovider = "p"\nmodel = "claude-opus-4-1"\nmax_context_size = 1000\ncapabilities = ["audio_in"]\n`,
    );
    expect(resolve({ config }).capabilities).toEqual(['thinking', 'image_in', 'audio_in', 'tool_use']);
  });

  it.each([
    ['claude-sonnet-4-5', ['thinking', 'image_in', 'tool_use']],
    ['claude-3-5-haiku-latest', ['image_in', 'tool_use']],
    ['anthropic/claude-3-7-sonnet', ['thinking', 'image_in', 'tool_use']],
    ['gpt-4o-mini', ['image_in', 'tool_use']],
    ['gpt-4.1', ['image_in', 'tool_use']],
    ['gpt-5-mini', ['thinking', 'image_in', 'tool_use']],
    ['o3', ['thinking', 'always_thinking', 'image_in', 'tool_use']],
    ['o4-mini', ['thinking', 'always_thinking', 'image_in', 'tool_use']],
    ['kimi-k2-0905-preview', ['tool_use']],
    ['kimi-k2-thinking', ['thinking', 'always_thinking', 'tool_use']],
    ['moonshot-v1-128k', ['tool_use']],
    ['deepseek-reasoner', ['thinking', 'always_thinking', 'tool_use']],
    ['some-local-model', []],
  ])('detects %s', (model, caps) => {
    expect(detectCapabilities(model)).toEqual(caps);
  });
});

describe('JARVIS_MODEL_* channel', () => {
  it('needs NAME, API_KEY and the type; defaults the base URL per type, context 262144, image_in+thinking', () => {
    expect(resolve({ config: cfg(''), env: ENV_CHANNEL })).toEqual({
      alias: ENV_MODEL_ALIAS,
      providerName: ENV_MODEL_ALIAS,
      providerType: 'kimi',
      model: 'kimi-k2-0905-preview',
      apiKey: 'env-key',
      apiKeySource: 'the JARVIS_MODEL_API_KEY environment variable',
      baseUrl: 'https://api.moonshot.ai/v1',
      maxContextSize: 262144,
      maxOutputSize: undefined,
      capabilities: ['thinking', 'image_in', 'tool_use'],
      displayName: 'kimi-k2-0905-preview',
      reasoningKey: undefined,
      defaultEffort: undefined,
      adaptiveThinking: undefined,
    });
  });

  it('reads every documented variable', () => {
    const env = {
      JARVIS_MODEL_NAME: 'claude-sonnet-4-5',
      JARVIS_MODEL_API_KEY: 'k',
      JARVIS_MODEL_PROVIDER_TYPE: 'Anthropic',
      JARVIS_MODEL_BASE_URL: 'http://127.0.0.1:1',
      JARVIS_MODEL_MAX_CONTEXT_SIZE: '200000',
      JARVIS_MODEL_CAPABILITIES: 'video_in',
      JARVIS_MODEL_DISPLAY_NAME: 'Sonnet',
      JARVIS_MODEL_MAX_OUTPUT_SIZE: '32000',
      JARVIS_MODEL_REASONING_KEY: 'reasoning',
      JARVIS_MODEL_THINKING_EFFORT: 'high',
      JARVIS_MODEL_ADAPTIVE_THINKING: 'true',
    };
    expect(resolve({ config: cfg(''), env })).toMatchObject({
      providerType: 'anthropic',
      baseUrl: 'http://127.0.0.1:1',
      maxContextSize: 200000,
      capabilities: ['thinking', 'image_in', 'video_in', 'tool_use'],
      displayName: 'Sonnet',
      maxOutputSize: 32000,
      reasoningKey: 'reasoning',
      defaultEffort: 'high',
      adaptiveThinking: true,
    });
  });

  it.each([
    [{ JARVIS_MODEL_NAME: 'm' }, 'JARVIS_MODEL_NAME is set but JARVIS_MODEL_API_KEY is missing'],
    [{ JARVIS_MODEL_NAME: 'm', JARVIS_MODEL_API_KEY: '  ' }, 'JARVIS_MODEL_API_KEY is missing'],
    [
      { ...ENV_CHANNEL, JARVIS_MODEL_PROVIDER_TYPE: 'gemini' },
      'JARVIS_MODEL_PROVIDER_TYPE: expected one of kimi, anthropic, openai, openai_responses, got "gemini"',
    ],
    [
      { ...ENV_CHANNEL, JARVIS_MODEL_MAX_CONTEXT_SIZE: 'lots' },
      'JARVIS_MODEL_MAX_CONTEXT_SIZE: expected a positive integer, got "lots"',
    ],
    [
      { ...ENV_CHANNEL, JARVIS_MODEL_MAX_OUTPUT_SIZE: '0' },
      'JARVIS_MODEL_MAX_OUTPUT_SIZE: expected a positive integer, got "0"',
    ],
    [
      { ...ENV_CHANNEL, JARVIS_MODEL_CAPABILITIES: 'image_in,vision' },
      'JARVIS_MODEL_CAPABILITIES: unknown capability "vision"',
    ],
    [
      { ...ENV_CHANNEL, JARVIS_MODEL_ADAPTIVE_THINKING: 'maybe' },
      'JARVIS_MODEL_ADAPTIVE_THINKING: expected true or false',
    ],
  ])('%j → error', (env, message) => {
    const err = errorOf(() => resolve({ config: cfg(TWO_MODELS), env }));
    expect(err).toBeInstanceOf(ModelConfigError);
    expect(err.message).toContain(message);
  });

  it("without JARVIS_MODEL_PROVIDER_TYPE, the type is told only from a provider's own host in the base URL", () => {
    const key = { JARVIS_MODEL_NAME: 'm', JARVIS_MODEL_API_KEY: 'sk-openai' };
    for (const [url, type] of [
      ['https://api.openai.com/v1', 'openai'],
      ['https://api.anthropic.com', 'anthropic'],
      ['https://api.moonshot.cn/v1', 'kimi'],
    ] as const) {
      const resolved = resolve({ config: cfg(''), env: { ...key, JARVIS_MODEL_BASE_URL: url } });
      expect(resolved).toMatchObject({ providerType: type, baseUrl: url });
    }
    // No base URL: the key would go to some provider's default host; it is refused, naming the variable.
    const none = errorOf(() => resolve({ config: cfg(''), env: key }));
    expect(none).toBeInstanceOf(ModelConfigError);
    expect(none.message).toContain('JARVIS_MODEL_PROVIDER_TYPE is not set');
    expect(none.message).toContain('the key is only ever sent to the endpoint you name');
    const withUrl = (url: string) => ({ config: cfg(''), env: { ...key, JARVIS_MODEL_BASE_URL: url } });
    const local = errorOf(() => resolve(withUrl('http://127.0.0.1:8000/v1')));
    expect(local.message).toContain('the API of 127.0.0.1 (JARVIS_MODEL_BASE_URL) cannot be told from its address');
    const broken = errorOf(() => resolve(withUrl('api.openai.com')));
    expect(broken.message).toContain('JARVIS_MODEL_BASE_URL is not a valid URL');
  });

  it('a blank JARVIS_MODEL_NAME leaves the channel off', () => {
    expect(resolve({ config: cfg(TWO_MODELS), env: { JARVIS_MODEL_NAME: ' ' } }).alias).toBe('a');
  });
});

describe('one definition shared with the llm layer', () => {
  it('the resolved model and the default base URLs are the same objects in both layers', async () => {
    const llm = await import('../../src/llm/types');
    const shared = await import('../../src/types/models');
    expect(llm.DEFAULT_BASE_URLS).toBe(shared.DEFAULT_BASE_URLS);
    const resolved: LlmResolvedModel = resolve({ config: FULL });
    expect(resolved.alias).toBe('fast');
  });
});

describe('Kimi run-time knobs (JARVIS_MODEL_MAX_COMPLETION_TOKENS, _TEMPERATURE, _TOP_P, _THINKING_EFFORT)', () => {
  const kimiFile = cfg(
    'default_model = "k"\n[providers.m]\ntype = "kimi"\napi_key = "x"\n[models.k]\nprovider = "m"\nmodel = "kimi-k2-thinking"\nmax_context_size = 1000\n',
  );
  const knobs = {
    JARVIS_MODEL_MAX_COMPLETION_TOKENS: '2048',
    JARVIS_MODEL_TEMPERATURE: '0.6',
    JARVIS_MODEL_TOP_P: '0.95',
    JARVIS_MODEL_THINKING_EFFORT: 'low',
  };

  it('are read during resolution, for kimi models from the config and from the environment', () => {
    const expected = { kimi: { maxCompletionTokens: 2048, temperature: 0.6, topP: 0.95 }, defaultEffort: 'low' };
    expect(resolve({ config: kimiFile, env: knobs })).toMatchObject(expected);
    expect(resolve({ config: cfg(''), env: { ...ENV_CHANNEL, ...knobs } })).toMatchObject(expected);
  });

  it('leave other provider types alone, and a cap of 0 or less means no cap', () => {
    expect(resolve({ config: cfg(TWO_MODELS), env: knobs }).kimi).toBeUndefined();
    expect(resolve({ config: kimiFile, env: { JARVIS_MODEL_MAX_COMPLETION_TOKENS: '0' } }).kimi).toBeUndefined();
  });

  it.each([
    [{ JARVIS_MODEL_TEMPERATURE: 'hot' }, 'JARVIS_MODEL_TEMPERATURE: expected a number from 0 to 2, got "hot"'],
    [{ JARVIS_MODEL_TOP_P: '3' }, 'JARVIS_MODEL_TOP_P: expected a number from 0 to 1, got "3"'],
    [{ JARVIS_MODEL_MAX_COMPLETION_TOKENS: '1.5' }, 'JARVIS_MODEL_MAX_COMPLETION_TOKENS: expected an integer'],
  ])('%j → a clear error', (env, message) => {
    expect(errorOf(() => resolve({ config: kimiFile, env })).message).toContain(message);
  });
});
