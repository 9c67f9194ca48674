// What a request cost, as the provider reported it (docs/print-mode.md "Cost"). OpenAI-compatible
// gateways say it in two ways: OpenRouter puts `cost` (USD; its credits are dollars) in the usage object
// of every response, the last SSE chunk included; a LiteLLM proxy sends `x-litellm-response-cost`.
// Nothing is estimated here: a value that is not a finite, non-negative number counts as not reported.
import type { Usage } from './types';

export const LITELLM_COST_HEADER = 'x-litellm-response-cost';

function asCost(value: unknown): number | undefined {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof number === 'number' && Number.isFinite(number) && number >= 0 ? number : undefined;
}

/** The cost in a usage object (`usage.cost`), if it is a usable number. */
export function costInUsage(raw: Record<string, unknown>): number | undefined {
  return typeof raw.cost === 'number' ? asCost(raw.cost) : undefined;
}

/** The cost a LiteLLM proxy sent in its response header, if any. */
export function costInHeaders(headers: Pick<Headers, 'get'> | undefined): number | undefined {
  return asCost(headers?.get(LITELLM_COST_HEADER) ?? undefined);
}

/** `usage` with the request's reported cost: the usage object's own first, else the header's. */
export function withReportedCost(usage: Usage, raw: Record<string, unknown>, headerCost: number | undefined): Usage {
  const cost = costInUsage(raw) ?? headerCost;
  return cost === undefined ? usage : { ...usage, costUsd: cost };
}
