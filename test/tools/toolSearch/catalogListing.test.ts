// ToolSearch's catalog lines (docs/tools.md, "Deferred tools"): built-in tools one line each, an MCP
// server's tools on one line with the prefix written once; plugins' servers within the listing's room, every
// server named even past it.
import { describe, expect, it } from 'vitest';
import { catalogLines } from '../../../src/tools/toolSearch/catalogListing';
import { summarise, SUMMARY_MAX_CHARS, type DeferredToolEntry } from '../../../src/tools/toolSearch/toolLoader';

const builtin = (name: string): DeferredToolEntry => ({ name, summary: `${name} does one thing.`, loaded: false });
const server = (id: string, tools: string[], fromPlugin = false): DeferredToolEntry[] =>
  tools.map((t) => ({ name: `mcp__${id}__${t}`, summary: `The ${t} tool.`, loaded: false, group: id, fromPlugin }));

describe('ToolSearch catalog lines', () => {
  it('lists built-in tools with their summary and writes an MCP server prefix once', () => {
    const github = server('github', ['create_issue', 'list_prs']);
    const lines = catalogLines([builtin('CronList'), ...github, builtin('Memory'), ...server('one', ['only'])]);
    expect(lines).toEqual([
      '- CronList: CronList does one thing.',
      '- Memory: Memory does one thing.',
      '- mcp__github__{create_issue, list_prs}',
      '- mcp__one__only: The only tool.',
    ]);
  });

  it("fits plugins' MCP lines into the room it is given: a server that does not fit keeps its prefix and count", () => {
    const tools = Array.from({ length: 30 }, (_, i) => `a_rather_long_tool_name_${i}`);
    const many = (id: string) => server(id, tools, true);
    const rest = Array.from({ length: 40 }, (_, i) => many(`s${i}`)).flat();
    const own = server('mine', tools);
    const room = 2000;
    const lines = catalogLines([...server('small', ['a', 'b'], true), ...many('big'), ...own, ...rest], room);
    // The user's own server is listed in full, outside the plugins' budget.
    expect(lines).toContain(`- mcp__mine__{${tools.join(', ')}}`);
    const mcp = lines.filter((l) => l.startsWith('- mcp__') && !l.startsWith('- mcp__mine__'));
    expect(mcp[0]).toBe('- mcp__small__{a, b}');
    // big's full line (about 800 bytes) fits in 2000 bytes; a few more do, then only prefixes and counts.
    expect(mcp[1]).toBe(`- mcp__big__{${tools.join(', ')}}`);
    expect(mcp.at(-1)).toBe('- mcp__s39__*: 30 tools, names not listed (find them with a query)');
    // Every server is named, whatever the room.
    expect(mcp).toHaveLength(42);
    const full = mcp.filter((l) => l.includes('{'));
    expect(Buffer.byteLength(full.join('\n'))).toBeLessThanOrEqual(room);
    // More room, more servers listed in full.
    const wide = catalogLines([...many('big'), ...rest], 40_000).filter((l) => l.includes('{'));
    expect(wide.length).toBeGreaterThan(full.length + 10);
  });

  it(`summaries are the first sentence, at most ${SUMMARY_MAX_CHARS} characters, cut at a word`, () => {
    expect(summarise('Stops a task. Then more.')).toBe('Stops a task.');
    const cut = summarise(`${'word '.repeat(40)}end.`);
    expect(cut.length).toBeLessThanOrEqual(SUMMARY_MAX_CHARS);
    expect(cut).toMatch(/\bword…$/);
    expect(cut.endsWith(' …')).toBe(false);
  });
});
