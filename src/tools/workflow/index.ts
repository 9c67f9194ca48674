// The Workflow tool group (docs/workflows.md): the tool, its catalog and the script runner.
import type { Tool } from '../defineTool';
import { workflowTool } from './workflowTool';

export { workflowTool };
export * from './workflowService';
export { WORKFLOW_LIMITS, type WorkflowLimits } from './workflowRun';
export const workflowTools: Tool[] = [workflowTool];
