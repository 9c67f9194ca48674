import { describe, expect, it } from 'vitest';
import { AgentCatalog } from '../../../src/ext/agents/agentCatalog';
import type { AgentProfile } from '../../../src/ext/agents/agentFile';
import { BUILTIN_AGENTS } from '../../../src/ext/agents/builtinAgents';
import { parseSwarmConcurrency, rampStartMs } from '../../../src/engine/delegation/subagents';
import type { ModelRequest } from '../../../src/llm/types';
import type { ScriptedResponse } from '../../../src/llm/scriptedClient';
import { builtinTools } from '../../../src/tools/registry';
import { makeEngine, runPrompt, verifyEnginesAfterEach } from '../../helpers/engineHarness';

verifyEnginesAfterEach();

const roleOf = (req: ModelRequest) =>
  /# Your role: subagent \((\w+)\)/.exec(req.system)?.[1] ??
  (req.system.startsWith('Custom ') ? req.system.split(' ')[1] : 'main');
const toolsOf = (req: ModelRequest) => req.tools.map((t) => t.name);
const userText = (req: ModelRequest) => JSON.stringify(req.messages);

function catalogWith(...custom: AgentProfile[]): AgentCatalog {
  return new AgentCatalog(new Map([...custom, ...BUILTIN_AGENTS].map((a) => [a.name, a])), []);
}

const custom = (name: string, extra: Partial<AgentProfile> = {}): AgentProfile => ({
  name,
  description: `${name} agent`,
  override: false,
  tools: '*',
  disallowedTools: [],
  prompt: `Custom ${name} prompt.`,
  source: 'user',
  ...extra,
});

/** Main agent: `first` on its first request, then a closing text; subagents answer with `sub`. */
function script(first: ScriptedResponse, sub: (req: ModelRequest) => ScriptedResponse = () => ({ text: 'sub done' })) {
  return (req: ModelRequest): ScriptedResponse => {
    if (roleOf(req) !== 'main') return sub(req);
    return req.messages.some((m) => m.role === 'tool') ? { text: 'main done' } : first;
  };
}

