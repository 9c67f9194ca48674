// Subagents and swarms end to end: the built CLI in print mode against the loopback mock model. The
// model is a script that answers by who is asking: the main agent, or a subagent (told apart by its
// system prompt) and its task.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startMockModelServer,
  type MockModelServer,
  type RecordedRequest,
  type ScriptedTurn,
} from '../helpers/mockModelServer';
import { cliEnv, makeCliDirs, mockModelEnv, runJarvis } from '../helpers/cli';

type Script = (req: RecordedRequest) => ScriptedTurn;
let server: MockModelServer;
let script: Script = () => ({ text: 'unscripted' });
beforeAll(async () => {
  server = await startMockModelServer({ script: (req) => script(req) });
});
afterAll(async () => {
  await server.close();
});

const text = (req: RecordedRequest) => JSON.stringify(req.body.messages);
const systemOf = (req: RecordedRequest) => JSON.stringify(req.body.messages[0]);
const isSubagent = (req: RecordedRequest) => systemOf(req).includes('# Your role: subagent');
/** The first user message after the system prompt: a subagent's task. */
const taskOf = (req: RecordedRequest) => JSON.stringify(req.body.messages[1]);
const toolResultCount = (req: RecordedRequest) =>
  req.body.messages.filter((m: { role: string }) => m.role === 'tool').length;

async function run(args: string[], extraEnv: Record<string, string> = {}) {
  const dirs = makeCliDirs();
  const before = server.requests.length;
  const r = await runJarvis(args, {
    env: cliEnv(dirs, { ...mockModelEnv(server.baseUrlFor('openai')), ...extraEnv }),
    cwd: dirs.cwd,
    timeoutMs: 60_000,
  });
  return { ...r, dirs, requests: server.requests.slice(before) };
}

describe('Agent tool in print mode', () => {
  it('two foreground Agent calls in one response run at the same time and both results reach the main agent', async () => {
    // Each subagent's command waits for a file the other one writes: they finish only if they overlap.
    script = (req) => {
      if (isSubagent(req)) {
        const me = taskOf(req).includes('task A') ? 'a' : 'b';
        const other = me === 'a' ? 'b' : 'a';
        if (toolResultCount(req) === 0) {
          return {
            toolCalls: [
              {
                name: 'Bash',
                arguments: {
                  command: `touch ${me}.flag; for i in $(seq 200); do [ -f ${other}.flag ] && break; sleep 0.05; done; [ -f ${other}.flag ] && echo ${me}-saw-${other}`,
                  timeout: 30000,
                },
              },
            ],
          };
        }
        return {
          text: `result ${me.toUpperCase()}: ${text(req).includes(`${me}-saw-${other}`) ? 'overlapped' : 'alone'}`,
        };
      }
      if (toolResultCount(req) === 0) {
        return {
          toolCalls: [
            { name: 'Agent', arguments: { description: 'first half', prompt: 'Do task A.' } },
            { name: 'Agent', arguments: { description: 'second half', prompt: 'Do task B.' } },
          ],
        };
      }
      return { text: 'Both halves are done.' };
    };
    const r = await run(['-p', 'split the work']);
    expect(r.code).toBe(0);
    const final = r.requests.filter((q) => !isSubagent(q)).at(-1)!;
    expect(text(final)).toContain('result A: overlapped');
    expect(text(final)).toContain('result B: overlapped');
    expect(text(final)).toMatch(/agent_id: a[0-9a-f]+ \(coder\) — completed/);
    expect(r.stdout).toContain('Both halves are done.');
    // Subagents' progress is on stderr, named, and never in the answer on stdout.
    expect(r.stderr).toMatch(/↳ coder started: first half/);
    expect(r.stderr).toMatch(/↳ coder started: second half/);
    expect(r.stderr).toMatch(/↳ coder: .*touch a\.flag/);
    expect(r.stderr).toMatch(/↳ coder completed after \d+\.\d s/);
    expect(r.stdout).not.toContain('↳');
  });

  it('a background subagent returns a task id at once and its result arrives as a notification', async () => {
    script = (req) => {
      if (isSubagent(req)) return { text: 'background finding: 42', headersDelayMs: 300 };
      if (text(req).includes('task-notification')) return { text: 'The background agent found 42.' };
      if (toolResultCount(req) === 0)
        return {
          toolCalls: [
            {
              name: 'Agent',
              arguments: { description: 'look it up', prompt: 'Find the answer.', run_in_background: true },
            },
          ],
        };
      return { text: 'Started it.' };
    };
    const r = await run(['-p', 'find the answer in the background']);
    expect(r.code).toBe(0);
    const mains = r.requests.filter((q) => !isSubagent(q));
    expect(text(mains[1])).toMatch(/Started subagent a[0-9a-f]+ in the background as task a[0-9a-z]+/);
    expect(text(mains[2])).toContain('task-notification');
    expect(text(mains[2])).toContain('background finding: 42');
    expect(r.stdout).toContain('The background agent found 42.');
  });

  it('a resumed subagent continues with its own history', async () => {
    script = (req) => {
      if (isSubagent(req))
        return {
          text:
            text(req).includes('remember the word ZEBRA') && text(req).includes('which word')
              ? 'The word was ZEBRA.'
              : 'Remembered.',
        };
      const results = req.body.messages.filter((m: { role: string }) => m.role === 'tool');
      if (results.length === 0)
        return {
          toolCalls: [
            { name: 'Agent', arguments: { description: 'remember a word', prompt: 'Please remember the word ZEBRA.' } },
          ],
        };
      if (results.length === 1) {
        const id = /agent_id: (a[0-9a-f]+)/.exec(JSON.stringify(results[0]))![1];
        return {
          toolCalls: [
            {
              name: 'Agent',
              arguments: {
                description: 'recall the word',
                prompt: 'Now, which word did I ask you to remember?',
                resume: id,
              },
            },
          ],
        };
      }
      return { text: 'Recalled.' };
    };
    const r = await run(['-p', 'test memory']);
    expect(r.code).toBe(0);
    const subs = r.requests.filter(isSubagent);
    expect(text(subs.at(-1)!)).toContain('Please remember the word ZEBRA.');
    expect(text(r.requests.at(-1)!)).toContain('The word was ZEBRA.');
    const ids = r.requests
      .filter((q) => !isSubagent(q))
      .flatMap((q) => [...text(q).matchAll(/agent_id: (a[0-9a-f]+)/g)].map((m) => m[1]));
    expect(new Set(ids).size).toBe(1);
  });
});

