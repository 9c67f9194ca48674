// agent: the browser profile's delegation (docs/browser.md) — one task to a `researcher`,
// `page_operator` or `general` sub-agent, run to the end of its turn through the engine's Delegation
// (engine/delegation/subagents.ts), which gives each type its own tools and prompt. Several calls in one response
// run at the same time.
import { z } from 'zod';
import { BROWSER_DELEGATION_TOOL, BROWSER_SUBAGENT_TYPES, DEFAULT_BROWSER_SUBAGENT } from '../../types/browserProfile';
import { DelegationError, DELEGATION_SERVICE, formatElapsed } from '../agent/delegationService';
import { defineTool } from '../defineTool';
import { jsonError } from './browserService';
import description from './subAgent.md';

/** How long one sub-agent may run (BROWSER.md: 10 minutes); `[browser] subagent_timeout_s` changes it. */
export const DEFAULT_BROWSER_SUBAGENT_TIMEOUT_MS = 10 * 60_000;
const NO_OUTPUT = '(sub-agent produced no output)';

export function makeBrowserSubagentTool(timeoutMs = DEFAULT_BROWSER_SUBAGENT_TIMEOUT_MS) {
  return defineTool({
    name: BROWSER_DELEGATION_TOOL,
    services: [DELEGATION_SERVICE],
    description,
    constants: { TIMEOUT: formatElapsed(timeoutMs) },
    schema: z.object({
      prompt: z.string().trim().min(1, 'prompt is required: give the sub-agent its whole task'),
      description: z.string().trim().min(1).optional(),
      type: z
        .enum(BROWSER_SUBAGENT_TYPES, { error: `type must be one of ${BROWSER_SUBAGENT_TYPES.join(', ')}` })
        .optional(),
      tab_id: z.number().int().positive().optional(),
    }),
    readOnly: false,
    defaultApproval: 'auto',
    subject: (a) => `agent(${a.type ?? DEFAULT_BROWSER_SUBAGENT})`,
    async execute(args, ctx) {
      const type = args.type ?? DEFAULT_BROWSER_SUBAGENT;
      const tabLine =
        args.tab_id === undefined
          ? ''
          : `Work in the already open browser tab with tab_id ${args.tab_id}; do not open a new tab for this unless you must.\n\n`;
      const call = {
        prompt: `${tabLine}${args.prompt}`,
        description: args.description ?? 'Sub-agent task',
        subagentType: type,
        callId: ctx.callId,
      };
      let outcome;
      try {
        outcome = await ctx.services
          .get(DELEGATION_SERVICE)
          .run(call, ctx.signal, (line) => ctx.emitProgress({ text: line, stream: 'status' }));
      } catch (e) {
        if (e instanceof DelegationError) return jsonError(e.message);
        throw e;
      }
      const text = outcome.text.trim() || NO_OUTPUT;
      const answer = `[agentId: ${outcome.agentId}]\n\n${text}`;
      const summary = `${type} ${outcome.agentId}: ${outcome.status.replace('_', ' ')}`;
      // A sub-agent that ran out of time still hands back what it had; a cancelled or failed one is an error.
      if (outcome.status === 'completed') return { content: answer, summary };
      if (outcome.status === 'timed_out')
        return {
          content: `${answer}\n\n[The sub-agent timed out after ${formatElapsed(timeoutMs)}; the text above is what it had so far.]`,
          summary,
        };
      return {
        content: `${answer}\n\n[The sub-agent did not finish: ${outcome.error ?? outcome.status}]`,
        isError: true,
        summary,
      };
    },
  });
}
