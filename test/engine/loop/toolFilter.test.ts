import { describe, expect, it } from 'vitest';
import { makeToolFilter } from '../../../src/engine/loop/toolFilter';
import { makeEngine, runPrompt, verifyEnginesAfterEach } from '../../helpers/engineHarness';

verifyEnginesAfterEach();
const names = ['Read', 'Write', 'Bash', 'mcp__github__create_issue', 'mcp__github__list', 'mcp__fs__read'];

describe('[tools] switch', () => {
  const cases: Array<[string, string[], string[], string[]]> = [
    ['empty lists allow everything', [], [], names],
    ['enabled is an allowlist', ['Read', 'Bash'], [], ['Read', 'Bash']],
    ['disabled applies after enabled', ['Read', 'Bash'], ['Bash'], ['Read']],
    ['mcp globs', ['mcp__github__*'], [], ['mcp__github__create_issue', 'mcp__github__list']],
    ['mcp globs in disabled', [], ['mcp__github__*'], ['Read', 'Write', 'Bash', 'mcp__fs__read']],
    ['enabled=["*"] enables no built-in tool', ['*'], [], []],
    ['disabled=["*"] disables none', [], ['*'], names],
  ];
  it.each(cases)('%s', (_name, enabled, disabled, expected) => {
    const f = makeToolFilter({ enabled, disabled }, names);
    expect(names.filter((n) => f.allows(n))).toEqual(expected);
  });

  it('warns about entries that cannot mean what they say', () => {
    const f = makeToolFilter({ enabled: ['*', 'read', 'Nope'], disabled: ['*', 'mcp__github'] }, names);
    const text = f.warnings.join('\n');
    expect(text).toMatch(/enabled: "\*" is a wildcard.*no built-in tool is enabled/);
    expect(text).toMatch(/disabled: "\*" is a wildcard.*disables nothing/);
    expect(text).toMatch(/"read" is not a tool name \(did you mean "Read"\?/);
    expect(text).toMatch(/"Nope" is not a tool name$/m);
    expect(text).toMatch(/"mcp__github" names no tool segment/);
  });

  it('a disabled tool is neither offered to the model nor run', async () => {
    const h = makeEngine({
      mode: 'yolo',
      toolSwitch: { enabled: [], disabled: ['Poke'] },
      responses: [{ toolCalls: [{ name: 'Poke', arguments: { key: 'a', ms: 0 } }] }, { text: 'ok' }],
    });
    await runPrompt(h, 'go');
    expect(h.client.requests[0].tools.map((t) => t.name)).toEqual(['Peek']);
    const result = h.runtime.session.state.messages.find((m) => m.role === 'tool');
    expect(JSON.stringify(result)).toMatch(/Unknown tool \\"Poke\\"\. Available tools: Peek/);
  });
});
