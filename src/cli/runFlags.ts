// The values of print mode's caps (docs/print-mode.md "Caps"): --max-turns, --max-budget-usd, --timeout. A value
// that is not what the flag takes is a usage error (exit 2) whose message shows a value that works.

/** `--max-turns N`: a whole number ≥ 1. */
export function parseMaxTurns(raw: string): number | string {
  const n = /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
  if (!Number.isSafeInteger(n) || n < 1)
    return `--max-turns takes a whole number of model turns ≥ 1 (e.g. --max-turns 10), got "${raw}".`;
  return n;
}

/** `--max-budget-usd X`: US dollars, a number > 0 (e.g. 0.50). */
export function parseBudgetUsd(raw: string): number | string {
  const text = raw.trim().replace(/^\$/, '');
  const n = /^(\d+(\.\d*)?|\.\d+)$/.test(text) ? Number(text) : NaN;
  if (!Number.isFinite(n) || n <= 0)
    return `--max-budget-usd takes an amount of US dollars greater than 0 (e.g. --max-budget-usd 0.50), got "${raw}".`;
  return n;
}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
/** The longest timeout a timer can hold (about 24.8 days). */
const MAX_TIMEOUT_MS = 2_147_483_647;

/** `--timeout <duration>`: `90s`, `10m`, `1h`, `1h30m`, `500ms`; a bare number is refused (its unit is unclear). */
export function parseDuration(raw: string): number | string {
  const text = raw.trim().toLowerCase();
  const usage =
    `--timeout takes a duration with its unit: ms, s, m or h (e.g. --timeout 90s, 10m, 1h30m), got "${raw}".` +
    (/^\d+(\.\d+)?$/.test(text) ? ` Add the unit: ${text}s for seconds.` : '');
  if (!/^(\d+(\.\d+)?(ms|s|m|h))+$/.test(text)) return usage;
  let ms = 0;
  for (const [, amount, , unit] of text.matchAll(/(\d+(\.\d+)?)(ms|s|m|h)/g)) ms += Number(amount) * UNIT_MS[unit];
  ms = Math.round(ms);
  if (ms < 1) return `--timeout must be longer than 0, got "${raw}".`;
  if (ms > MAX_TIMEOUT_MS) return `--timeout can be at most 596h (about 24 days), got "${raw}".`;
  return ms;
}

/** The caps of a run from its flags, or the first flag's usage error. */
export function capsFromFlags(flags: {
  maxTurns?: string;
  maxBudgetUsd?: string;
  timeout?: string;
}): { maxTurns?: number; maxBudgetUsd?: number; timeoutMs?: number } | { error: string } {
  const caps: { maxTurns?: number; maxBudgetUsd?: number; timeoutMs?: number } = {};
  const checks: Array<[string | undefined, (raw: string) => number | string, keyof typeof caps]> = [
    [flags.maxTurns, parseMaxTurns, 'maxTurns'],
    [flags.maxBudgetUsd, parseBudgetUsd, 'maxBudgetUsd'],
    [flags.timeout, parseDuration, 'timeoutMs'],
  ];
  for (const [raw, parse, key] of checks) {
    if (raw === undefined) continue;
    const value = parse(raw);
    if (typeof value === 'string') return { error: value };
    caps[key] = value;
  }
  return caps;
}
