// create_task / update_task / list_tasks: the browser profile's checklist, in memory for the session
// (docs/browser.md). Ids are "1", "2", … in creation order.
import { z } from 'zod';
import { defineTool, serviceKey } from '../defineTool';
import { jsonError, jsonResult } from './browserService';
import createText from './createTask.md';
import listText from './listTasks.md';
import updateText from './updateTask.md';

export const TASK_STATUSES = ['pending', 'in_progress', 'completed'] as const;

export interface ChecklistTask {
  id: string;
  subject: string;
  description?: string;
  status: (typeof TASK_STATUSES)[number];
}

export class Checklist {
  private readonly tasks: ChecklistTask[] = [];

  create(subject: string, description?: string): ChecklistTask {
    const task: ChecklistTask = {
      id: String(this.tasks.length + 1),
      subject,
      ...(description === undefined ? {} : { description }),
      status: 'pending',
    };
    this.tasks.push(task);
    return { ...task };
  }

  update(
    id: string,
    change: { status?: ChecklistTask['status']; subject?: string; description?: string },
  ): ChecklistTask {
    const task = this.tasks.find((t) => t.id === id);
    if (!task) throw new Error(`Task "${id}" not found`);
    if (change.status) task.status = change.status;
    if (change.subject) task.subject = change.subject;
    if (change.description !== undefined) task.description = change.description;
    return { ...task };
  }

  list(): ChecklistTask[] {
    return this.tasks.map((t) => ({ ...t }));
  }
}

export const CHECKLIST_SERVICE = serviceKey<Checklist>()('browser-checklist');

export const createTaskTool = defineTool({
  name: 'create_task',
  services: [CHECKLIST_SERVICE],
  description: createText,
  schema: z.object({ subject: z.string().trim().min(1, 'subject is required'), description: z.string().optional() }),
  readOnly: true,
  defaultApproval: 'auto',
  async execute(args, ctx) {
    return jsonResult(ctx.services.get(CHECKLIST_SERVICE).create(args.subject, args.description));
  },
});

export const updateTaskTool = defineTool({
  name: 'update_task',
  services: [CHECKLIST_SERVICE],
  description: updateText,
  schema: z.object({
    task_id: z.string().trim().min(1, 'task_id is required'),
    status: z.enum(TASK_STATUSES).optional(),
    subject: z.string().optional(),
    description: z.string().optional(),
  }),
  readOnly: true,
  defaultApproval: 'auto',
  async execute(args, ctx) {
    try {
      return jsonResult(ctx.services.get(CHECKLIST_SERVICE).update(args.task_id, args));
    } catch (e) {
      return jsonError((e as Error).message);
    }
  },
});

export const listTasksTool = defineTool({
  name: 'list_tasks',
  services: [CHECKLIST_SERVICE],
  description: listText,
  schema: z.object({}),
  readOnly: true,
  defaultApproval: 'auto',
  async execute(_args, ctx) {
    return jsonResult(ctx.services.get(CHECKLIST_SERVICE).list());
  },
});
