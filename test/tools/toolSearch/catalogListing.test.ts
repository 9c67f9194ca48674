// ToolSearch's catalog lines (docs/tools.md, "Deferred tools"): built-in tools one line each, an MCP
// server's tools on one line with the prefix written once, all servers within PLUGIN_MCP_LISTING_BUDGET_BYTES.
import { describe, expect, it } from 'vitest';
import { catalogLines, PLUGIN_MCP_LISTING_BUDGET_BYTES } from '../../../src/tools/toolSearch/catalogListing';
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

  it("keeps plugins' MCP lines within their budget: a server that does not fit is cut, the rest counted", () => {
    const tools = Array.from({ length: 30 }, (_, i) => `a_rather_long_tool_name_${i}`);
    const many = (id: string) => server(id, tools, true);
    const rest = Array.from({ length: 40 }, (_, i) => many(`s${i}`)).flat();
    const own = server('mine', tools);
    const lines = catalogLines([...server('small', ['a', 'b'], true), ...many('big'), ...own, ...rest]);
    // The user's own server is listed in full, outside the plugins' budget.
    expect(lines).toContain(`- mcp__mine__{${tools.join(', ')}}`);
    const mcp = lines.filter((l) => /^- (mcp__|and the tools)/.test(l) && !l.startsWith('- mcp__mine__'));
    expect(mcp[0]).toBe('- mcp__small__{a, b}');
    expect(mcp[1]).toBe('- mcp__big__*: 30 tools, names not listed (find them with a query)');
    expect(mcp.at(-1)).toMatch(/^- and the tools of \d+ more plugin MCP servers \(find them with a query\)$/);
    expect(Buffer.byteLength(mcp.slice(0, -1).join('\n'))).toBeLessThanOrEqual(PLUGIN_MCP_LISTING_BUDGET_BYTES);
  });

  it(`summaries are the first sentence, at most ${SUMMARY_MAX_CHARS} characters, cut at a word`, () => {
    expect(summarise('Stops a task. Then more.')).toBe('Stops a task.');
    const cut = summarise(`${'word '.repeat(40)}end.`);
    expect(cut.length).toBeLessThanOrEqual(SUMMARY_MAX_CHARS);
    expect(cut).toMatch(/\bword…$/);
    expect(cut.endsWith(' …')).toBe(false);
  });
});
