// Deferred tools end to end through `jarvis -p` (docs/tools.md, "Deferred tools").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockModelServer, type MockModelServer, type RecordedRequest } from '../helpers/mockModelServer';
import { cliEnv, makeCliDirs, mockModelEnv, runJarvis, type CliDirs } from '../helpers/cli';

let server: MockModelServer;
beforeAll(async () => {
  server = await startMockModelServer();
});
afterAll(async () => {
  await server.close();
});

type WireTool = { function: { name: string; description: string } };
const toolNames = (req: RecordedRequest): string[] => (req.body.tools as WireTool[]).map((t) => t.function.name);
const toolResult = (req: RecordedRequest, id: string): string =>
  JSON.stringify(
    (req.body.messages as Array<{ role: string; tool_call_id?: string; content: unknown }>).find(
      (m) => m.role === 'tool' && m.tool_call_id === id,
    )?.content,
  );

function run(dirs: CliDirs, args: string[]) {
  return runJarvis(args, { env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))), cwd: dirs.cwd });
}

describe('deferred tools through jarvis -p', () => {
  it('the model finds a deferred tool by keyword, loads it (appended, the rest unchanged) and calls it; a resumed session still has it', async () => {
    const dirs = makeCliDirs();
    server.push(
      { toolCalls: [{ id: 'call_search', name: 'ToolSearch', arguments: { query: 'goal create' } }] },
      { toolCalls: [{ id: 'call_goal', name: 'CreateGoal', arguments: { objective: 'Ship the release notes' } }] },
      // With a goal active, UpdateGoal is loaded by itself: the model reports completion with it.
      {
        toolCalls: [
          { id: 'call_done', name: 'UpdateGoal', arguments: { status: 'complete', summary: 'Release notes shipped.' } },
        ],
      },
      { text: 'Goal set.' },
    );
    const before = server.requests.length;
    const r = await run(dirs, ['-p', 'set a goal to ship the release notes']);
    expect(r.code, r.stderr).toBe(0);
    const [first, second, third, fourth] = server.requests.slice(before);
    expect(toolNames(first)).not.toContain('CreateGoal');
    expect(toolNames(first)).toContain('ToolSearch');
    const search = (first.body.tools as WireTool[]).find((t) => t.function.name === 'ToolSearch')!;
    expect(search.function.description).toMatch(/^- CreateGoal: /m);
    expect(toolResult(second, 'call_search')).toContain('Loaded CreateGoal');
    // Loading appends: the tools sent before are unchanged, in the same order, byte for byte.
    expect(second.body.tools.slice(0, first.body.tools.length)).toEqual(first.body.tools);
    expect(toolNames(second).at(-1)).toBe('CreateGoal');
    expect(toolResult(third, 'call_goal')).toContain('Ship the release notes');
    expect(toolNames(third).slice(-2)).toEqual(['CreateGoal', 'UpdateGoal']);
    expect(toolResult(fourth, 'call_done')).toMatch(/complete/i);
    expect(r.stdout).toContain('Goal set.');

    server.push({ text: 'Still here.' });
    const resumedAt = server.requests.length;
    const resumed = await run(dirs, ['--continue', '-p', 'and now?']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(server.requests[resumedAt].body.tools).toEqual(fourth.body.tools);
  });

  it('a deferred tool called directly works without loading; bad arguments get a hint to load it', async () => {
    const dirs = makeCliDirs();
    server.push(
      {
        toolCalls: [
          { id: 'call_get', name: 'GetGoal', arguments: {} },
          { id: 'call_budget', name: 'SetGoalBudget', arguments: { value: 'lots' } },
        ],
      },
      { text: 'Done.' },
    );
    const before = server.requests.length;
    const r = await run(dirs, ['-p', 'what is the goal?']);
    expect(r.code, r.stderr).toBe(0);
    const second = server.requests[before + 1];
    expect(toolResult(second, 'call_get')).toContain('\\"goal\\": null');
    expect(toolResult(second, 'call_budget')).toContain('Invalid arguments for SetGoalBudget');
    expect(toolResult(second, 'call_budget')).toContain(
      'SetGoalBudget is a deferred tool and its schema is not loaded: call ToolSearch with names [\\"SetGoalBudget\\"]',
    );
    expect(toolNames(second)).not.toContain('GetGoal');
  });
});
