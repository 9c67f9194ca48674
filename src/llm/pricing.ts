// What a request cost when the provider did not say (docs/print-mode.md "Cost"). OpenAI, Anthropic and most direct
// APIs report tokens only; Jarvis then prices the tokens itself, from the model's `[models.<alias>] price` in
// config.toml, else from the price dataset of @pydantic/genai-prices (bundled, loaded on first use, never updated
// over the network). A cost the provider reported is never replaced: it is what was billed.
//
// The dataset is only asked about a provider it can tell from the base URL's host name (api.openai.com,
// api.anthropic.com, api.deepseek.com…). A local server, an IP address or a host the dataset does not know gets no
// price rather than a guess from the model's name: a model served by a proxy or a local runtime may cost nothing,
// or something else.
import { isIP } from 'node:net';
import type { ResolvedModel, TokenPrices, Usage } from './types';

const PER_MILLION = 1_000_000;

/** A request's cost from a price table, USD; cached input at its own price, else at the input price. */
export function costFromPrices(prices: TokenPrices, usage: Usage): number {
  const cacheRead = usage.cacheReadTokens ?? 0;
  const cacheWrite = usage.cacheWriteTokens ?? 0;
  // `inputTokens` is the whole prompt, cached parts included (every adapter reports it so).
  const uncached = Math.max(0, usage.inputTokens - cacheRead - cacheWrite);
  const usd =
    uncached * prices.input +
    cacheRead * (prices.cacheRead ?? prices.input) +
    cacheWrite * (prices.cacheWrite ?? prices.input) +
    usage.outputTokens * prices.output;
  return usd / PER_MILLION;
}

type PriceDataset = typeof import('@pydantic/genai-prices');
let dataset: Promise<PriceDataset> | undefined;

/** The host the dataset is asked about, or undefined when no provider of it can be behind the base URL. */
function datasetHost(baseUrl: string | undefined): string | undefined {
  if (!baseUrl) return undefined;
  let host: string;
  try {
    host = new URL(baseUrl).hostname.toLowerCase().replace(/\.$/, '');
  } catch {
    return undefined;
  }
  const bare = host.startsWith('[') ? host.slice(1, -1) : host;
  if (isIP(bare) || bare === 'localhost' || bare.endsWith('.localhost') || !bare.includes('.')) return undefined;
  return bare;
}

/**
 * The dataset's price of one request to `model`, USD; undefined when it has none for that provider and model. A
 * dataset that fails to load or to price is reported in `problem`, and the request stays unpriced.
 */
export async function datasetCost(
  model: Pick<ResolvedModel, 'model' | 'baseUrl'>,
  usage: Usage,
): Promise<{ usd?: number; problem?: string }> {
  const host = datasetHost(model.baseUrl);
  if (!host) return {};
  try {
    const { calcPrice } = await (dataset ??= import('@pydantic/genai-prices'));
    // The dataset's providers are patterns over `https://<host>`: the provider is told from the host, whatever the
    // scheme the base URL uses (a plain-HTTP proxy in front of the same API bills the same).
    const price = calcPrice(
      {
        input_tokens: usage.inputTokens,
        output_tokens: usage.outputTokens,
        ...(usage.cacheReadTokens ? { cache_read_tokens: usage.cacheReadTokens } : {}),
        ...(usage.cacheWriteTokens ? { cache_write_tokens: usage.cacheWriteTokens } : {}),
      },
      model.model,
      { providerApiUrl: `https://${host}` },
    );
    return price && Number.isFinite(price.total_price) && price.total_price >= 0 ? { usd: price.total_price } : {};
  } catch (e) {
    dataset = undefined;
    const why = e instanceof Error ? e.message : String(e);
    return { problem: `the price dataset could not price a request to ${model.model} (${why}); it counts as unpriced` };
  }
}

/**
 * `usage` with its price when the provider reported no cost: the configured price wins over the dataset. Unchanged
 * when the provider reported a cost or no price is known; `problem` says why the dataset could not answer.
 */
export async function withPrice(model: ResolvedModel, usage: Usage): Promise<{ usage: Usage; problem?: string }> {
  if (usage.costUsd !== undefined) return { usage };
  if (model.price) return { usage: { ...usage, pricedUsd: costFromPrices(model.price, usage), priceSource: 'config' } };
  const { usd, problem } = await datasetCost(model, usage);
  if (usd === undefined) return problem ? { usage, problem } : { usage };
  return { usage: { ...usage, pricedUsd: usd, priceSource: 'dataset' } };
}

/** What a request cost and who said so: the provider, or a price table; undefined when neither. */
export function requestCost(usage: Usage): { usd: number; source: 'provider' | 'priced' } | undefined {
  if (usage.costUsd !== undefined) return { usd: usage.costUsd, source: 'provider' };
  if (usage.pricedUsd !== undefined) return { usd: usage.pricedUsd, source: 'priced' };
  return undefined;
}

/** `provider`, `priced`, `mixed` (some of each) or null (no request had a cost). */
export type CostSource = 'provider' | 'priced' | 'mixed' | null;

/** Sums of binary fractions drift (0.1 + 0.2); a cost is kept to 1e-10 USD, far below any price. */
export function roundUsd(value: number): number {
  return Math.round(value * 1e10) / 1e10;
}

/** The cost of a set of requests: reported and priced figures summed, and what the sum rests on. */
export class CostTally {
  requests = 0;
  reported = 0;
  priced = 0;
  private usd = 0;

  add(usage: Usage): void {
    this.requests++;
    const cost = requestCost(usage);
    if (!cost) return;
    if (cost.source === 'provider') this.reported++;
    else this.priced++;
    this.usd += cost.usd;
  }

  /** USD, or null when no request had a cost. */
  get totalUsd(): number | null {
    return this.reported + this.priced ? roundUsd(this.usd) : null;
  }

  get source(): CostSource {
    if (this.reported && this.priced) return 'mixed';
    if (this.reported) return 'provider';
    return this.priced ? 'priced' : null;
  }

  /** True only when every request had a cost, reported or priced. */
  get complete(): boolean {
    return this.requests > 0 && this.reported + this.priced === this.requests;
  }
}
