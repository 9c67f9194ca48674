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

export * from './browserService';
export { Checklist, CHECKLIST_SERVICE } from './taskListTools';
export { WORKSPACE_SERVICE, type WorkspaceSettings } from './workspacePaths';
export { ENGINE_SERVICE } from './webSearchTool';
export { browserOptionsFromConfig, browserRuntime, type BrowserRuntimeOptions } from './browserRuntime';

/** The tab, page-content and script tools: what `--browser` adds to the default agent. */
export const browserPageTools: Tool[] = [listTabsTool, openTabTool, closeTabTool, activateTabTool, getTabContentTool, executeScriptTool];

/** The `browser` agent's tools. */
export const browserProfileTools: Tool[] = [
  webFetchTool,
  webSearchEngineTool,
  ...browserPageTools,
  opfsWriteTool,
  opfsReadTool,
  opfsListTool,
  opfsDeleteTool,
  askUserTool,
  createTaskTool,
  updateTaskTool,
  listTasksTool,
];
