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
import { fitListing, LISTING_MIN_BYTES, type ListingFormat } from '../listingBudget';

export interface SubagentTypeInfo {
  name: string;
  description: string;
  /** A plugin's agent: listed within the listing's room (docs/plugins.md, "Context budget"). */
  plugin?: boolean;
}

/** How plugins' agents are written in `${TYPES}`; those past the room are named without descriptions. */
const PLUGIN_AGENTS: ListingFormat = {
  described: (name, text) => `${name} (${text})`,
  namesOnly: (names) => `also ${names.join(', ')}`,
  separator: ', ',
};

/**
 * `${TYPES}`: the built-in types, the user's own agents in full, then plugins' agents with their descriptions
 * within `budgetBytes` (shortened, then named only, past it; every one is named).
 */
function typesText(customTypes: readonly SubagentTypeInfo[], budgetBytes: number): string {
  const parts = customTypes.filter((t) => !t.plugin).map((t) => `${t.name} (${t.description})`);
  const plugins = customTypes.filter((t) => t.plugin).map((t) => ({ name: t.name, text: t.description }));
  if (plugins.length) parts.push(...fitListing(plugins, budgetBytes, PLUGIN_AGENTS).parts);
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
export type ModelOffer = { choices: readonly ModelChoice[]; note?: string } | { forced: string };

/** The schema with the `model` argument, described with the pool's choices. */
function extendWithModel<S extends z.ZodRawShape>(schema: z.ZodObject<S>, offer: ModelOffer | undefined) {
  return schema.extend({
    model: z
      .string()
      .trim()
      .min(1)
      .optional()
      .describe(
        offer && 'choices' in offer && offer.note
          ? `model (${offer.note}): ${describeModelChoices(offer.choices)}`
          : `model pool choice: ${describeModelChoices(offer && 'choices' in offer ? offer.choices : [])}`,
      ),
  });
}

/**
 * `model` is offered only with a model pool: its description lists the choices. With `force` it is not
 * offered and a call that gives one anyway is refused; without a pool an unexpected one is dropped.
 * The extended schema is built only when it is offered (every session defines this tool at start-up).
 */
export function withModelArgument<S extends z.ZodRawShape>(schema: z.ZodObject<S>, offer: ModelOffer | undefined) {
  type Extended = ReturnType<typeof extendWithModel<S>>;
  if (offer && 'forced' in offer) {
    const refused = schema.loose().refine((a) => !('model' in a), {
      message: `[secondary_model] force = true runs every subagent on "${offer.forced}"; leave model out`,
      path: ['model'],
    });
    // The type is the same: a call that passes this schema has no `model`.
    return refused as unknown as Extended;
  }
  return (offer ? extendWithModel(schema, offer) : schema) as Extended;
}

/**
 * The tool, its description naming the custom agents that can be delegated to (plugins' within
 * `listingBudgetBytes`) and the model choices.
 */
export function makeAgentTool(
  customTypes: readonly SubagentTypeInfo[] = [],
  modelOffer?: ModelOffer,
  listingBudgetBytes = LISTING_MIN_BYTES,
): Tool {
  const types = typesText(customTypes, listingBudgetBytes);
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
