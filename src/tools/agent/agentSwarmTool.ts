// AgentSwarm: one template, many items, one subagent per item (SPEC §6.7). The engine ramps the starts
// up, times members out and waits for all; this file validates the call and writes the report.
import { z } from 'zod';
import { defineTool, type Tool } from '../defineTool';
import { withModelArgument, type ModelOffer } from './agentTool';
import description from './agentSwarm.md';
import {
  DelegationError,
  DELEGATION_SERVICE,
  formatElapsed,
  MAX_SWARM_MEMBERS,
  SWARM_ITEM_PLACEHOLDER,
  type SwarmMember,
} from './delegationService';

/** The aggregated report: a count line, then every member in item order with its answer or failure. */
export function formatSwarmReport(members: readonly SwarmMember[], elapsedMs: number): string {
  const count = (s: string) => members.filter((m) => m.status === s).length;
  const failed = members.length - count('completed');
  const head = `Swarm finished in ${formatElapsed(elapsedMs)}: ${count('completed')} of ${members.length} completed${failed ? `, ${failed} failed` : ''}.`;
  const sections = members.map((m, i) => {
    const label =
      m.item !== undefined
        ? `item ${JSON.stringify(m.item.length > 80 ? `${m.item.slice(0, 80)}…` : m.item)}`
        : 'resumed';
    const status = m.status === 'completed' ? 'completed' : `FAILED (${m.error ?? m.status.replace('_', ' ')})`;
    return `## ${i + 1}. ${label} — agent_id ${m.agentId} — ${status} in ${formatElapsed(m.elapsedMs)} (started at +${m.startedAfterMs} ms)\n${m.text.trim() || '(no final message)'}`;
  });
  return [head, ...sections].join('\n\n');
}

const fields = z.object({
  prompt_template: z.string().trim().min(1, 'give the template'),
  items: z.array(z.string()).default([]),
  resume_agent_ids: z.array(z.string().trim().min(1)).default([]),
  // Models send "" for "no particular type": it means the default, coder (docs/skills-and-agents.md).
  subagent_type: z.string().trim().optional(),
});

/** The tool; with a model pool (SPEC §3.5) it takes `model` for the item members. */
export const makeAgentSwarmTool = (modelOffer?: ModelOffer): Tool =>
  defineTool({
    name: 'AgentSwarm',
    services: [DELEGATION_SERVICE],
    deferred: true,
    description,
    constants: { MAX: MAX_SWARM_MEMBERS },
    schema: withModelArgument(fields, modelOffer)
      .refine((a) => a.items.length === 0 || a.prompt_template.includes(SWARM_ITEM_PLACEHOLDER), {
        message: `prompt_template must contain ${SWARM_ITEM_PLACEHOLDER}, which each item replaces`,
        path: ['prompt_template'],
      })
      .refine((a) => a.items.length >= 2 || a.resume_agent_ids.length > 0, {
        message: 'give at least 2 items (or resume_agent_ids); for a single task use Agent',
        path: ['items'],
      })
      .refine((a) => a.items.length + a.resume_agent_ids.length <= MAX_SWARM_MEMBERS, {
        message: `a swarm has at most ${MAX_SWARM_MEMBERS} members (items + resume_agent_ids); split the work`,
        path: ['items'],
      }),
    readOnly: false,
    // SPEC §6.7: asks in manual mode (outside swarm mode); rules match it by name only.
    defaultApproval: 'ask',
    subject: () => 'AgentSwarm',
    async execute(args, ctx) {
      const started = Date.now();
      try {
        const members = await ctx.services.get(DELEGATION_SERVICE).swarm(
          {
            promptTemplate: args.prompt_template,
            items: args.items,
            resumeAgentIds: args.resume_agent_ids,
            subagentType: args.subagent_type || undefined,
            callId: ctx.callId,
            model: args.model,
          },
          ctx.signal,
          (line) => ctx.emitProgress({ text: line, stream: 'status' }),
        );
        const failed = members.filter((m) => m.status !== 'completed').length;
        return {
          content: formatSwarmReport(members, Date.now() - started),
          summary: `Swarm: ${members.length - failed} of ${members.length} completed`,
        };
      } catch (e) {
        if (e instanceof DelegationError) return { content: e.message, isError: true };
        throw e;
      }
    },
  });

export const agentSwarmTool = makeAgentSwarmTool();
