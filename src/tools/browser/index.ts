// The browser profile (docs/browser.md): page tools for `--browser`, and the whole tool set of the
// `browser` agent (`--agent browser`).
import type { Tool } from '../defineTool';
import { askUserTool } from './askUserTool';
import { executeScriptTool } from './executeScriptTool';
import { getTabContentTool } from './getTabContentTool';
import { activateTabTool, closeTabTool, listTabsTool, openTabTool } from './tabTools';
import { createTaskTool, listTasksTool, updateTaskTool } from './taskListTools';
import { webFetchTool } from './webFetchTool';
import { webSearchEngineTool } from './webSearchTool';
import { opfsDeleteTool, opfsListTool, opfsReadTool, opfsWriteTool } from './workspaceTools';
import { makeBrowserSubagentTool } from './subAgentTool';

export * from './browserService';
export { Checklist, CHECKLIST_SERVICE } from './taskListTools';
export { WORKSPACE_SERVICE, type WorkspaceSettings } from './workspacePaths';
export { ENGINE_SERVICE } from './webSearchTool';
export {
  browserOptionsFromConfig,
  browserRuntime,
  type BrowserProfileChoice,
  type BrowserRuntimeOptions,
} from './browserRuntime';
export { modelSummarizer, SUMMARY_SERVICE, type PageSummarizer } from './pageSummary';
export { DEFAULT_BROWSER_SUBAGENT_TIMEOUT_MS } from './subAgentTool';

/** The tab, page-content and script tools: what `--browser` adds to the default agent. */
export const browserPageTools: Tool[] = [
  listTabsTool,
  openTabTool,
  closeTabTool,
  activateTabTool,
  getTabContentTool,
  executeScriptTool,
];

/** The `browser` agent's tools; `agent` stops a sub-agent after `subagentTimeoutMs`. */
export function browserProfileTools(subagentTimeoutMs?: number): Tool[] {
  return [
    webFetchTool,
    webSearchEngineTool,
    ...browserPageTools,
    opfsWriteTool,
    opfsReadTool,
    opfsListTool,
    opfsDeleteTool,
    askUserTool,
    makeBrowserSubagentTool(subagentTimeoutMs),
    createTaskTool,
    updateTaskTool,
    listTasksTool,
  ];
}
