import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AgentCatalog } from '../../../src/ext/agents/agentCatalog';
import type { AgentProfile } from '../../../src/ext/agents/agentFile';
import { BUILTIN_AGENTS } from '../../../src/ext/agents/builtinAgents';
import { ProviderError, type ModelRequest } from '../../../src/llm/types';
import type { ScriptedResponse } from '../../../src/llm/scriptedClient';
import { builtinTools } from '../../../src/tools/registry';
import { BUILTIN_WORKFLOWS } from '../../../src/tools/workflow/builtinWorkflows';
import { readWorkflowMeta } from '../../../src/tools/workflow/workflowRun';
import { makeEngine, runPrompt, type EngineHarness, verifyEnginesAfterEach } from '../../helpers/engineHarness';
import type { ApprovalRequest } from '../../../src/engine/policy/approvals';

verifyEnginesAfterEach();

const roleOf = (req: ModelRequest) =>
  /# Your role: subagent \((\w+)\)/.exec(req.system)?.[1] ??
  (req.system.startsWith('Custom ') ? req.system.split(' ')[1] : 'main');
const lastUserText = (req: ModelRequest) => JSON.stringify(req.messages.filter((m) => m.role === 'user').at(-1));

const FAN_OUT = `
export const meta = { name: 'fan-out', description: 'ten notes, one merge', phases: ['notes', 'merge'] };
export default async function ({ args, phase, agent, parallel }) {
  phase('notes');
  const notes = await parallel(args.split(',').map((x) => () => agent({ prompt: 'note on ' + x, type: 'explore', description: x })));
  phase('merge');
  return agent({ prompt: 'MERGE ' + notes.join(';'), type: 'plan' });
}`;

