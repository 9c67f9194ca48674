// TaskOutput: a non-blocking snapshot of a task's status and the end of its output.
import { z } from 'zod';
import { defineTool } from '../defineTool';
import description from './taskOutput.md';
import { describeTask, TASK_SERVICE, UnknownTaskError } from './taskService';

export const MAX_INLINE_BYTES = 32 * 1024;

export const taskOutputTool = defineTool({
  name: 'TaskOutput',
  services: [TASK_SERVICE],
  description,
  constants: { MAX_INLINE_KB: MAX_INLINE_BYTES / 1024 },
  schema: z.object({
    task_id: z.string().min(1, 'task_id must not be empty'),
  }),
  readOnly: true,
  defaultApproval: 'auto',
  async execute(args, ctx) {
    const tasks = ctx.services.get(TASK_SERVICE);
    const task = tasks.get(args.task_id);
    if (!task) return { content: new UnknownTaskError(args.task_id).message, isError: true };
    const tail = await tasks.readOutputTail(task.id, MAX_INLINE_BYTES);
    const shown = tail.truncated
      ? `Last ${Buffer.byteLength(tail.text)} of ${tail.totalBytes} bytes of output (read output_path for the rest):`
      : `Output (${tail.totalBytes} bytes):`;
    const lines = [
      describeTask(task),
      ...(task.status === 'running' ? ['Still running; you will be notified when it finishes (or use WaitFor).'] : []),
      `output_path: ${task.outputPath}`,
      tail.totalBytes === 0 ? 'No output yet.' : `${shown}\n<output>\n${tail.text.replace(/\n$/, '')}\n</output>`,
    ];
    return { content: lines.join('\n'), summary: `${task.id} ${task.status}` };
  },
});
