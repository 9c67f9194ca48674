// Subagents in the interactive UI (tmux, the built CLI, the mock model): two foreground Agent calls of
// one response are shown as one live group, each member's state and what it is doing, until both end;
// swarm mode (/swarm) approves AgentSwarm without asking.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RecordedRequest, ScriptedTurn } from '../helpers/mockModelServer';
import { requireSystemPart } from '../helpers/requireAll';
import { appsClosedAfterEach, send } from './e2eHarness';

const hasTmux = requireSystemPart('tmux', 'the terminal UI is tested inside tmux');
const start = appsClosedAfterEach();

const isSubagent = (req: RecordedRequest) => JSON.stringify(req.body.messages[0]).includes('# Your role: subagent');
const toolResults = (req: RecordedRequest) =>
  req.body.messages.filter((m: { role: string }) => m.role === 'tool').length;
const taskOf = (req: RecordedRequest) => JSON.stringify(req.body.messages[1]);

/** Main agent: two Agent calls, then a closing answer. Subagents wait for `go.flag` (the test's signal), then answer. */
function script(req: RecordedRequest): ScriptedTurn {
  if (isSubagent(req)) {
    const me = taskOf(req).includes('task A') ? 'A' : 'B';
    if (toolResults(req) === 0)
      return {
        toolCalls: [
          {
            name: 'Bash',
            arguments: { command: `until [ -f go.flag ]; do sleep 0.05; done; echo go-${me}`, timeout: 60000 },
          },
        ],
      };
    return { text: `half ${me} finished` };
  }
  if (toolResults(req) === 0) {
    return {
      toolCalls: [
        { name: 'Agent', arguments: { description: 'first half', prompt: 'Do task A.' } },
        { name: 'Agent', arguments: { description: 'second half', prompt: 'Do task B.', subagent_type: 'coder' } },
      ],
    };
  }
  return { text: 'Both halves are done.' };
}

describe.skipIf(!hasTmux)('subagents in the UI (tmux)', { timeout: 90_000 }, () => {
  it('two parallel Agent calls: one group with both running and their commands, then both completed', async () => {
    const app = await start({ script, args: ['--yolo'] });
    send(app, 'split the work');
    // Both run at the same time (each waits on the same flag), shown in one group with what they run.
    const running = await app.tmux.waitFor(/2 agents 2 running/);
    expect(running).toMatch(/◐ first half \(coder\) running · \d+s/);
    expect(running).toMatch(/◐ second half \(coder\) running · \d+s/);
    await app.tmux.waitFor(/⎿ Bash until \[ -f go\.flag \][\s\S]*⎿ Bash until \[ -f go\.flag \]/);
    writeFileSync(join(app.cwd, 'go.flag'), '');
    const done = await app.tmux.waitFor('Both halves are done.', { scrollback: true });
    expect(done).toMatch(/2 agents 2 completed/);
    expect(done).toMatch(/✓ first half \(coder\) completed · \d+s/);
    expect(done).toMatch(/✓ second half \(coder\) completed · \d+s/);
    // The subagents' own tool cards and answers are not shown as the main agent's.
    expect(done).not.toContain('half A finished');
    expect(done).not.toContain('go-A');
  });

  it('/swarm on|off toggles the footer badge; /swarm <task> in manual mode offers a mode, runs the swarm without asking, and turns off when the task completes', async () => {
    const swarmScript = (req: RecordedRequest): ScriptedTurn => {
      if (isSubagent(req)) return { text: 'member done' };
      if (toolResults(req) === 0)
        return {
          toolCalls: [
            { name: 'AgentSwarm', arguments: { prompt_template: 'check {{item}}', items: ['a.ts', 'b.ts'] } },
          ],
        };
      return { text: 'Swarm task finished.' };
    };
    const app = await start({ script: swarmScript });
    send(app, '/swarm on');
    await app.tmux.waitFor('Swarm mode on');
    await app.tmux.waitFor(/manual · SWARM/);
    send(app, '/swarm off');
    await app.tmux.waitFor('Swarm mode off');
    await app.tmux.waitForGone(/SWARM/);

    send(app, '/swarm check both files');
    await app.tmux.waitFor('Swarm task in manual mode');
    // Stay in manual mode: AgentSwarm still runs without asking (its members need no approval here).
    app.tmux.keys('Down', 'Down', 'Enter');
    const end = await app.tmux.waitFor('Swarm task completed; swarm mode off.', {
      scrollback: true,
      timeoutMs: 30_000,
    });
    expect(end).toContain('Swarm task finished.');
    expect(end).toContain('2 of 2 completed');
    expect(end).not.toContain('Approve once');
    await app.tmux.waitForGone(/SWARM/);
    expect(JSON.stringify(app.server.requests[0].body.messages)).toContain('check both files');
  });
});
