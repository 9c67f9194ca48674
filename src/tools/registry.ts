// The built-in tools, in the order they are offered to the model.
import type { Tool } from './defineTool';
import { fileTools } from './file';
import { goalTools } from './goal';
import { planTools } from './plan';
import { questionTools } from './question';
import { shellTools } from './shell';
import { taskTools } from './task';
import { todoTools } from './todo';

export function builtinTools(): Tool[] {
  return [...fileTools, ...shellTools, ...taskTools, ...planTools, ...todoTools, ...questionTools, ...goalTools];
}
