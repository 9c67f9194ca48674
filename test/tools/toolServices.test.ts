// A tool's services are part of its type (docs/architecture.md, "Tools and their services"): using an undeclared
// service does not compile, every service a built-in tool declares is lent by the runtimes that offer it, and a call
// to a tool whose service is missing is refused with a message before approval, never a throw inside the tool.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, missingService, serviceKey, type ToolContext } from '../../src/tools/defineTool';
import { prepareToolCall } from '../../src/engine/loop/toolRunner';
import { makeEngine, skipReplayCheck } from '../helpers/engineHarness';
import type { BrowserRuntimeOptions } from '../../src/tools/browser';

const NOTES = serviceKey<{ text: string }>()('test-notes');
const CLOCK = serviceKey<{ now(): number }>()('test-clock');

describe('typed tool services', () => {
  it('a tool may use only the services it declares (checked by the type-checker)', async () => {
    const tool = defineTool({
      name: 'Notes',
      services: [NOTES],
      description: 'Reads the notes.',
      schema: z.object({}),
      readOnly: true,
      defaultApproval: 'auto',
      async execute(_args, ctx) {
        // @ts-expect-error -- CLOCK is not among this tool's services: this line must not compile.
        ctx.services.get(CLOCK);
        return { content: ctx.services.get(NOTES).text };
      },
    });
    expect(tool.services?.map((k) => k.name)).toEqual(['test-notes']);
    // A helper that needs a service can only be called from a tool that declares it.
    const helper = (ctx: ToolContext<typeof CLOCK>) => ctx.services.get(CLOCK).now();
    defineTool({
      name: 'NoClock',
      description: 'Does not declare the clock.',
      schema: z.object({}),
      readOnly: true,
      defaultApproval: 'auto',
      async execute(_args, ctx) {
        // @ts-expect-error -- the helper needs CLOCK, which this tool does not declare.
        return { content: String(helper(ctx)) };
      },
    });
  });

  it('a call to a tool whose service the session does not lend is refused before approval', () => {
    const tool = defineTool({
      name: 'Notes',
      services: [NOTES],
      description: 'Reads the notes.',
      schema: z.object({}),
      readOnly: true,
      defaultApproval: 'auto',
      execute: async (_args, ctx) => ({ content: ctx.services.get(NOTES).text }),
    });
    const engine = makeEngine({ responses: [], tools: [tool] });
    skipReplayCheck(engine);
    const env = { cwd: engine.cwd, services: engine.runtime.services } as Parameters<typeof prepareToolCall>[2];
    const prepared = prepareToolCall({ id: 'c1', name: 'Notes', arguments: '{}' }, new Map([['Notes', tool]]), env);
    expect(prepared.error).toBe(
      'Notes cannot run in this session: it needs the "test-notes" service, which this session does not provide.',
    );
  });

  const browser = (profile: BrowserRuntimeOptions['profile']): BrowserRuntimeOptions => ({
    profile,
    workspaceDir: mkdtempSync(join(tmpdir(), 'jarvis-ws-')),
    engine: { engine: 'duckduckgo', baseUrls: {} },
  });
  const profiles: Array<[string, Parameters<typeof makeEngine>[0]]> = [
    ['the default tools, with tower mode', { responses: [], tower: true }],
    ['the page tools (--browser)', { responses: [], browser: browser('page-tools') }],
    ['the browser agent profile', { responses: [], browser: browser('agent') }],
  ];
  for (const [label, opts] of profiles) {
    it(`every service a built-in tool declares is lent: ${label}`, async () => {
      const engine = makeEngine(opts);
      skipReplayCheck(engine);
      const tools = engine.runtime.tools.list();
      expect(tools.length).toBeGreaterThan(5);
      const lends = (name: string) => engine.runtime.services.find({ name }) !== undefined;
      expect(tools.map((t) => [t.name, missingService(t, lends)]).filter(([, missing]) => missing)).toEqual([]);
      await engine.runtime.close();
    });
  }
});
