// The browser profile's agents (docs/browser.md): the main agent `browser` (`jarvis --agent browser`),
// whose session has the browser/workspace profile's tools instead of the coding tools, and the three sub-agent types its `agent`
// tool starts — `researcher`, `page_operator`, `general` — each with its own tools and prompt. They live
// in their own catalog: the coding agent never delegates to them, and they never delegate further.
import { AgentCatalog } from './agentCatalog';
import type { AgentProfile } from './agentFile';
import browserPrompt from './browser.md';
import subagentPrompt from './browserSubagent.md';
import {
  BROWSER_AGENT,
  BROWSER_DELEGATION_TOOL,
  BROWSER_SUBAGENT_TYPES,
  type BrowserSubagentType,
} from '../../types/browserProfile';

const TASK_TOOLS = ['create_task', 'update_task', 'list_tasks'];
const WORKSPACE_TOOLS = ['opfs_read', 'opfs_write', 'opfs_list', 'opfs_delete'];

const ROLES: Record<
  BrowserSubagentType,
  { description: string; tools: AgentProfile['tools']; disallowed: string[]; text: string }
> = {
  researcher: {
    description: 'Finds and reads information on the web (search, fetch, read tabs); does not run page scripts.',
    tools: [
      'web_fetch',
      'web_search',
      'get_tab_content',
      'open_tab',
      'list_tabs',
      'close_tab',
      ...WORKSPACE_TOOLS,
      ...TASK_TOOLS,
    ],
    disallowed: [],
    text: 'You research: search the web, read pages (web_fetch for static pages, a tab with get_tab_content when the page needs a browser), cross-check sources and report facts with their URLs. You cannot run scripts in pages.',
  },
  page_operator: {
    description: 'Operates web pages: reads them, runs scripts in them, fills and clicks; no web search.',
    tools: [
      'get_tab_content',
      'list_tabs',
      'open_tab',
      'close_tab',
      'activate_tab',
      'execute_script',
      'web_fetch',
      ...WORKSPACE_TOOLS,
      ...TASK_TOOLS,
    ],
    disallowed: [],
    text: 'You operate web pages. Read the page with get_tab_content, act with execute_script (`target: "page"`) using the selectors from its `<!-- selector -->` comments, then read it again to verify. Work in the tab you were given, or open your own: other sub-agents may be using other tabs at the same time.',
  },
  general: {
    description: 'Any other delegated task: every tool except asking the user and starting further sub-agents.',
    tools: '*',
    disallowed: ['ask_user', BROWSER_DELEGATION_TOOL],
    text: 'You handle a self-contained part of a larger job with every tool you are offered.',
  },
};

export const BROWSER_PROFILE: AgentProfile = {
  name: BROWSER_AGENT,
  description: 'The browser agent: web pages, a real browser, a workspace folder and sub-agents.',
  override: false,
  // The session's built-in tools are the browser profile's own; MCP and plugin tools reach it too.
  tools: '*',
  disallowedTools: [],
  subagents: [...BROWSER_SUBAGENT_TYPES],
  prompt: browserPrompt,
  source: 'builtin',
};

export const BROWSER_SUBAGENTS: readonly AgentProfile[] = BROWSER_SUBAGENT_TYPES.map((type) => {
  const role = ROLES[type];
  return {
    name: type,
    description: role.description,
    override: false,
    tools: role.tools,
    disallowedTools: role.disallowed,
    subagents: [],
    prompt: subagentPrompt.replaceAll('${role}', type).replace('${role_text}', role.text),
    source: 'builtin',
  };
});

/** The agents of a browser-profile session: `browser` and the sub-agent types it may start. */
export function browserAgentCatalog(): AgentCatalog {
  return new AgentCatalog(new Map([BROWSER_PROFILE, ...BROWSER_SUBAGENTS].map((a) => [a.name, a])), []);
}
