// The goal tool group. Goal mode itself (the driver that keeps turns going) lives in the engine.
import type { Tool } from '../defineTool';
import { createGoalTool, getGoalTool, setGoalBudgetTool, updateGoalTool } from './goalTools';

export { createGoalTool, getGoalTool, setGoalBudgetTool, updateGoalTool };
export * from './goalService';
export const goalTools: Tool[] = [createGoalTool, getGoalTool, setGoalBudgetTool, updateGoalTool];
