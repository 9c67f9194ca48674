// The built-in agents (SPEC §6.7, §9.2): the main agent `agent`, and the subagents `coder` (everything
// but delegation), `explore` (read-only) and `plan` (reads and to-dos; no shell, no writes).
import type { AgentProfile } from './agentFile';
import coderPrompt from './coder.md';
import explorePrompt from './explore.md';
import planPrompt from './plan.md';

export const MAIN_AGENT = 'agent';
export const DEFAULT_SUBAGENT = 'coder';
/** Who an agent may delegate to when its file does not say (the main agent also gets every custom agent). */
export const DEFAULT_SUBAGENTS = ['coder', 'explore', 'plan'];
/** Tools that start other agents: built-in subagents never get them, so delegation chains end. */
export const DELEGATION_TOOLS = ['Agent', 'AgentSwarm'];
/**
 * Tools only the main agent has, whatever a subagent's profile says: workflows never nest
 * (docs/workflows.md), and scheduled tasks belong to the session (docs/scheduled-tasks.md).
 */
export const MAIN_AGENT_ONLY_TOOLS = ['Workflow', 'CronCreate', 'CronDelete'];
const READ_ONLY_TOOLS = ['Read', 'ReadMediaFile', 'Grep', 'Glob', 'FetchURL', 'WebSearch'];

export const BUILTIN_AGENTS: readonly AgentProfile[] = [
  {
    name: MAIN_AGENT,
    description: 'The main coding agent.',
    override: false,
    tools: '*',
    disallowedTools: [],
    source: 'builtin',
  },
  {
    name: 'coder',
    description: 'General-purpose subagent: reads, edits, runs commands; for a self-contained coding task.',
    override: false,
    tools: '*',
    disallowedTools: DELEGATION_TOOLS,
    subagents: [],
    prompt: coderPrompt,
    source: 'builtin',
  },
  {
    name: 'explore',
    description: 'Read-only subagent: searches and reads the code base to answer a question.',
    override: false,
    tools: READ_ONLY_TOOLS,
    disallowedTools: [],
    subagents: [],
    prompt: explorePrompt,
    source: 'builtin',
  },
  {
    name: 'plan',
    description: 'Planning subagent: reads the code and designs a change; no shell, no writes.',
    override: false,
    tools: [...READ_ONLY_TOOLS, 'TodoList'],
    disallowedTools: [],
    subagents: [],
    prompt: planPrompt,
    source: 'builtin',
  },
];
