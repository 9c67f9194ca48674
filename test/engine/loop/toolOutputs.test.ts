// Saved tool outputs with the journal's discipline (docs/sessions.md "What is kept on disk"): a save
// that fails never costs the batch its results, names never collide across agents or providers'
// per-response call ids, files are private, and old ones are swept.
import { mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedClient } from '../../../src/llm/scriptedClient';
import type { Message } from '../../../src/llm/types';
import { sweepToolOutputs, TOOL_OUTPUT_RETENTION_MS } from '../../../src/store/toolOutputs';
import { defineTool } from '../../../src/tools/defineTool';
import { MAX_TOOL_OUTPUT_CHARS } from '../../../src/engine/loop/toolRunner';
import { makeEngine, runPrompt, testTools, verifyEnginesAfterEach } from '../../helpers/engineHarness';

verifyEnginesAfterEach();

const unhandled: unknown[] = [];
process.on('unhandledRejection', (e) => unhandled.push(e));

/** A tool whose output is over the cap: `fill` repeated. */
const big = defineTool({
  name: 'Big',
  description: 'Prints a lot.',
  schema: z.object({ fill: z.string() }),
  readOnly: true,
  defaultApproval: 'auto',
  subject: () => 'Big',
  accesses: () => [],
  async execute(a) {
    return { content: `${a.fill}:`.padEnd(MAX_TOOL_OUTPUT_CHARS + 1_000, a.fill) };
  },
});

function toolText(m: Message | undefined): string {
  return m && m.role === 'tool' ? m.content.map((p) => (p.type === 'text' ? p.text : '')).join('') : '';
}

function toolResults(messages: readonly Message[]): Message[] {
  return messages.filter((m) => m.role === 'tool');
}

/** Long output whose only change between calls is in its middle, which the preview leaves out. */
let middleCalls = 0;
const middle = defineTool({
  name: 'Middle',
  description: 'Prints a lot with a counter in the middle.',
  schema: z.object({}),
  readOnly: true,
  defaultApproval: 'auto',
  subject: () => 'Middle',
  accesses: () => [],
  async execute() {
    const half = 'y'.repeat(MAX_TOOL_OUTPUT_CHARS);
    return { content: `${half}${middleCalls++}${half}` };
  },
});

describe('saved tool outputs and the repeat limit', () => {
  it('identical long outputs (each saved to a new file) are warned about at the 3rd call, as short ones are', async () => {
    const same = { toolCalls: [{ name: 'Big', arguments: { fill: 'x' } }] };
    const h = makeEngine({
      tools: [...testTools(), big],
      responses: [same, same, same, { text: 'stopped repeating' }],
    });
    await runPrompt(h, 'go');
    const results = toolResults(h.runtime.session.state.messages).map(toolText);
    const paths = results.map((t) => /The full output is saved at (\S+);/.exec(t)?.[1]);
    expect(paths.every(Boolean)).toBe(true);
    expect(new Set(paths).size).toBe(3);
    expect(results[2]).toContain('Warning: this is call number 3 in a row of exactly this Big call');
    const warnings = h.eventsOf('notice').map((n) => n.text);
    expect(warnings).toEqual([expect.stringContaining('same Big call 3 times in a row with the same result')]);
  });

  it('long outputs that differ only where the preview does not show are not the same result', async () => {
    const same = { toolCalls: [{ name: 'Middle', arguments: {} }] };
    const h = makeEngine({ tools: [...testTools(), middle], responses: [same, same, same, same, { text: 'done' }] });
    await runPrompt(h, 'go');
    expect(h.eventsOf('notice')).toEqual([]);
  });
});

