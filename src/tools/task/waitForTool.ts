// WaitFor: waits inside the turn for a background task (or any running one) to finish.
import { z } from 'zod';
import { defineTool } from '../defineTool';
import { describeTask, TASK_SERVICE, UnknownTaskError, type TaskInfo, type TaskService } from './taskService';
import description from './waitFor.md';

export const MAX_TIMEOUT_S = 600;
/** How much of a finished task's output the result shows; the rest is in its output file. */
const TAIL_BYTES = 4 * 1024;

export const waitForTool = defineTool({
  name: 'WaitFor',
  services: [TASK_SERVICE],
  // Needed only while background work runs, and every request pays for a core schema; listed in ToolSearch
  // (docs/tools.md).
  deferred: true,
  description,
  constants: { MAX_TIMEOUT_S },
  schema: z.object({
    timeout: z.number().positive().max(MAX_TIMEOUT_S, `timeout is in seconds and at most ${MAX_TIMEOUT_S}`),
    task_id: z.string().min(1, 'task_id must not be empty').optional(),
  }),
  readOnly: true,
  defaultApproval: 'auto',
  async execute(args, ctx) {
    const tasks = ctx.services.get(TASK_SERVICE);
    if (args.task_id !== undefined && !tasks.get(args.task_id))
      return { content: new UnknownTaskError(args.task_id).message, isError: true };
    const result = await tasks.waitFor({ taskId: args.task_id, timeoutMs: args.timeout * 1_000, signal: ctx.signal });
    if (result.aborted) return { content: 'WaitFor was interrupted.', isError: true };
    const running = result.running.length
      ? `Still running:\n${result.running.map((t) => `- ${describeTask(t)}`).join('\n')}`
      : 'No background tasks are running.';
    if (result.finished.length) {
      const blocks = await Promise.all(result.finished.map((t) => finishedBlock(t, tasks)));
      return {
        content: `${blocks.join('\n\n')}\n\n${running}`,
        summary: result.finished.map((t) => `${t.id} ${t.status}`).join(', '),
      };
    }
    if (result.timedOut) {
      return {
        content: `No task finished within ${args.timeout} s (this is not an error; wait again or continue with other work).\n${running}`,
        summary: 'timed out',
      };
    }
    return { content: 'No background tasks are running; nothing to wait for.', summary: 'nothing running' };
  },
});

async function finishedBlock(task: TaskInfo, tasks: TaskService): Promise<string> {
  const tail = await tasks.readOutputTail(task.id, TAIL_BYTES);
  const output =
    tail.totalBytes === 0
      ? 'No output.'
      : `${tail.truncated ? `Last ${Buffer.byteLength(tail.text)} of ${tail.totalBytes} bytes of output:` : 'Output:'}\n<output>\n${tail.text.replace(/\n$/, '')}\n</output>`;
  return `Task finished: ${describeTask(task)}\noutput_path: ${task.outputPath}\n${output}`;
}