describe('Agent tool (SPEC §6.7, §9.2)', () => {
  it('built-in subagents get their tool sets and cannot delegate; a custom agent with subagents: ["*"] can', async () => {
    const lead = custom('lead', { subagents: '*' });
    const h = makeEngine({
      tools: builtinTools(),
      agents: catalogWith(lead),
      mode: 'yolo',
      responses: script({
        toolCalls: ['coder', 'explore', 'plan', 'lead'].map((type) => ({
          name: 'Agent',
          arguments: { description: `run ${type}`, prompt: `task for ${type}`, subagent_type: type },
        })),
      }),
    });
    await runPrompt(h, 'delegate');
    const byRole = new Map(h.client.requests.filter((r) => roleOf(r) !== 'main').map((r) => [roleOf(r), toolsOf(r)]));
    expect(byRole.get('coder')).toContain('Bash');
    expect(byRole.get('coder')).not.toContain('Agent');
    expect(byRole.get('coder')).not.toContain('AgentSwarm');
    // FetchURL is deferred (docs/tools.md): explore reaches it through ToolSearch, which its allowlist used to miss.
    expect(byRole.get('explore')!.sort()).toEqual(
      ['Glob', 'Grep', 'Read', 'ToolSearch']
        .concat(byRole.get('explore')!.filter((n) => n.startsWith('Web') || n === 'FetchURL' || n === 'ReadMediaFile'))
        .sort(),
    );
    const exploreRequest = h.client.requests.find((r) => roleOf(r) === 'explore')!;
    expect(JSON.stringify(exploreRequest)).toContain('FetchURL');
    expect(byRole.get('plan')).not.toContain('Bash');
    expect(byRole.get('plan')).not.toContain('Write');
    expect(byRole.get('plan')).toContain('TodoList');
    expect(byRole.get('lead')).toContain('Agent');
    const main = h.client.requests.find((r) => roleOf(r) === 'main')!;
    expect(main.tools.find((t) => t.name === 'Agent')!.description).toContain('lead (lead agent)');
    expect(
      h
        .eventsOf('tool_result')
        .filter((r) => r.toolName === 'Agent')
        .every((r) => !r.isError),
    ).toBe(true);
  });

  it('refuses an unknown type with the list, resume together with subagent_type, and an unknown resume id', async () => {
    const h = makeEngine({
      tools: builtinTools(),
      responses: script({
        toolCalls: [
          { name: 'Agent', arguments: { description: 'x', prompt: 'p', subagent_type: 'wizard' } },
          { name: 'Agent', arguments: { description: 'x', prompt: 'p', subagent_type: 'coder', resume: 'a123' } },
          { name: 'Agent', arguments: { description: 'x', prompt: 'p', resume: 'a0000000000' } },
          { name: 'Agent', arguments: { description: 'x', prompt: 'p', resume: '../../etc' } },
        ],
      }),
    });
    await runPrompt(h, 'go');
    const [wizard, both, unknown, escape] = h.eventsOf('tool_result');
    expect(wizard).toMatchObject({
      isError: true,
      text: expect.stringContaining('there is no subagent type "wizard". Types you can use: coder, explore, plan.'),
    });
    expect(both).toMatchObject({ isError: true, text: expect.stringContaining('leave out subagent_type') });
    expect(unknown).toMatchObject({
      isError: true,
      text: expect.stringContaining('There is no subagent "a0000000000"'),
    });
    expect(escape).toMatchObject({ isError: true, text: expect.stringContaining('There is no subagent "../../etc"') });
    expect(h.client.requests.filter((r) => roleOf(r) !== 'main')).toHaveLength(0);
  });

  it('an empty subagent_type means coder; a subagents: [...] allowlist bounds whom an agent delegates to', async () => {
    const lead = custom('lead', { subagents: ['explore'] });
    const h = makeEngine({
      tools: builtinTools(),
      agents: catalogWith(lead),
      agentProfile: lead,
      // The lead's own prompt starts "Custom lead": it is the main agent here, so answer by the subagent marker.
      responses: (req: ModelRequest): ScriptedResponse =>
        /# Your role: subagent/.test(req.system)
          ? { text: 'sub done' }
          : req.messages.some((m) => m.role === 'tool')
            ? { text: 'main done' }
            : {
                toolCalls: [
                  { name: 'Agent', arguments: { description: 'x', prompt: 'p', subagent_type: 'coder' } },
                  { name: 'Agent', arguments: { description: 'y', prompt: 'q', subagent_type: 'explore' } },
                ],
              },
    });
    await runPrompt(h, 'go');
    const [coder, explore] = h.eventsOf('tool_result');
    expect(coder).toMatchObject({
      isError: true,
      text: expect.stringContaining('lead may not delegate to "coder". Types you can use: explore.'),
    });
    expect(explore.isError).toBe(false);
    const plain = makeEngine({
      tools: builtinTools(),
      responses: script({
        toolCalls: [{ name: 'Agent', arguments: { description: 'x', prompt: 'p', subagent_type: '' } }],
      }),
    });
    await runPrompt(plain, 'go');
    expect(plain.eventsOf('tool_result')[0].isError).toBe(false);
    expect(plain.client.requests.filter((r) => roleOf(r) === 'coder')).not.toHaveLength(0);
  });

  it('a main agent whose file allows no subagents is not offered the delegation tools', () => {
    const solo = custom('solo', { subagents: [] });
    const h = makeEngine({ tools: builtinTools(), agents: catalogWith(solo), agentProfile: solo, responses: [] });
    expect(h.runtime.agent.tools.map((t) => t.name)).not.toContain('Agent');
    expect(h.runtime.agent.tools.map((t) => t.name)).toContain('Bash');
  });

  it('a subagent that runs past [subagent] timeout_ms is stopped and reported as failed', async () => {
    const h = makeEngine({
      tools: builtinTools(),
      delegation: { subagentTimeoutMs: 300, swarmTimeoutMs: 0 },
      responses: script(
        { toolCalls: [{ name: 'Agent', arguments: { description: 'slow', prompt: 'take forever' } }] },
        () => ({ text: 'thinking about it', hangAfterText: true }),
      ),
    });
    await runPrompt(h, 'go');
    const [result] = h.eventsOf('tool_result');
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/^agent_id: a[0-9a-f]+ \(coder\) — failed \(timed out after 0\.3 s\)/);
  });
});

