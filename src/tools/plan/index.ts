// The plan tool group: EnterPlanMode, ExitPlanMode. Plan mode itself lives in the engine.
import type { Tool } from '../defineTool';
import { enterPlanModeTool } from './enterPlanModeTool';
import { exitPlanModeTool } from './exitPlanModeTool';

export { enterPlanModeTool, exitPlanModeTool };
export * from './planService';
export const planTools: Tool[] = [enterPlanModeTool, exitPlanModeTool];
