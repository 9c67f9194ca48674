// Prices for requests whose provider reported no cost (src/llm/pricing.ts, docs/print-mode.md "Cost").
import { describe, expect, it } from 'vitest';
import { costFromPrices, CostTally, datasetCost, withPrice } from '../../src/llm/pricing';
import type { ResolvedModel } from '../../src/llm/types';

const model = (over: Partial<ResolvedModel>): ResolvedModel => ({
  alias: 'm',
  providerName: 'p',
  providerType: 'openai',
  model: 'gpt-4o',
  apiKey: 'k',
  maxContextSize: 128_000,
  capabilities: [],
  displayName: 'm',
  baseUrl: 'https://api.openai.com/v1',
  ...over,
});

describe('a price table', () => {
  it('charges cached input at its own price, and at the input price when it has none', () => {
    const usage = {
      inputTokens: 1_000_000,
      outputTokens: 100_000,
      cacheReadTokens: 400_000,
      cacheWriteTokens: 100_000,
    };
    expect(costFromPrices({ input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 }, usage)).toBeCloseTo(
      0.5 * 3 + 0.4 * 0.3 + 0.1 * 3.75 + 0.1 * 15,
    );
    expect(costFromPrices({ input: 2, output: 8 }, usage)).toBeCloseTo(2 + 0.8);
  });
});

describe('which requests are priced', () => {
  it('a reported cost is never replaced', async () => {
    const usage = { inputTokens: 10, outputTokens: 1, costUsd: 0.5 };
    expect((await withPrice(model({ price: { input: 1, output: 1 } }), usage)).usage).toEqual(usage);
  });
  it('a configured price wins over the dataset', async () => {
    const { usage } = await withPrice(model({ price: { input: 1, output: 1 } }), { inputTokens: 1e6, outputTokens: 0 });
    expect(usage).toMatchObject({ pricedUsd: 1, priceSource: 'config' });
  });
  it('the dataset knows the provider by its host, whatever the scheme', async () => {
    const https = await datasetCost(model({}), { inputTokens: 1e6, outputTokens: 0 });
    const http = await datasetCost(model({ baseUrl: 'http://api.openai.com/v1' }), {
      inputTokens: 1e6,
      outputTokens: 0,
    });
    expect(https.usd).toBe(2.5);
    expect(http.usd).toBe(2.5);
  });
  it('a local server, an IP address or an unknown host gets no price, not a guess from the model name', async () => {
    for (const baseUrl of [
      'http://localhost:11434/v1',
      'http://127.0.0.1:8080/v1',
      'http://[::1]:8080/v1',
      'http://10.0.0.5/v1',
      'http://llm-box/v1',
      'https://gateway.example.com/v1',
    ]) {
      expect(await datasetCost(model({ baseUrl }), { inputTokens: 1000, outputTokens: 10 }), baseUrl).toEqual({});
    }
  });
  it('a model the provider does not list gets no price', async () => {
    expect(await datasetCost(model({ model: 'my-fine-tune' }), { inputTokens: 1000, outputTokens: 10 })).toEqual({});
  });
});

describe('a tally of costs', () => {
  it('says what the figure rests on', () => {
    const tally = new CostTally();
    expect([tally.totalUsd, tally.source, tally.complete]).toEqual([null, null, false]);
    tally.add({ inputTokens: 1, outputTokens: 1, costUsd: 0.1 });
    expect([tally.totalUsd, tally.source, tally.complete]).toEqual([0.1, 'provider', true]);
    tally.add({ inputTokens: 1, outputTokens: 1, pricedUsd: 0.2, priceSource: 'dataset' });
    expect([tally.totalUsd, tally.source, tally.complete]).toEqual([0.3, 'mixed', true]);
    tally.add({ inputTokens: 1, outputTokens: 1 });
    expect([tally.totalUsd, tally.source, tally.complete]).toEqual([0.3, 'mixed', false]);
  });
});
