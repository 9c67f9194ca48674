// Agent: delegates one task to a subagent (SPEC §6.7). Foreground calls wait for its answer; several in
// one response run at the same time. Background calls return a task id and the result arrives as a
// task notification. Who may be delegated to is the engine's decision (engine/delegation/subagents.ts).
import { z } from 'zod';
import { defineTool, type Tool } from '../defineTool';
import description from './agent.md';
import {
  DelegationError,
  DELEGATION_SERVICE,
  describeModelChoices,
  formatSubagentOutcome,
  type ModelChoice,
} from './delegationService';
import { summarise } from '../toolSearch/toolLoader';

export interface SubagentTypeInfo {
  name: string;
  description: string;
  /** A plugin's agent: described in one short line, within PLUGIN_AGENTS_LISTING_BUDGET_BYTES. */
  plugin?: boolean;
}

/**
 * Most bytes the plugins' agents take in the description, all plugins together: every request carries
 * it, and installing plugins must not grow it without end (docs/plugins.md, "Context budget").
 */
export const PLUGIN_AGENTS_LISTING_BUDGET_BYTES = 192;

/** `${TYPES}`: the built-in types, the user's own agents in full, plugins' agents within their budget. */
function typesText(customTypes: readonly SubagentTypeInfo[]): string {
  const parts = customTypes.filter((t) => !t.plugin).map((t) => `${t.name} (${t.description})`);
  let used = 0;
  let left = 0;
  for (const type of customTypes.filter((t) => t.plugin)) {
    const part = `${type.name} (${summarise(type.description)})`;
    if (used + Buffer.byteLength(part) + 2 > PLUGIN_AGENTS_LISTING_BUDGET_BYTES) {
      left++;
      continue;
    }
    used += Buffer.byteLength(part) + 2;
    parts.push(part);
  }
  // An unknown subagent_type is answered with every type that may be used.
  if (left) parts.push(`${left} more from plugins (an unknown subagent_type lists every name)`);
  return parts.length ? `${BUILTIN_TYPES}, or ${parts.join(', ')}` : BUILTIN_TYPES;
}

const BUILTIN_TYPES = 'coder (default; all tools), explore (read-only), plan (no shell or writes)';

const fields = z.object({
  prompt: z.string().trim().min(1, 'give the subagent its task'),
  description: z.string().trim().min(1, 'describe the task in 3-5 words'),
  // Models send "" for "no particular type": it means the default, coder (docs/skills-and-agents.md).
  subagent_type: z.string().trim().optional(),
  resume: z.string().trim().min(1).optional(),
  run_in_background: z.boolean().default(false),
});

/** What the tools offer of the model pool (SPEC §3.5): its choices, or the one model `force` pins. */
export type ModelOffer = { choices: readonly ModelChoice[] } | { forced: string };

/**
 * `model` is offered only with a model pool: its description lists the choices. With `force` it is not
 * offered and a call that gives one anyway is refused; without a pool an unexpected one is dropped.
 */
export function withModelArgument<S extends z.ZodRawShape>(schema: z.ZodObject<S>, offer: ModelOffer | undefined) {
  const extended = schema.extend({
    model: z
      .string()
      .trim()
      .min(1)
      .optional()
      .describe(`model pool choice: ${describeModelChoices(offer && 'choices' in offer ? offer.choices : [])}`),
  });
  if (offer && 'forced' in offer) {
    const refused = schema.loose().refine((a) => !('model' in a), {
      message: `[secondary_model] force = true runs every subagent on "${offer.forced}"; leave model out`,
      path: ['model'],
    });
    // The type is the same: a call that passes this schema has no `model`.
    return refused as unknown as typeof extended;
  }
  return (offer ? extended : schema) as typeof extended;
}

/** The tool, its description naming the custom agents that can be delegated to and the model pool's choices. */
export function makeAgentTool(customTypes: readonly SubagentTypeInfo[] = [], modelOffer?: ModelOffer): Tool {
  const types = typesText(customTypes);
  return defineTool({
    name: 'Agent',
    services: [DELEGATION_SERVICE],
    description,
    constants: { TYPES: types },
    schema: withModelArgument(fields, modelOffer).refine((a) => !(a.resume && a.subagent_type), {
      message: 'resume continues an existing subagent with its own type: leave out subagent_type',
      path: ['subagent_type'],
    }),
    readOnly: false,
    defaultApproval: 'auto',
    subject: (a) => `Agent(${a.resume ? `resume ${a.resume}` : a.subagent_type || 'coder'})`,
    async execute(args, ctx) {
      const service = ctx.services.get(DELEGATION_SERVICE);
      const call = {
        prompt: args.prompt,
        description: args.description,
        subagentType: args.subagent_type || undefined,
        resume: args.resume,
        callId: ctx.callId,
        model: args.model,
      };
      try {
        if (args.run_in_background) {
          const started = service.startInBackground(call);
          return {
            content: `Started subagent ${started.agentId} in the background as task ${started.taskId}. Its result arrives as a notification when it ends; WaitFor, TaskOutput and TaskStop take the task id. Resume it later with resume: "${started.agentId}".`,
            summary: `Subagent ${started.agentId} running in the background`,
          };
        }
        const outcome = await service.run(call, ctx.signal, (line) =>
          ctx.emitProgress({ text: line, stream: 'status' }),
        );
        return {
          content: formatSubagentOutcome(outcome),
          isError: outcome.status !== 'completed',
          summary: `${outcome.type} ${outcome.agentId}: ${outcome.status.replace('_', ' ')}`,
        };
      } catch (e) {
        if (e instanceof DelegationError) return { content: e.message, isError: true };
        throw e;
      }
    },
  });
}

export const agentTool = makeAgentTool();
