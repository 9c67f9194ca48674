// `[models.<alias>] price` (docs/configuration.md "Prices"): USD per million tokens, checked like any key, and what
// the resolved model carries; the overrides table may carry it too.
import { describe, expect, it } from 'vitest';
import { parseConfigText } from '../../src/store/config';
import { resolveModel } from '../../src/store/modelResolution';

const BASE =
  '[providers.p]\ntype = "openai"\napi_key = "k"\n\n[models.m]\nprovider = "p"\nmodel = "gpt-4o"\nmax_context_size = 1000\n';

function resolved(extra: string) {
  const { config } = parseConfigText(`default_model = "m"\n${BASE}${extra}`, '/cfg/config.toml');
  return resolveModel({ env: {}, configPath: '/cfg/config.toml', config });
}

describe('a model price in config.toml', () => {
  it('an inline table and a [models.m.price] table both resolve, cached prices optional', () => {
    expect(resolved('price = { input = 2.5, output = 10 }\n').price).toEqual({ input: 2.5, output: 10 });
    expect(resolved('[models.m.price]\ninput = 3\noutput = 15\ncache_read = 0.3\ncache_write = 3.75\n').price).toEqual({
      input: 3,
      output: 15,
      cacheRead: 0.3,
      cacheWrite: 3.75,
    });
  });

  it('an override wins over the table it sits in', () => {
    const extra = 'price = { input = 1, output = 1 }\n[models.m.overrides]\nprice = { input = 2, output = 4 }\n';
    expect(resolved(extra).price).toEqual({ input: 2, output: 4 });
  });

  it('no price: none resolved', () => {
    expect(resolved('').price).toBeUndefined();
  });

  const bad: Array<[string, RegExp]> = [
    [
      'price = { input = -1, output = 1 }',
      /models\.m\.price\.input: expected a number of US dollars per million tokens/,
    ],
    ['price = { input = 1 }', /models\.m\.price\.output/],
    ['price = { input = "3", output = 1 }', /models\.m\.price\.input/],
    ['price = { input = 1, output = 1, cached = 1 }', /models\.m\.price.*cached/],
  ];
  for (const [line, message] of bad) it(`refused: ${line}`, () => expect(() => resolved(`${line}\n`)).toThrow(message));
});
