// What the Workflow tool needs from its session besides subagents and background tasks.
import { serviceKey } from '../defineTool';
import type { WorkflowLimits } from './workflowRun';

export interface WorkflowSettings {
  /** `$JARVIS_CODE_HOME`: user workflows live in its `workflows/` folder. */
  home: string;
  limits: WorkflowLimits;
}

export const WORKFLOW_SETTINGS = serviceKey<WorkflowSettings>()('workflowSettings');