describe('AgentSwarm in print mode', () => {
  // Start times are wall-clock: on a machine overloaded by other work a timer can fire late, so this one retries.
  it(
    '20 members start on the ramp (5 at once, then one per 700 ms) and a timed-out member is reported failed',
    { retry: 2, timeout: 60_000 },
    async () => {
      const items = Array.from({ length: 20 }, (_, i) => `item-${i}`);
      script = (req) => {
        if (isSubagent(req))
          return taskOf(req).includes('item-7.')
            ? { hang: true }
            : { text: `handled ${/item-\d+/.exec(taskOf(req))![0]}` };
        if (toolResultCount(req) === 0)
          return { toolCalls: [{ name: 'AgentSwarm', arguments: { prompt_template: 'Handle {{item}}.', items } }] };
        return { text: 'Swarm done.' };
      };
      const r = await run(['-p', 'swarm it'], { JARVIS_CODE_SWARM_TIMEOUT_MS: '2500' });
      expect(r.code).toBe(0);
      const report = text(r.requests.at(-1)!);
      // The swarm's own clock: when each member was started, as its report says.
      const startedAt = new Map(
        [...report.matchAll(/item \\"item-(\d+)\\" — .*? \(started at \+(\d+) ms\)/g)].map((m) => [
          Number(m[1]),
          Number(m[2]),
        ]),
      );
      expect(startedAt.size).toBe(20);
      // The model's clock: the ramped members' first requests arrive in item order.
      const firstRequestAt = new Map<number, number>();
      for (const q of r.requests.filter(isSubagent)) {
        const i = Number(/item-(\d+)/.exec(taskOf(q))![1]);
        if (!firstRequestAt.has(i)) firstRequestAt.set(i, q.at);
      }
      for (let i = 0; i < 20; i++) {
        const slot = i < 5 ? 0 : (i - 4) * 700;
        expect(startedAt.get(i)! - slot, `member ${i} started at +${startedAt.get(i)} ms`).toBeGreaterThanOrEqual(0);
        expect(startedAt.get(i)! - slot, `member ${i} started at +${startedAt.get(i)} ms`).toBeLessThanOrEqual(150);
        if (i > 5)
          expect(firstRequestAt.get(i)!, `member ${i} asked the model after member ${i - 1}`).toBeGreaterThan(
            firstRequestAt.get(i - 1)!,
          );
      }
      expect(report).toContain('19 of 20 completed, 1 failed');
      expect(report).toMatch(/item \\"item-7\\" — agent_id a[0-9a-f]+ — FAILED \(timed out after 2.5 s\)/);
      expect(report).toContain('handled item-19');
    },
  );

  it('must be the only tool call of its response: otherwise nothing runs and the model is told why', async () => {
    script = (req) => {
      if (isSubagent(req)) return { text: 'should not run' };
      if (toolResultCount(req) === 0) {
        return {
          toolCalls: [
            { name: 'AgentSwarm', arguments: { prompt_template: 'Do {{item}}', items: ['x', 'y'] } },
            { name: 'Bash', arguments: { command: 'touch ran.flag' } },
          ],
        };
      }
      return { text: 'Understood.' };
    };
    const r = await run(['-p', 'go']);
    expect(r.code).toBe(0);
    expect(r.requests.filter(isSubagent)).toHaveLength(0);
    const second = text(r.requests[1]);
    expect(second.match(/AgentSwarm must be the only tool call in its response/g)).toHaveLength(2);
    const { existsSync } = await import('node:fs');
    expect(existsSync(`${r.dirs.cwd}/ran.flag`)).toBe(false);
  });

  it('JARVIS_CODE_AGENT_SWARM_MAX_CONCURRENCY that is not a positive integer fails the call before any member starts', async () => {
    script = (req) => {
      if (isSubagent(req)) return { text: 'should not run' };
      if (toolResultCount(req) === 0)
        return {
          toolCalls: [{ name: 'AgentSwarm', arguments: { prompt_template: 'Do {{item}}', items: ['x', 'y'] } }],
        };
      return { text: 'ok' };
    };
    const r = await run(['-p', 'go'], { JARVIS_CODE_AGENT_SWARM_MAX_CONCURRENCY: 'abc' });
    expect(r.code).toBe(0);
    expect(r.requests.filter(isSubagent)).toHaveLength(0);
    expect(text(r.requests[1])).toContain(
      'JARVIS_CODE_AGENT_SWARM_MAX_CONCURRENCY must be a positive integer, got \\"abc\\"',
    );
  });
});
