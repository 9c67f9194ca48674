// The user-question tool: AskUserQuestion.
import type { Tool } from '../defineTool';
import { askUserQuestionTool } from './askUserQuestionTool';

export { askUserQuestionTool };
export * from './questionService';
export const questionTools: Tool[] = [askUserQuestionTool];
