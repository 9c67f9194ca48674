// TaskStop: stops a running background task (group SIGTERM → grace → SIGKILL); harmless on finished ones.
import { z } from 'zod';
import { defineTool } from '../defineTool';
import description from './taskStop.md';
import { describeTask, TASK_SERVICE, UnknownTaskError } from './taskService';

export const DEFAULT_REASON = 'Stopped by TaskStop';

export const taskStopTool = defineTool({
  name: 'TaskStop',
  services: [TASK_SERVICE],
  // Rarely needed, and every request pays for a core schema; listed in ToolSearch (docs/tools.md).
  deferred: true,
  description,
  constants: { DEFAULT_REASON },
  schema: z.object({
    task_id: z.string().min(1, 'task_id must not be empty'),
    reason: z.string().optional(),
  }),
  readOnly: false,
  defaultApproval: 'ask',
  subject: (a) => `TaskStop(${a.task_id})`,
  // Stopping a process is an effect with no path: declared as such, plan mode refuses it.
  accesses: (_a, ctx) => [{ kind: 'exec', cwd: ctx.cwd }],
  async execute(args, ctx) {
    const tasks = ctx.services.get(TASK_SERVICE);
    const before = tasks.get(args.task_id);
    if (!before) return { content: new UnknownTaskError(args.task_id).message, isError: true };
    if (before.status !== 'running') {
      return {
        content: `Task ${before.id} had already finished; nothing to stop.\n${describeTask(before)}`,
        summary: `${before.id} already ${before.status}`,
      };
    }
    // This result tells the model the task ended, so no automatic notification follows.
    const task = await tasks.stop(before.id, args.reason?.trim() || DEFAULT_REASON, { notify: false });
    const verb = task.endReason === 'stopped' ? 'Stopped' : 'It ended on its own before it could be stopped:';
    return {
      content: `${verb} task ${task.id}.\n${describeTask(task)}\noutput_path: ${task.outputPath}`,
      summary: `${task.id} ${task.status}`,
    };
  },
});
