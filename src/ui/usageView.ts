// What /usage shows (docs/ui.md): the context by source and the session's totals as the provider reported them.
import type { ContextBreakdown } from '../engine/context/context';
import type { ModelUsage } from '../engine/session/records';
import { contextPercent } from './footer';

/** A count as /usage prints it (12,345). */
export const n = (value: number) => value.toLocaleString('en-US');

const signed = (value: number) => (value > 0 ? `+${n(value)}` : n(value));

/** How many tools the model is offered with full schemas, and how many wait in ToolSearch's list. */
export interface ToolCounts {
  offered: number;
  deferred: number;
  loaded: number;
}

/** The /usage popup: where the context goes, then what the whole session cost, and by model when given. */
export function usageLines(
  b: ContextBreakdown,
  turns: number,
  tools?: ToolCounts,
  byModel?: Record<string, ModelUsage>,
): string[] {
  const row = (label: string, value: number, extra = '') => `  ${label.padEnd(16)}${n(value).padStart(10)}${extra}`;
  const share = (value: number) => (b.estimated ? `  ${Math.round((value / b.estimated) * 100)}%`.padStart(6) : '');
  return [
    `Context      ${contextPercent(b.total, b.window)}% · ${n(b.total)} of ${n(b.window)} tokens · ${n(b.free)} free`,
    `             auto-compaction at ${n(b.compactAt)} tokens · ${b.messages} messages · ${b.compactions} compaction${b.compactions === 1 ? '' : 's'}`,
    '',
    'By source (estimated)',
    row('System prompt', b.sources.systemPrompt, share(b.sources.systemPrompt)),
    row('AGENTS.md', b.sources.agentsMd, share(b.sources.agentsMd)),
    row('Tool schemas', b.sources.toolSchemas, share(b.sources.toolSchemas)),
    ...(tools
      ? [
          `  ${' '.repeat(16)}${tools.offered} tools offered · ${tools.deferred} deferred, ${tools.loaded} of them loaded with ToolSearch`,
        ]
      : []),
    row('Conversation', b.sources.history, share(b.sources.history)),
    row('Memory recall', b.sources.memory, share(b.sources.memory)),
    row('Tool results', b.sources.toolResults, share(b.sources.toolResults)),
    // The header's figure is the provider's count where there is one: the difference is shown, so Total is it.
    ...(b.total !== b.estimated
      ? [`  ${'Provider count'.padEnd(16)}${signed(b.total - b.estimated).padStart(10)}`]
      : []),
    row('Total', b.total),
    '',
    'Session totals (reported by the provider)',
    row('Input', b.session.inputTokens),
    row('Output', b.session.outputTokens),
    row('Cache read', b.session.cacheReadTokens),
    row('Cache write', b.session.cacheWriteTokens),
    ...costLines(b.session),
    row('Turns', turns),
    ...modelLines(byModel),
  ];
}

/**
 * The session's requests by the model they went to, subagents included (docs/ui.md `/usage`): one line each with
 * its input and output tokens and requests. Requests recorded before the model was kept are counted apart.
 */
function modelLines(byModel: Record<string, ModelUsage> | undefined): string[] {
  const models = Object.entries(byModel ?? {}).sort(([a], [b]) => (a === '' ? 1 : b === '' ? -1 : a.localeCompare(b)));
  if (!models.length) return [];
  const width = Math.max(16, ...models.map(([m]) => m.length + 2));
  return [
    '',
    'By model (subagents included)',
    ...models.map(
      ([model, u]) =>
        `  ${(model || '(not recorded)').padEnd(width)}${n(u.inputTokens).padStart(10)} in ${n(u.outputTokens).padStart(8)} out ${n(u.requests).padStart(5)} request${u.requests === 1 ? '' : 's'}${modelCost(u)}`,
    ),
  ];
}

/** A reported cost in dollars: cents for a dollar or more, else enough places to see it. */
export function usd(value: number): string {
  return `$${value >= 1 ? value.toFixed(2) : value.toFixed(value >= 0.01 ? 4 : 6)}`;
}

/** A model's cost on its /usage line: reported and priced summed, marked when a price table made any of it. */
function modelCost(u: ModelUsage): string {
  if (u.costUsd === undefined && u.pricedUsd === undefined) return '';
  const total = (u.costUsd ?? 0) + (u.pricedUsd ?? 0);
  return `  ${usd(total)}${u.pricedUsd === undefined ? '' : u.costUsd === undefined ? ' priced' : ' partly priced'}`;
}

/**
 * The session's cost (docs/print-mode.md "Cost"): what the provider reported, plus what Jarvis priced for requests
 * whose provider reported none; nothing when there is neither. The note says what the figure rests on.
 */
function costLines(s: ContextBreakdown['session']): string[] {
  const reported = s.costReports ?? 0;
  const priced = s.pricedReports ?? 0;
  if (!reported && !priced) return [];
  const total = (s.costUsd ?? 0) + (s.pricedUsd ?? 0);
  const requests = s.requests ?? reported + priced;
  const complete = reported + priced >= requests;
  let note: string;
  if (!priced) note = complete ? '' : `${reported} of ${requests} requests reported a cost`;
  else if (!reported) note = complete ? 'priced' : `priced; ${priced} of ${requests} requests had a price`;
  else note = `${reported} reported by the provider, ${priced} priced${complete ? '' : `, of ${requests} requests`}`;
  return [`  ${'Cost'.padEnd(16)}${usd(total).padStart(10)}${note ? `  (${note})` : ''}`];
}
