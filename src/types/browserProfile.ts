// Names the browser profile's agents (ext/agents/browserAgents.ts) and its `agent` tool
// (tools/browser/subAgentTool.ts) both need (docs/browser.md).

export const BROWSER_AGENT = 'browser';
/** The browser profile's delegation tool (lower-case, unlike the coding agent's `Agent`). */
export const BROWSER_DELEGATION_TOOL = 'agent';
export const BROWSER_SUBAGENT_TYPES = ['researcher', 'page_operator', 'general'] as const;
export type BrowserSubagentType = (typeof BROWSER_SUBAGENT_TYPES)[number];
export const DEFAULT_BROWSER_SUBAGENT: BrowserSubagentType = 'general';
