// The memory tool group: Memory.
import type { Tool } from '../defineTool';
import { memoryTool } from './memoryTool';

export { memoryTool };
export * from './memoryService';
export const memoryTools: Tool[] = [memoryTool];