describe('saved tool outputs', () => {
  it('a file in the way of tool-outputs: both calls get their results, the model and the user are told', async () => {
    const h = makeEngine({
      tools: [...testTools(), big],
      responses: [
        {
          toolCalls: [
            { id: 'a', name: 'Big', arguments: { fill: 'x' } },
            { id: 'b', name: 'Peek', arguments: { key: 'k', ms: 0 } },
          ],
        },
        { text: 'carried on' },
      ],
    });
    writeFileSync(join(h.runtime.session.scratchDir, 'tool-outputs'), 'not a folder');
    const outcome = await runPrompt(h, 'go');
    expect(outcome).toMatchObject({ reason: 'completed', text: 'carried on' });
    const results = toolResults(h.runtime.session.state.messages);
    expect(results.map((m) => m.role === 'tool' && m.toolCallId)).toEqual(['a', 'b']);
    const text = toolText(results[0]);
    expect(text.startsWith('x:xxx')).toBe(true);
    expect(text).toContain('The full output could not be saved: could not write');
    expect(text).toContain('(something other than a folder is in its place). Only this preview exists');
    expect(toolText(results[1])).toBe('value of k');
    // The next request answers every call: user, assistant(tool_calls), tool, tool.
    expect(h.client.requests[1].messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool']);
    const warnings = h
      .eventsOf('notice')
      .filter((n) => n.level === 'warning')
      .map((n) => n.text);
    expect(warnings.join('\n')).toMatch(/The full output of Big was not saved: could not write .*tool-outputs/);
    expect(unhandled).toEqual([]);
  });

  it('the main agent and a subagent reusing a per-response call id keep separate, private files', async () => {
    const kimiId = 'functions.Big:0';
    const bigCall = (fill: string) => ({ toolCalls: [{ id: kimiId, name: 'Big', arguments: { fill } }] });
    const h = makeEngine({ tools: [...testTools(), big], responses: [bigCall('m'), { text: 'main done' }] });
    const child = h.runtime.agents.spawn({
      systemPrompt: 'child',
      client: new ScriptedClient([bigCall('s'), { text: 'child done' }]),
    });
    await runPrompt(h, 'main call');
    expect(await child.run('child call')).toMatchObject({ reason: 'completed' });
    const mainPath = /saved at (\S+);/.exec(toolText(toolResults(h.runtime.session.state.messages)[0]))![1];
    const childPath = /saved at (\S+);/.exec(toolText(toolResults(child.session.state.messages)[0]))![1];
    expect(mainPath).not.toBe(childPath);
    expect(readFileSync(mainPath, 'utf8').startsWith('m:mmm')).toBe(true);
    expect(readFileSync(childPath, 'utf8').startsWith('s:sss')).toBe(true);
    expect(mainPath).toMatch(/tool-outputs\/main-\d+-\d+-\d+\.txt$/);
    expect(childPath).toContain(`tool-outputs/${child.id.replace(/[^A-Za-z0-9_-]/g, '_')}-`);
    expect(childPath).not.toContain('functions');
    expect(statSync(mainPath).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(mainPath)).mode & 0o777).toBe(0o700);
  });

  it('the sweep removes outputs past the retention in every session of the folder and keeps the rest', async () => {
    const saveOne = { toolCalls: [{ id: 'a', name: 'Big', arguments: { fill: 'y' } }] };
    const h = makeEngine({ tools: [...testTools(), big], responses: [saveOne, { text: 'ok' }] });
    await runPrompt(h, 'save one');
    const fresh = /saved at (\S+);/.exec(toolText(toolResults(h.runtime.session.state.messages)[0]))![1];
    // Saved outputs are in each session's scratch folder (docs/sessions.md).
    const otherSession = join(dirname(h.runtime.session.dir), 'OTHER', 'scratch', 'tool-outputs');
    mkdirSync(otherSession, { recursive: true });
    const old = join(otherSession, 'main-1-0-1.txt');
    writeFileSync(old, 'old');
    const longAgo = (Date.now() - TOOL_OUTPUT_RETENTION_MS - 60_000) / 1000;
    utimesSync(old, longAgo, longAgo);
    const swept = await sweepToolOutputs(dirname(h.runtime.session.dir));
    expect(swept).toEqual({ removed: 1, failures: [] });
    expect(readdirSync(otherSession)).toEqual([]);
    expect(readFileSync(fresh, 'utf8').startsWith('y:')).toBe(true);
  });
});
