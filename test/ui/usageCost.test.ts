// /usage shows the session's cost only as the provider reported it (docs/print-mode.md "Cost"), with how
// many requests reported one when not all did; the totals come from replaying the journal's usage records.
import { describe, expect, it } from 'vitest';
import type { ContextBreakdown } from '../../src/engine/context/context';
import { replay } from '../../src/engine/session/records';
import { usageLines, usd } from '../../src/ui/usageView';

function breakdown(session: ContextBreakdown['session']): ContextBreakdown {
  return {
    total: 100,
    window: 1000,
    free: 900,
    compactAt: 800,
    sources: { systemPrompt: 50, agentsMd: 0, toolSchemas: 50, history: 0, memory: 0, toolResults: 0 },
    estimated: 100,
    messages: 0,
    compactions: 0,
    session,
  };
}

const usage = (costUsd?: number) => ({
  type: 'usage' as const,
  usage: { inputTokens: 10, outputTokens: 2, ...(costUsd === undefined ? {} : { costUsd }) },
});

describe('/usage cost', () => {
  it('sums the reported costs; says when only some requests reported one', () => {
    const all = replay([usage(0.0012), usage(0.0003)]).usage;
    expect(all).toMatchObject({ requests: 2, costReports: 2 });
    expect(usageLines(breakdown(all), 1).join('\n')).toMatch(/\n {2}Cost {12}\s+\$0\.001500\n/);
    const some = replay([usage(0.25), usage()]).usage;
    expect(usageLines(breakdown(some), 1).join('\n')).toMatch(
      /Cost\s+\$0\.2500 {2}\(1 of 2 requests reported a cost\)/,
    );
  });

  it('shows no cost line when no request reported one (no made-up figure)', () => {
    const none = replay([usage(), usage()]).usage;
    expect(none.costUsd).toBeUndefined();
    expect(usageLines(breakdown(none), 1).join('\n')).not.toMatch(/Cost|\$/);
  });

  it('adds what was priced where the provider reported no cost, and says so', () => {
    const priced = (pricedUsd?: number) => ({
      type: 'usage' as const,
      usage: {
        inputTokens: 10,
        outputTokens: 2,
        ...(pricedUsd === undefined ? {} : { pricedUsd, priceSource: 'config' as const }),
      },
      model: 'gpt-4o',
    });
    const all = replay([priced(0.002), priced(0.001)]).usage;
    const lines = usageLines(breakdown(all), 1, undefined, all.byModel).join('\n');
    expect(lines).toMatch(/Cost\s+\$0\.003000 {2}\(priced\)/);
    expect(lines).toMatch(/gpt-4o .* 2 requests {2}\$0\.003000 priced/);
    const mixed = replay([usage(0.25), priced(0.05), priced()]).usage;
    expect(usageLines(breakdown(mixed), 1).join('\n')).toMatch(
      /Cost\s+\$0\.3000 {2}\(1 reported by the provider, 1 priced, of 3 requests\)/,
    );
  });

  it('formats dollars readably', () => {
    expect(usd(12.345)).toBe('$12.35');
    expect(usd(0.0421)).toBe('$0.0421');
    expect(usd(0.000123)).toBe('$0.000123');
  });
});
