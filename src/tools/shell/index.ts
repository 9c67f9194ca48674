// The shell tool group.
import type { Tool } from '../defineTool';
import { bashTool } from './bashTool';

export { bashTool };
export const shellTools: Tool[] = [bashTool];
