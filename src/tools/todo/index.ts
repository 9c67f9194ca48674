// The state tool group: TodoList.
import type { Tool } from '../defineTool';
import { todoListTool } from './todoListTool';

export { todoListTool };
export * from './todoService';
export const todoTools: Tool[] = [todoListTool];
