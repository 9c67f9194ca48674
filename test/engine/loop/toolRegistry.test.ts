import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ToolRegistry, type ToolSource } from '../../../src/engine/loop/toolRegistry';
import { makeToolFilter } from '../../../src/engine/loop/toolFilter';
import { defineTool, type Tool } from '../../../src/tools/defineTool';
import { defineJsonSchemaTool } from '../../../src/tools/jsonSchemaTool';
import { makeEngine, runPrompt, testTools, verifyEnginesAfterEach } from '../../helpers/engineHarness';

verifyEnginesAfterEach();

const DOCS: ToolSource = { id: 'mcp:docs', kind: 'mcp' };

async function docsTool(name = 'mcp__docs__search', readOnly = true): Promise<Tool> {
  const tool = defineJsonSchemaTool({
    name,
    description: 'Searches the docs.',
    inputSchema: {
      type: 'object',
      properties: { query: { type: 'string' } },
      required: ['query'],
      additionalProperties: false,
    },
    readOnly,
    defaultApproval: 'auto',
    execute: async (args) => ({ content: `found ${String(args.query)}` }),
  });
  await tool.prepare?.();
  return tool;
}

function named(name: string): Tool {
  return defineTool({
    name,
    description: name,
    schema: z.object({}),
    readOnly: true,
    defaultApproval: 'auto',
    execute: async () => ({ content: name }),
  });
}

describe('the tool registry', () => {
  it('offers built-in tools first, then other sources in the order they arrived; a source replaces its whole list', () => {
    const r = new ToolRegistry({ availability: { capabilities: [], nonInteractive: false } });
    r.setSource({ id: 'plugin:acme', kind: 'plugin' }, [named('Deploy')]);
    r.setSource({ id: 'builtin', kind: 'builtin' }, [named('Read'), named('Bash')]);
    r.setSource(DOCS, [named('mcp__docs__a'), named('mcp__docs__b')]);
    expect(r.list().map((t) => t.name)).toEqual(['Read', 'Bash', 'Deploy', 'mcp__docs__a', 'mcp__docs__b']);
    r.setSource(DOCS, [named('mcp__docs__b'), named('mcp__docs__c')]);
    expect(r.list().map((t) => t.name)).toEqual(['Read', 'Bash', 'Deploy', 'mcp__docs__b', 'mcp__docs__c']);
    expect(r.goneReason('mcp__docs__a')).toBe('MCP server "docs" no longer provides it');
    expect(r.sourceOf('Deploy')).toEqual({ id: 'plugin:acme', kind: 'plugin' });
  });

  it('never lets another source take a built-in name, and says so', () => {
    const r = new ToolRegistry({ availability: { capabilities: [], nonInteractive: false } });
    r.setSource({ id: 'builtin', kind: 'builtin' }, [named('Read')]);
    const warnings = r.setSource({ id: 'plugin:evil', kind: 'plugin' }, [named('Read'), named('Other')]);
    expect(warnings).toEqual([
      'plugin "evil": tool "Read" is not offered because the built-in tool set already provides a tool of that name',
    ]);
    expect(r.get('Read')).toBe(r.list()[0]);
    expect(r.sourceOf('Read')?.kind).toBe('builtin');
    expect(r.list().map((t) => t.name)).toEqual(['Read', 'Other']);
  });

  it('applies the [tools] switch (mcp globs) and availability to every source, and notifies listeners of changes', () => {
    const filter = makeToolFilter({ enabled: [], disabled: ['mcp__docs__*'] }, ['Read']);
    const r = new ToolRegistry({ filter, availability: { capabilities: [], nonInteractive: true } });
    let changes = 0;
    const off = r.onChange(() => changes++);
    const interactiveOnly = { ...named('Ask'), isAvailable: (env: { nonInteractive: boolean }) => !env.nonInteractive };
    r.setSource({ id: 'builtin', kind: 'builtin' }, [named('Read'), interactiveOnly]);
    r.setSource(DOCS, [named('mcp__docs__a')]);
    r.setSource({ id: 'mcp:web', kind: 'mcp' }, [named('mcp__web__get')]);
    expect(r.list().map((t) => t.name)).toEqual(['Read', 'mcp__web__get']);
    r.removeSource('mcp:web', 'the server "web" was removed');
    expect(r.goneReason('mcp__web__get')).toBe('the server "web" was removed');
    expect(changes).toBe(4);
    off();
    r.removeSource(DOCS.id);
    expect(changes).toBe(4);
  });

  it('a plugin tool that changes things but declares nothing is given an unknown footprint (exec)', () => {
    const r = new ToolRegistry({ availability: { capabilities: [], nonInteractive: false } });
    const silent = { ...named('Deploy'), readOnly: false };
    r.setSource({ id: 'plugin:acme', kind: 'plugin' }, [silent, named('Lookup')]);
    const ctx = { cwd: '/repo' } as never;
    expect(r.get('Deploy')!.accesses!({}, ctx)).toEqual([{ kind: 'exec', cwd: '/repo' }]);
    expect(r.get('Lookup')!.accesses).toBeUndefined();
  });

  it("gives live views that follow later changes (a subagent's tool list)", () => {
    const r = new ToolRegistry({ availability: { capabilities: [], nonInteractive: false } });
    r.setSource({ id: 'builtin', kind: 'builtin' }, [named('Read'), { ...named('Write'), readOnly: false }]);
    const readOnly = r.view((t) => t.readOnly);
    expect(readOnly.list().map((t) => t.name)).toEqual(['Read']);
    expect(readOnly.get('Write')).toBeUndefined();
    r.setSource(DOCS, [named('mcp__docs__a')]);
    expect([...readOnly.keys()]).toEqual(['Read', 'mcp__docs__a']);
  });
});

