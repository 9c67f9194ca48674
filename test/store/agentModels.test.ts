// What an agent file's `model:` names (src/store/agentModels.ts): Claude Code's aliases and full ids, opencode's
// provider/model, `[model_aliases]`, `[models]` names; what names nothing says how to map it; `[model_aliases]`
// pointing at no model is a configuration error.
import { describe, expect, it } from 'vitest';
import { agentModelAlias, agentModelResolver } from '../../src/store/agentModels';
import { ConfigError, parseConfigText } from '../../src/store/config';

const config = parseConfigText(
  [
    'default_model = "main"',
    '[providers.anthropic]\ntype = "anthropic"\napi_key = "k"',
    '[providers.local]\ntype = "openai"\napi_key = "k"\nbase_url = "http://127.0.0.1:9/v1"',
    '[providers.nokey]\ntype = "openai"',
    '[models.main]\nprovider = "anthropic"\nmodel = "claude-sonnet-4-5-20250929"\nmax_context_size = 200000',
    '[models.quick]\nprovider = "anthropic"\nmodel = "claude-haiku-4-5"\nmax_context_size = 200000',
    '[models.coder]\nprovider = "local"\nmodel = "qwen3-coder"\nmax_context_size = 100000',
    '[models.broken]\nprovider = "nokey"\nmodel = "gpt-5"\nmax_context_size = 100000',
    '[model_aliases]\nopus = "coder"\n"google/gemini-2.5-pro" = "coder"',
  ].join('\n\n'),
  '/cfg/config.toml',
).config;

const alias = (value: string) => {
  const found = agentModelAlias(config, value);
  return 'alias' in found ? found.alias : found.reason;
};

describe('agent file models', () => {
  it('maps every way agent files name models onto a [models] alias', () => {
    expect(alias('sonnet')).toBe('main'); // Claude Code's family name, found in a configured id
    expect(alias('haiku')).toBe('quick');
    expect(alias('Opus')).toBe('coder'); // [model_aliases] first, whatever the case
    expect(alias('claude-haiku-4-5')).toBe('quick'); // a full id
    expect(alias('quick')).toBe('quick'); // a [models] name
    expect(alias('anthropic/claude-sonnet-4-5-20250929')).toBe('main'); // opencode's provider/model
    expect(alias('local/qwen3-coder')).toBe('coder');
    expect(alias('openrouter/qwen3-coder')).toBe('coder'); // the id part alone when the provider differs
    expect(alias('google/gemini-2.5-pro')).toBe('coder'); // mapped explicitly
    // A family word inside another word is not that family.
    expect(alias('son')).toContain('no configured model is "son"');
    expect(alias('gpt-4o')).toBe(
      'no configured model is "gpt-4o" (models: main, quick, coder, broken); map it with [model_aliases] "gpt-4o" = "<alias>" in config.toml',
    );
  });

  it('resolves to a model with its credentials; inherit is the caller; a model that cannot be used says why', () => {
    const resolve = agentModelResolver({ config, env: {}, configPath: '/cfg/config.toml' });
    expect(resolve('inherit')).toEqual({ kind: 'inherit' });
    expect(resolve('')).toEqual({ kind: 'inherit' });
    const haiku = resolve('haiku');
    expect(haiku.kind === 'model' && haiku.model).toMatchObject({
      alias: 'quick',
      model: 'claude-haiku-4-5',
      providerType: 'anthropic',
    });
    const broken = resolve('broken');
    expect(broken.kind).toBe('unresolved');
    expect(broken.kind === 'unresolved' && broken.reason).toMatch(/^model "broken" cannot be used: .*no API key/);
    expect(resolve('mistral').kind).toBe('unresolved');
  });

  it('[model_aliases] must point at a [models] alias', () => {
    const bad = () =>
      parseConfigText(
        '[providers.p]\ntype = "openai"\napi_key = "k"\n[models.fast]\nprovider = "p"\nmodel = "m"\nmax_context_size = 10\n[model_aliases]\nhaiku = "quick"\n',
        '/cfg/config.toml',
      );
    expect(bad).toThrow(ConfigError);
    expect(bad).toThrow('/cfg/config.toml: model_aliases.haiku: no model alias "quick"; defined aliases: "fast"');
  });
});
