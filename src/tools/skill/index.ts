// The skill tool group: Skill. Its service (skillService.ts) is implemented by the engine.
import type { Tool } from '../defineTool';
import { skillTool } from './skillTool';

export { skillTool };
export * from './skillService';
export const skillTools: Tool[] = [skillTool];
