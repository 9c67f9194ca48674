// The background task tool group. The service they use is defined in taskService.ts and
// implemented by the engine (engine/background/backgroundTasks.ts).
import type { Tool } from '../defineTool';
import { taskListTool } from './taskListTool';
import { taskOutputTool } from './taskOutputTool';
import { taskStopTool } from './taskStopTool';
import { waitForTool } from './waitForTool';

export { taskListTool, taskOutputTool, taskStopTool, waitForTool };
export * from './taskService';
export const taskTools: Tool[] = [taskListTool, taskOutputTool, taskStopTool, waitForTool];
