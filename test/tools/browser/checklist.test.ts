import { describe, expect, it } from 'vitest';
import { Checklist, CHECKLIST_SERVICE } from '../../../src/tools/browser';
import { createTaskTool, listTasksTool, updateTaskTool } from '../../../src/tools/browser/taskListTools';
import { makeToolHarness } from '../../helpers/toolHarness';

describe('create_task / update_task / list_tasks', () => {
  it('sequential ids, update semantics, unknown id, status validation', async () => {
    const h = makeToolHarness();
    h.register(CHECKLIST_SERVICE, new Checklist());
    const j = async (tool: typeof createTaskTool, args: unknown) => JSON.parse((await h.run(tool, args)).text);
    expect(await j(createTaskTool, { subject: 'Open the page' })).toEqual({
      id: '1',
      subject: 'Open the page',
      status: 'pending',
    });
    await Promise.all([j(createTaskTool, { subject: 'B' }), j(createTaskTool, { subject: 'C', description: 'd' })]);
    expect((await j(listTasksTool, {})).map((t: { id: string }) => t.id)).toEqual(['1', '2', '3']);
    expect(await j(updateTaskTool, { task_id: '1', status: 'in_progress', subject: '', description: '' })).toEqual({
      id: '1',
      subject: 'Open the page',
      description: '',
      status: 'in_progress',
    });
    expect(await j(updateTaskTool, { task_id: '9', status: 'completed' })).toEqual({ error: 'Task "9" not found' });
    const bad = await h.run(updateTaskTool, { task_id: '1', status: 'done' });
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain('status');
  });
});