describe('AgentSwarm', () => {
  it('refuses a template without {{item}}, fewer than 2 items, and more than 128 members, starting nothing', async () => {
    const items = (n: number) => Array.from({ length: n }, (_, i) => `i${i}`);
    const h = makeEngine({
      tools: builtinTools(),
      mode: 'yolo',
      responses: [
        { toolCalls: [{ name: 'AgentSwarm', arguments: { prompt_template: 'no placeholder', items: items(3) } }] },
        { toolCalls: [{ name: 'AgentSwarm', arguments: { prompt_template: 'do {{item}}', items: items(1) } }] },
        { toolCalls: [{ name: 'AgentSwarm', arguments: { prompt_template: 'do {{item}}', items: items(129) } }] },
        { text: 'ok' },
      ],
    });
    await runPrompt(h, 'go');
    const results = h.eventsOf('tool_result');
    expect(results[0].text).toContain('prompt_template must contain {{item}}');
    expect(results[1].text).toContain('give at least 2 items');
    expect(results[2].text).toContain('at most 128 members');
    expect(h.client.requests).toHaveLength(4);
  });

  it('asks for approval in manual mode (rules match it by name), not Agent', async () => {
    const h = makeEngine({
      tools: builtinTools(),
      mode: 'manual',
      answer: () => ({ decision: 'reject' }),
      responses: script({
        toolCalls: [{ name: 'AgentSwarm', arguments: { prompt_template: 'do {{item}}', items: ['a', 'b'] } }],
      }),
    });
    await runPrompt(h, 'go');
    expect(h.approvals.map((a) => a.subject)).toEqual(['AgentSwarm']);
    const allowed = makeEngine({
      tools: builtinTools(),
      mode: 'manual',
      rules: [{ decision: 'allow', pattern: 'AgentSwarm' }],
      answer: () => ({ decision: 'reject' }),
      responses: script({
        toolCalls: [{ name: 'AgentSwarm', arguments: { prompt_template: 'do {{item}}', items: ['a', 'b'] } }],
      }),
    });
    await runPrompt(allowed, 'go');
    expect(allowed.approvals).toHaveLength(0);
    expect(allowed.eventsOf('tool_result')[0].text).toContain('2 of 2 completed');
  });

  it('swarm mode approves AgentSwarm without asking (also for a custom subagent that may delegate), never other tools; a deny rule still stands', async () => {
    const swarmCall = { name: 'AgentSwarm', arguments: { prompt_template: 'do {{item}}', items: ['a', 'b'] } };
    const lead = custom('lead', { subagents: '*' });
    const h = makeEngine({
      tools: builtinTools(),
      mode: 'manual',
      answer: () => ({ decision: 'reject' }),
      responses: script({ toolCalls: [swarmCall] }),
    });
    h.runtime.swarmMode = true;
    await runPrompt(h, 'go');
    expect(h.approvals).toHaveLength(0);
    expect(
      h
        .eventsOf('approval_decision')
        .filter((d) => d.subject === 'AgentSwarm')
        .map((d) => d.by),
    ).toEqual(['swarm mode']);
    expect(h.eventsOf('tool_result')[0].text).toContain('2 of 2 completed');

    const viaLead = makeEngine({
      tools: builtinTools(),
      agents: catalogWith(lead),
      mode: 'manual',
      answer: () => ({ decision: 'reject' }),
      responses: script(
        {
          toolCalls: [{ name: 'Agent', arguments: { description: 'lead it', prompt: 'lead', subagent_type: 'lead' } }],
        },
        (req) => {
          if (roleOf(req) !== 'lead') return { text: 'member done' };
          // The lead subagent starts its own swarm, then writes a file (asked: swarm mode covers only AgentSwarm).
          const results = req.messages.filter((m) => m.role === 'tool').length;
          if (results === 0) return { toolCalls: [swarmCall] };
          if (results === 1) return { toolCalls: [{ name: 'Write', arguments: { path: 'x.txt', content: 'x' } }] };
          return { text: 'lead done' };
        },
      ),
    });
    viaLead.runtime.swarmMode = true;
    await runPrompt(viaLead, 'go');
    // The lead's swarm ran without asking; its Write was asked (and rejected).
    expect(viaLead.approvals.map((a) => a.subject)).toEqual([expect.stringMatching(/^Write\(/)]);
    expect(viaLead.approvals[0].agentId).not.toBe('main');

    const denied = makeEngine({
      tools: builtinTools(),
      mode: 'manual',
      rules: [{ decision: 'deny', pattern: 'AgentSwarm' }],
      responses: script({ toolCalls: [swarmCall] }),
    });
    denied.runtime.swarmMode = true;
    await runPrompt(denied, 'go');
    expect(denied.eventsOf('tool_result')[0]).toMatchObject({
      isError: true,
      text: expect.stringContaining('denied by a permission rule'),
    });
  });

  it('the concurrency cap bounds how many members run at once; every member is reported', async () => {
    const h = makeEngine({
      tools: builtinTools(),
      mode: 'yolo',
      delegation: { subagentTimeoutMs: 0, swarmTimeoutMs: 0, swarmMaxConcurrency: '2', rampStepMs: 5 },
      responses: script(
        {
          toolCalls: [
            {
              name: 'AgentSwarm',
              arguments: { prompt_template: 'do {{item}}', items: ['a', 'b', 'c', 'd', 'e', 'f', 'g'] },
            },
          ],
        },
        (req) => ({ text: `did ${/do (\w)/.exec(userText(req))![1]}`, delayMs: 20 }),
      ),
    });
    let live = 0;
    let peak = 0;
    h.runtime.agents.list();
    await runPrompt(h, 'go');
    for (const e of h.events) {
      if (e.agentId === 'main') continue;
      if (e.type === 'turn_start') peak = Math.max(peak, ++live);
      if (e.type === 'turn_end') live--;
    }
    expect(peak).toBe(2);
    const report = h.eventsOf('tool_result')[0].text;
    expect(report).toContain('7 of 7 completed');
    for (const x of 'abcdefg') expect(report).toContain(`did ${x}`);
  });

  it('the ramp: 5 at once, then one more every 700 ms; a bad concurrency value is an error', () => {
    expect([0, 1, 4, 5, 6, 20].map((i) => rampStartMs(i))).toEqual([0, 0, 0, 700, 1400, 11200]);
    expect(parseSwarmConcurrency(undefined)).toBe(Infinity);
    expect(parseSwarmConcurrency(' 3 ')).toBe(3);
    for (const bad of ['abc', '0', '-1', '2.5'])
      expect(() => parseSwarmConcurrency(bad)).toThrow(/must be a positive integer/);
  });
});