/** Main agent: calls Workflow with `args` first, then says "started"; subagents answer from their prompt. */
function script(workflowArgs: Record<string, unknown>): (req: ModelRequest) => ScriptedResponse {
  return (req) => {
    if (roleOf(req) !== 'main') {
      const text = lastUserText(req);
      const merge = /MERGE ([^"\\]*)/.exec(text);
      return { text: merge ? `merged(${merge[1]})` : `note-${/note on (\w+)/.exec(text)?.[1]}` };
    }
    return req.messages.some((m) => m.role === 'tool')
      ? { text: 'started' }
      : { toolCalls: [{ name: 'Workflow', arguments: workflowArgs }] };
  };
}

async function nextNotification(h: EngineHarness): Promise<string> {
  const signal = AbortSignal.timeout(110_000);
  for (;;) {
    const [note] = h.runtime.notifications.takeNotifications();
    if (note) return note.text;
    if (signal.aborted) throw new Error('no notification arrived');
    await h.runtime.notifications.nextChange(signal);
  }
}

describe('the Workflow tool', { timeout: 120_000 }, () => {
  it('runs in the background: 10 explore subagents in parallel, then a merge; the result arrives as a notification', async () => {
    const h = makeEngine({
      tools: builtinTools(),
      mode: 'yolo',
      responses: script({ script: FAN_OUT, args: 'a,b,c,d,e,f,g,h,i,j' }),
    });
    await runPrompt(h, 'survey');
    const [started] = h.eventsOf('tool_result');
    expect(started.isError).toBeFalsy();
    expect(started.text).toMatch(/^Started workflow fan-out: run wf-[0-9a-f]{8}, background task \S+\./);
    for (const part of [
      'Phases: notes → merge',
      'Limits: at most 64 subagents in all, 8 at once, 60 min wall time, 64 MB script memory',
      'Token use:',
      '--- script ---',
      "phase('merge');",
    ])
      expect(started.text).toContain(part);
    const note = await nextNotification(h);
    expect(note).toContain('completed');
    expect(note).toContain('merged(note-a;note-b;note-c;note-d;note-e;note-f;note-g;note-h;note-i;note-j)');
    const subagents = h.client.requests.filter((r) => roleOf(r) !== 'main');
    expect(subagents.filter((r) => roleOf(r) === 'explore')).toHaveLength(10);
    expect(subagents.filter((r) => roleOf(r) === 'plan')).toHaveLength(1);
    // Subagents never get the tool (no nesting).
    expect(subagents.every((r) => !r.tools.some((t) => t.name === 'Workflow'))).toBe(true);
    const task = h.runtime.tasks.list({ activeOnly: false })[0];
    const output = readFileSync(task.outputPath, 'utf8');
    expect(output).toContain('== phase 1/2: notes');
    expect(output).toContain('== phase 2/2: merge');
  });

  it('a run over its subagent limit is stopped with a clear message in its notification', async () => {
    const h = makeEngine({
      tools: builtinTools(),
      mode: 'yolo',
      workflowLimits: { maxAgents: 3, maxConcurrency: 2, wallMs: 60_000, memoryBytes: 64 * 1024 * 1024 },
      responses: script({ script: FAN_OUT, args: 'a,b,c,d,e' }),
    });
    await runPrompt(h, 'survey');
    const note = await nextNotification(h);
    expect(note).toContain('failed');
    expect(note).toContain(
      'Workflow limit exceeded: the script asked for subagent number 4, and a run may start at most 3. The run was stopped.',
    );
  });

  it('bad calls: both or neither of name/script, an unknown name, a script without meta — nothing starts', async () => {
    const h = makeEngine({
      tools: builtinTools(),
      mode: 'yolo',
      responses: [
        {
          toolCalls: [
            { name: 'Workflow', arguments: { name: 'deep-research', script: 'x' } },
            { name: 'Workflow', arguments: {} },
            { name: 'Workflow', arguments: { name: 'nope' } },
            { name: 'Workflow', arguments: { script: 'export default async () => 1;' } },
          ],
        },
        { text: 'ok' },
      ],
    });
    await runPrompt(h, 'go');
    const [both, neither, unknown, noMeta] = h.eventsOf('tool_result').map((r) => r.text);
    expect(both).toMatch(/Give exactly one of name \(a catalog workflow\) or script/);
    expect(neither).toMatch(/Give exactly one of name/);
    expect(unknown).toMatch(/There is no workflow named "nope"\. Available: deep-research\./);
    expect(noMeta).toMatch(/must export `meta = .*Nothing was started\./s);
    expect(h.runtime.tasks.list({ activeOnly: false })).toEqual([]);
  });

  it('manual mode asks first and the approval shows the script and limits; plan mode refuses it', async () => {
    const asked: ApprovalRequest[] = [];
    const h = makeEngine({
      tools: builtinTools(),
      mode: 'manual',
      answer: (req) => {
        asked.push(req);
        return { decision: 'reject' };
      },
      responses: [
        { toolCalls: [{ name: 'Workflow', arguments: { name: 'deep-research', args: 'why?' } }] },
        { text: 'ok' },
      ],
    });
    await runPrompt(h, 'go');
    expect(asked[0].preview?.kind).toBe('text');
    const text = asked[0].preview?.kind === 'text' ? asked[0].preview.text : '';
    expect(text).toContain('Workflow: deep-research (built-in workflow)');
    expect(text).toContain('Limits: at most 64 subagents');
    expect(text).toContain("phases: ['plan', 'research', 'synthesize']");
    expect(h.runtime.tasks.list({ activeOnly: false })).toEqual([]);

    const planned = makeEngine({
      tools: builtinTools(),
      mode: 'yolo',
      planMode: true,
      responses: [
        { toolCalls: [{ name: 'Workflow', arguments: { name: 'deep-research', args: 'q' } }] },
        { text: 'ok' },
      ],
    });
    await runPrompt(planned, 'go');
    expect(planned.eventsOf('tool_result')[0].text).toMatch(/Workflow is blocked in plan mode/);
  });

  it('the catalog: the project folder beats the user folder, which beats the built-ins; deep-research is valid', async () => {
    const h = makeEngine({
      tools: builtinTools(),
      mode: 'yolo',
      responses: script({ name: 'deep-research', args: 'x' }),
    });
    const user = join(h.home, 'workflows');
    const project = join(h.cwd, '.jarvis-code', 'workflows');
    mkdirSync(user, { recursive: true });
    mkdirSync(project, { recursive: true });
    writeFileSync(
      join(user, 'deep-research.js'),
      "export const meta = { name: 'user-dr' }; export default async () => 'user';",
    );
    writeFileSync(
      join(project, 'deep-research.js'),
      "export const meta = { name: 'project-dr' }; export default async () => 'from the project';",
    );
    await runPrompt(h, 'go');
    expect(h.eventsOf('tool_result')[0].text).toMatch(/^Started workflow project-dr/);
    expect(await nextNotification(h)).toContain('from the project');
    expect(await readWorkflowMeta(BUILTIN_WORKFLOWS['deep-research'])).toMatchObject({
      name: 'deep-research',
      phases: ['plan', 'research', 'synthesize'],
    });
  });

  it('TaskStop on a running workflow stops the script and its subagents', async () => {
    const hanging = `export const meta = { name: 'hang', description: '', phases: ['wait'] };
export default async function ({ agent, phase }) { phase('wait'); return agent({ prompt: 'wait forever', type: 'explore' }); }`;
    const h = makeEngine({
      tools: builtinTools(),
      mode: 'yolo',
      responses: (req) =>
        roleOf(req) !== 'main' ? { text: 'thinking…', hangAfterText: true } : script({ script: hanging })(req),
    });
    await runPrompt(h, 'go');
    const task = h.runtime.tasks.list({ activeOnly: false })[0];
    // Poll until the subagent's request reached the model: the run is inside agent().
    const deadline = AbortSignal.timeout(60_000);
    while (!h.client.requests.some((r) => roleOf(r) === 'explore') && !deadline.aborted)
      await new Promise((r) => setImmediate(r));
    const stopped = await h.runtime.tasks.stop(task.id, 'Stopped by TaskStop');
    expect(stopped.status).toBe('cancelled');
    expect(readFileSync(stopped.outputPath, 'utf8')).toMatch(
      /failed: the workflow was cancelled \(the script was stopped\)/,
    );
    // The subagent's turn is cancelled too, and it is released.
    while (h.runtime.agents.list().length > 1 && !deadline.aborted) await new Promise((r) => setTimeout(r, 20));
    expect(h.runtime.agents.list().map((a) => a.id)).toEqual(['main']);
  });

  it('one failing agent() ends the run: its other subagents are stopped, queued calls never start', async () => {
    // Ten calls at once with two slots: the first hangs, the second fails at once, eight wait.
    const failing = `export const meta = { name: 'one-fails', description: '', phases: [] };
export default async function ({ agent }) {
  const calls = [agent({ prompt: 'HANG here', type: 'explore' }), agent({ prompt: 'FAIL now', type: 'explore' })];
  for (let i = 0; i < 8; i++) calls.push(agent({ prompt: 'QUEUED ' + i, type: 'explore' }));
  return Promise.all(calls);
}`;
    const limits = { maxAgents: 64, maxConcurrency: 2, wallMs: 60_000, memoryBytes: 64 * 1024 * 1024 };
    const h = makeEngine({
      tools: builtinTools(),
      mode: 'yolo',
      workflowLimits: limits,
      responses: (req) => {
        if (roleOf(req) === 'main') return script({ script: failing })(req);
        const task = lastUserText(req);
        const badKey = new ProviderError('auth', 'HTTP 401: bad key', { status: 401 });
        if (task.includes('FAIL now')) return { error: badKey };
        return { text: 'working…', hangAfterText: true };
      },
    });
    await runPrompt(h, 'go');
    const note = await nextNotification(h);
    expect(note).toContain('failed');
    expect(note).toMatch(/subagent \S+ failed: HTTP 401: bad key/);
    // By the time the failure is reported, nothing of the run is left: no subagent, no queued start.
    expect(h.runtime.agents.list().map((a) => a.id)).toEqual(['main']);
    const subagentTasks = h.client.requests.filter((r) => roleOf(r) === 'explore').map(lastUserText);
    expect(subagentTasks.some((t) => t.includes('QUEUED'))).toBe(false);
    const output = readFileSync(h.runtime.tasks.list({ activeOnly: false })[0].outputPath, 'utf8');
    expect(output).toMatch(/stopping 1 subagent still running/);
    const requestsAtFailure = h.client.requests.length;
    // Nothing starts later either: the notification turn of the main agent is the only request left.
    await runPrompt(h, 'anything left?');
    expect(h.client.requests.slice(requestsAtFailure).every((r) => roleOf(r) === 'main')).toBe(true);
  });

  it('a custom agent allowed to delegate still does not get Workflow', async () => {
    const lead: AgentProfile = {
      name: 'lead',
      description: 'lead',
      override: false,
      tools: '*',
      disallowedTools: [],
      subagents: '*',
      prompt: 'Custom lead prompt.',
      source: 'user',
    };
    const h = makeEngine({
      tools: builtinTools(),
      agents: new AgentCatalog(new Map([lead, ...BUILTIN_AGENTS].map((a) => [a.name, a])), []),
      mode: 'yolo',
      responses: (req) =>
        roleOf(req) !== 'main'
          ? { text: 'sub' }
          : req.messages.some((m) => m.role === 'tool')
            ? { text: 'done' }
            : {
                toolCalls: [{ name: 'Agent', arguments: { description: 'lead', prompt: 'x', subagent_type: 'lead' } }],
              },
    });
    await runPrompt(h, 'go');
    const leadRequest = h.client.requests.find((r) => roleOf(r) === 'lead')!;
    const offered = JSON.stringify(leadRequest.tools);
    expect(leadRequest.tools.map((t) => t.name)).toContain('Agent');
    expect(offered).not.toContain('Workflow');
  });
});
