import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  deferralWarnings,
  DeferredTools,
  MCP_INLINE_MAX,
  type DeferralConfig,
  type ToolSource,
} from '../../../src/engine/loop/deferredTools';
import { applyRecord, emptyState, type RecordBody } from '../../../src/engine/session/records';
import { defineTool, toolSchemaForModel, type Tool } from '../../../src/tools/defineTool';
import { TOOL_LOADER, TOOL_SEARCH_NAME } from '../../../src/tools/toolSearch';
import { makeToolHarness } from '../../helpers/toolHarness';

function tool(name: string, opts: { deferred?: boolean; description?: string } = {}): Tool {
  return defineTool({
    name,
    description: opts.description ?? `Does ${name} things. More detail that the catalog leaves out.`,
    schema: z.object({ count: z.number().int().min(1) }),
    readOnly: true,
    defaultApproval: 'auto',
    ...(opts.deferred ? { deferred: true } : {}),
    execute: async (args) => ({ content: `${name} ran with ${(args as { count: number }).count}` }),
  });
}

function source(tools: Tool[], mcp: string[] = []): ToolSource {
  return {
    list: () => tools,
    get: (name) => tools.find((t) => t.name === name),
    sourceOf: (name) => ({ kind: mcp.includes(name) ? 'mcp' : 'builtin' }),
  };
}

function session() {
  const state = emptyState();
  const records: RecordBody[] = [];
  return { state, records, commit: (body: RecordBody) => (records.push(body), applyRecord(state, body)) };
}

const names = (list: readonly Tool[]) => list.map((t) => t.name);

