// The built-in tools, in the order they are offered to the model.
import type { Tool } from './defineTool';
import { fileTools } from './file';
import { shellTools } from './shell';
import { taskTools } from './task';

export function builtinTools(): Tool[] {
  return [...fileTools, ...shellTools, ...taskTools];
}