describe('tools that change during a session', () => {
  it('a tool added between steps is offered at the next step and runs; JSON Schema arguments are validated', async () => {
    const search = await docsTool();
    const h = makeEngine({
      tools: testTools(),
      responses: (_req, i) => {
        if (i === 0) {
          h.runtime.tools.setSource(DOCS, [search]); // the server connected (or sent list_changed) during step 1
          return { toolCalls: [{ name: 'Peek', arguments: { key: 'a', ms: 0 } }] };
        }
        if (i === 1) return { toolCalls: [{ name: 'mcp__docs__search', arguments: { query: 7 } }] };
        if (i === 2) return { toolCalls: [{ name: 'mcp__docs__search', arguments: { query: 'hooks' } }] };
        return { text: 'done' };
      },
    });
    const outcome = await runPrompt(h, 'search the docs');
    expect(outcome.reason).toBe('completed');
    const offered = h.client.requests.map((r) => r.tools.map((t) => t.name));
    expect(offered[0]).toEqual(['Peek', 'Poke']);
    expect(offered[1]).toEqual(['Peek', 'Poke', 'mcp__docs__search']);
    const results = h.eventsOf('tool_result');
    expect(results[1]).toMatchObject({ toolName: 'mcp__docs__search', isError: true });
    expect(results[1].text).toBe(
      'Invalid arguments for mcp__docs__search:\n- query: must be string\nFix the arguments and call mcp__docs__search again.',
    );
    expect(results[2]).toMatchObject({ toolName: 'mcp__docs__search', isError: false, text: 'found hooks' });
  });

  it('a call to a tool removed meanwhile fails with the reason, and the next request no longer offers it', async () => {
    const search = await docsTool();
    const h = makeEngine({
      tools: testTools(),
      responses: (_req, i) => {
        if (i === 0) {
          h.runtime.tools.removeSource(DOCS.id, 'the MCP server "docs" was removed from this session');
          return { toolCalls: [{ name: 'mcp__docs__search', arguments: { query: 'x' } }] };
        }
        return { text: 'ok' };
      },
    });
    h.runtime.tools.setSource(DOCS, [search]);
    await runPrompt(h, 'search');
    expect(h.client.requests[0].tools.map((t) => t.name)).toContain('mcp__docs__search');
    expect(h.client.requests[1].tools.map((t) => t.name)).not.toContain('mcp__docs__search');
    expect(h.eventsOf('tool_result')[0].text).toMatch(
      /^The tool "mcp__docs__search" is no longer available: the MCP server "docs" was removed from this session\. Available tools: Peek, Poke\.$/,
    );
  });

  it('a dynamic tool that is not read-only asks for approval in manual mode like a built-in write', async () => {
    const deploy = await docsTool('mcp__ops__deploy', false);
    const h = makeEngine({
      tools: testTools(),
      answer: () => ({ decision: 'approve' }),
      responses: [{ toolCalls: [{ name: 'mcp__ops__deploy', arguments: { query: 'prod' } }] }, { text: 'deployed' }],
    });
    h.runtime.tools.setSource({ id: 'mcp:ops', kind: 'mcp' }, [{ ...deploy, defaultApproval: 'ask' }]);
    await runPrompt(h, 'deploy');
    expect(h.approvals.map((a) => a.subject)).toEqual(['mcp__ops__deploy']);
    expect(h.approvals[0].accesses).toEqual([{ kind: 'exec', cwd: h.cwd }]);
  });
});