describe('deferred tools', () => {
  const tools = [tool('Read'), tool('Cron', { deferred: true }), tool('Bash'), tool('Memory', { deferred: true })];

  it('offers the core tools, then ToolSearch whose description lists each deferred tool in one line', () => {
    const d = new DeferredTools(source(tools), session());
    expect(names(d.list())).toEqual(['Read', 'Bash', TOOL_SEARCH_NAME]);
    const search = d.get(TOOL_SEARCH_NAME)!;
    expect(search.renderedDescription).toContain('- Cron: Does Cron things.\n- Memory: Does Memory things.');
    expect(search.renderedDescription).not.toContain('More detail');
  });

  it('without deferred tools there is no ToolSearch', () => {
    const d = new DeferredTools(source([tool('Read'), tool('Bash')]), session());
    expect(names(d.list())).toEqual(['Read', 'Bash']);
    expect(d.get(TOOL_SEARCH_NAME)).toBeUndefined();
  });

  it('loading appends in load order, journalled; the schemas offered before stay byte-identical', () => {
    const s = session();
    const d = new DeferredTools(source(tools), s);
    const before = JSON.stringify(d.list().map(toolSchemaForModel));
    expect(d.load(['Memory', 'Read', 'Nope'])).toEqual({ loaded: ['Memory'], available: ['Read'], unknown: ['Nope'] });
    expect(d.load(['Cron', 'Memory'])).toEqual({ loaded: ['Cron'], available: ['Memory'], unknown: [] });
    expect(names(d.list())).toEqual(['Read', 'Bash', TOOL_SEARCH_NAME, 'Memory', 'Cron']);
    const after = JSON.stringify(d.list().map(toolSchemaForModel));
    expect(after.startsWith(before.slice(0, -1))).toBe(true);
    expect(s.records).toEqual([
      { type: 'tools_loaded', names: ['Memory'] },
      { type: 'tools_loaded', names: ['Cron'] },
    ]);
    // A new DeferredTools over the replayed state (resume, fork) offers the same list.
    const replayed = emptyState();
    for (const r of s.records) applyRecord(replayed, r);
    expect(names(new DeferredTools(source(tools), { state: replayed, commit: () => {} }).list())).toEqual(
      names(d.list()),
    );
  });

  it('a deferred tool can be called before it is loaded; a schema error tells the model to load it', () => {
    const d = new DeferredTools(source(tools), session());
    const cron = d.get('Cron')!;
    expect(cron.validateArgs({ count: 2 })).toEqual({ ok: true, args: { count: 2 } });
    const bad = cron.validateArgs({ count: 'x' });
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.error).toMatch(
      /Invalid arguments for Cron:[\s\S]*Cron is a deferred tool and its schema is not loaded: call ToolSearch with names \["Cron"\], then call Cron again\./,
    );
    d.load(['Cron']);
    const loaded = d.get('Cron')!.validateArgs({ count: 'x' });
    expect(!loaded.ok && loaded.error).not.toContain('ToolSearch');
  });

  it("[tools] pinned beats a tool's own deferral; [tools] deferred defers a core tool", () => {
    const config: DeferralConfig = { pinned: ['Cron'], deferred: ['Bash'] };
    const d = new DeferredTools(source(tools), session(), config);
    expect(names(d.list())).toEqual(['Read', 'Cron', TOOL_SEARCH_NAME]);
    expect(d.catalog().map((e) => e.name)).toEqual(['Bash', 'Memory']);
  });

  it('[tools] entries that name no tool are warned about at start-up', () => {
    expect(
      deferralWarnings({ deferred: ['waitfor', 'mcp__x__*'], pinned: ['Nope', 'ToolSearch'] }, ['WaitFor', 'Read']),
    ).toEqual([
      '[tools] deferred: "waitfor" is not a tool name (did you mean "WaitFor"? names are case-sensitive)',
      '[tools] pinned: "Nope" is not a tool name',
      '[tools] pinned: ToolSearch is offered whenever a tool is deferred; the entry has no effect',
    ]);
  });

  it(`MCP tools stay inline up to ${MCP_INLINE_MAX}; beyond, all are deferred unless pinned (mcp__ globs work)`, () => {
    const few = Array.from({ length: MCP_INLINE_MAX }, (_, i) => tool(`mcp__s__t${i}`));
    expect(
      names(
        new DeferredTools(
          source(
            [tool('Read'), ...few],
            few.map((t) => t.name),
          ),
          session(),
        ).list(),
      ),
    ).toEqual(['Read', ...names(few)]);
    const many = Array.from({ length: MCP_INLINE_MAX + 1 }, (_, i) => tool(`mcp__s__t${i}`));
    const d = new DeferredTools(
      source(
        [tool('Read'), ...many],
        many.map((t) => t.name),
      ),
      session(),
      { deferred: [], pinned: ['mcp__s__t0'] },
    );
    expect(names(d.list())).toEqual(['Read', 'mcp__s__t0', TOOL_SEARCH_NAME]);
    expect(d.catalog()).toHaveLength(MCP_INLINE_MAX);
  });

  it('loads ExitPlanMode by itself when plan mode is on, and UpdateGoal while a goal is active', async () => {
    const s = session();
    const d = new DeferredTools(
      source([tool('Read'), tool('ExitPlanMode', { deferred: true }), tool('UpdateGoal', { deferred: true })]),
      s,
    );
    const ext = d.extension();
    await ext.beforeStep!(undefined as never, new AbortController().signal);
    expect(s.state.loadedTools).toEqual([]);
    s.state.planMode = { active: true, planPath: '/tmp/plan.md' };
    await ext.beforeStep!(undefined as never, new AbortController().signal);
    await ext.beforeStep!(undefined as never, new AbortController().signal);
    expect(s.records).toEqual([{ type: 'tools_loaded', names: ['ExitPlanMode'] }]);
    s.state.goal = { status: 'active' } as never;
    await ext.beforeStep!(undefined as never, new AbortController().signal);
    expect(s.state.loadedTools).toEqual(['ExitPlanMode', 'UpdateGoal']);
  });

  it('ToolSearch loads by exact names or by keyword query, and says what it could not find', async () => {
    const s = session();
    const d = new DeferredTools(
      source([
        tool('Read'),
        tool('CronCreate', { deferred: true, description: 'Schedule a prompt on a cron expression.' }),
        tool('MemoryWrite', { deferred: true, description: 'Save a fact to memory.' }),
      ]),
      s,
    );
    const h = makeToolHarness();
    h.register(TOOL_LOADER, d.loader());
    const search = d.get(TOOL_SEARCH_NAME)!;
    const byQuery = await h.run(search, { query: 'schedule cron' });
    expect(byQuery.content).toContain('Loaded CronCreate');
    expect(s.state.loadedTools).toEqual(['CronCreate']);
    const none = await h.run(search, { query: 'kubernetes' });
    expect(none.isError).toBe(true);
    expect(none.content).toContain('No deferred tool matches "kubernetes". Deferred tools: CronCreate, MemoryWrite.');
    const byName = await h.run(search, { names: ['MemoryWrite', 'Read', 'Ghost'] });
    expect(byName.content).toContain('Loaded MemoryWrite');
    expect(byName.content).toContain('Already available: Read.');
    expect(byName.content).toContain('No such tool: Ghost.');
    const empty = await h.run(search, {});
    expect(empty.isError).toBe(true);
    expect(empty.content).toContain('give `names` (exact tool names) or a keyword `query`');
  });
});
