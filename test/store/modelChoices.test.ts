// The models a session can switch to (src/store/modelChoices.ts): the config's aliases in order, each resolved as a
// switch would be; an alias that cannot resolve stays listed with the reason; the env model, when current, first.
import { describe, expect, it } from 'vitest';
import { parseConfigText } from '../../src/store/config';
import { listModelChoices } from '../../src/store/modelChoices';
import { resolveModel } from '../../src/store/modelResolution';

const CONFIG_PATH = '/cfg/config.toml';
const TEXT = [
  'default_model = "fast"',
  '[providers.gateway]',
  'type = "anthropic"',
  'api_key = "sk-test"',
  '[providers.keyless]',
  'type = "openai"',
  '[models.fast]',
  'provider = "gateway"',
  'model = "claude-fast"',
  'max_context_size = 200000',
  '[models.broken]',
  'provider = "keyless"',
  'model = "gpt-x"',
  'max_context_size = 64000',
  'capabilities = ["always_thinking"]',
  '',
].join('\r\n');

const source = { config: parseConfigText(TEXT, CONFIG_PATH).config, configPath: CONFIG_PATH, env: {} };

describe('listModelChoices', () => {
  it('marks the current alias and lists one without a key with the reason a switch would give', () => {
    const current = resolveModel({ ...source, cliModel: 'fast' });
    const choices = listModelChoices(source, current);
    expect(choices.map((c) => [c.alias, c.current, c.problem === null])).toEqual([
      ['fast', true, true],
      ['broken', false, false],
    ]);
    const reason = (() => {
      try {
        resolveModel({ ...source, cliModel: 'broken' });
      } catch (e) {
        return (e as Error).message;
      }
      throw new Error('expected the keyless alias to fail');
    })();
    expect(choices[1]).toMatchObject({ provider: 'keyless', model: 'gpt-x', context_window: null, problem: reason });
  });

  it('puts the JARVIS_MODEL_* model first when it is the one in use, and lists it alone without a config', () => {
    const env = { JARVIS_MODEL_NAME: 'env-model', JARVIS_MODEL_API_KEY: 'k', JARVIS_MODEL_PROVIDER_TYPE: 'openai' };
    const current = resolveModel({ ...source, env });
    expect(listModelChoices(source, current).map((c) => [c.alias, c.current])).toEqual([
      ['JARVIS_MODEL', true],
      ['fast', false],
      ['broken', false],
    ]);
    expect(listModelChoices(undefined, current)).toEqual([
      expect.objectContaining({ alias: 'JARVIS_MODEL', model: 'env-model', current: true, problem: null }),
    ]);
  });
});
