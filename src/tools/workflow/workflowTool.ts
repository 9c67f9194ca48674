// Workflow: runs a workflow script (docs/workflows.md) in the background: its subagents are the
// session's (DELEGATION_SERVICE), the run is an in-process background task (TASK_SERVICE), and the
// script itself runs in the QuickJS sandbox (workflowRun.ts).
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { DELEGATION_SERVICE } from '../agent/delegationService';
import { defineTool, type ToolContext } from '../defineTool';
import { TASK_SERVICE } from '../task/taskService';
import description from './workflow.md';
import { findWorkflow, type WorkflowSource } from './workflowCatalog';
import {
  describeLimits,
  readWorkflowMeta,
  runWorkflowScript,
  WORKFLOW_LIMITS,
  type WorkflowLimits,
  type WorkflowMeta,
} from './workflowRun';
import { WORKFLOW_SETTINGS } from './workflowService';

const TOKEN_WARNING =
  'Token use: every subagent is a full model conversation, so one run can cost many times a normal turn.';

const schema = z
  .object({
    name: z.string().min(1).optional().describe('A catalog workflow.'),
    script: z.string().min(1).optional().describe('An inline workflow script (ES module).'),
    args: z.string().optional().describe('Passed to the script as `args`.'),
  })
  .refine((a) => (a.name === undefined) !== (a.script === undefined), {
    message: 'Give exactly one of name (a catalog workflow) or script (an inline script).',
  });

type WorkflowArgs = z.infer<typeof schema>;

type WorkflowContext = ToolContext<typeof WORKFLOW_SETTINGS>;

/** Where user workflows live and the run limits; a session that lends no settings (tests) gets the defaults. */
function limitsOf(ctx: WorkflowContext): { home: string; limits: WorkflowLimits } {
  return ctx.services.find(WORKFLOW_SETTINGS) ?? { home: '', limits: WORKFLOW_LIMITS };
}

function resolveSource(args: WorkflowArgs, ctx: WorkflowContext): WorkflowSource | { error: string } {
  if (args.script !== undefined) return { name: 'inline', origin: 'project', script: args.script };
  return findWorkflow(args.name ?? '', limitsOf(ctx).home, ctx.cwd);
}

/** What every call shows: meta, phases, the full script, the limits and the token warning. */
function describeRun(
  source: WorkflowSource,
  meta: WorkflowMeta | undefined,
  limits: WorkflowLimits,
  args: string | undefined,
): string {
  const from = source.path
    ? `${source.origin} workflow ${source.path}`
    : source.name === 'inline'
      ? 'inline script'
      : `${source.origin} workflow`;
  return [
    `Workflow: ${meta?.name ?? source.name} (${from})`,
    ...(meta
      ? [
          `Description: ${meta.description || '(none)'}`,
          `Phases: ${meta.phases.length ? meta.phases.join(' → ') : '(none declared)'}`,
        ]
      : []),
    ...(args ? [`Args: ${args}`] : []),
    `Limits: ${describeLimits(limits)}`,
    TOKEN_WARNING,
    '--- script ---',
    source.script.trimEnd(),
    '--- end of script ---',
  ].join('\n');
}

export const workflowTool = defineTool({
  name: 'Workflow',
  services: [DELEGATION_SERVICE, TASK_SERVICE],
  optionalServices: [WORKFLOW_SETTINGS],
  description,
  constants: { CATALOG: 'deep-research and any in the workflows folders', LIMITS: describeLimits(WORKFLOW_LIMITS) },
  deferred: true,
  schema,
  readOnly: false,
  defaultApproval: 'ask',
  subject: (a) => `Workflow(${a.name ?? 'inline'})`,
  // Its subagents can do anything their profiles allow: an effect of unknown footprint (plan mode refuses it).
  accesses: (_a, ctx) => [{ kind: 'exec', cwd: ctx.cwd }],
  approvalPreview(args, ctx) {
    const source = resolveSource(args, ctx);
    if ('error' in source) return undefined;
    return { kind: 'text', text: describeRun(source, undefined, limitsOf(ctx).limits, args.args) };
  },
  async execute(args, ctx) {
    const source = resolveSource(args, ctx);
    if ('error' in source) return { content: source.error, isError: true };
    const { limits } = limitsOf(ctx);
    let meta: WorkflowMeta;
    try {
      meta = await readWorkflowMeta(source.script, ctx.signal);
    } catch (e) {
      return { content: `${(e as Error).message}\nNothing was started.`, isError: true };
    }
    const delegation = ctx.services.get(DELEGATION_SERVICE);
    const runId = `wf-${randomBytes(4).toString('hex')}`;
    const shown = describeRun(source, meta, limits, args.args);
    const task = ctx.services.get(TASK_SERVICE).startInProcess({
      kind: 'tool',
      description: `workflow ${meta.name} (${runId})`,
      timeoutMs: null, // the sandbox enforces the wall time itself, with its own message
      run: async (signal, write) => {
        write(`${shown}\n\n`);
        try {
          const result = await runWorkflowScript(source.script, {
            args: args.args ?? '',
            meta,
            limits,
            signal,
            hooks: {
              progress: (line) => write(`${line}\n`),
              async runAgent(call, agentSignal) {
                const outcome = await delegation.run(
                  { prompt: call.prompt, description: call.description, subagentType: call.type, callId: ctx.callId },
                  agentSignal,
                  () => undefined,
                );
                if (outcome.status !== 'completed')
                  throw new Error(
                    `subagent ${outcome.agentId} ${outcome.status.replace('_', ' ')}${outcome.error ? `: ${outcome.error}` : ''}`,
                  );
                return outcome.text;
              },
            },
          });
          write(`\n== result of workflow ${meta.name} (${runId})\n${result}\n`);
          return undefined;
        } catch (e) {
          write(`\n== workflow ${meta.name} (${runId}) failed: ${(e as Error).message}\n`);
          return (e as Error).message;
        }
      },
    });
    return {
      content: `Started workflow ${meta.name}: run ${runId}, background task ${task.id}. Its result arrives as a notification when it ends; TaskOutput ${task.id} shows progress, TaskStop ${task.id} stops it.\n\n${shown}`,
      summary: `${meta.name} started (task ${task.id})`,
      display: { kind: 'text', text: shown },
    };
  },
});
