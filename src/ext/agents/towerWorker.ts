// The `tower-worker` profile (SPEC §6.12, docs/tower.md): the agent Tower mode runs as a mission's
// worker or reviewer. Pinned to auto permission; it gets the shared Tower tools plus the file, shell
// and search tools, and no way to ask the user (it escalates to the coordinator with TowerSend).
// It is not in the agent catalog: only TowerSpawn starts it.
import type { AgentProfile } from './agentFile';
import prompt from './towerWorker.md';

export const TOWER_WORKER = 'tower-worker';
const FILE_SHELL_SEARCH_TOOLS = ['Read', 'ReadMediaFile', 'Write', 'Edit', 'Glob', 'Grep', 'Bash'];

export function towerWorkerProfile(towerTools: readonly string[]): AgentProfile {
  return {
    name: TOWER_WORKER,
    description: 'A Tower mission worker or reviewer in its own git worktree.',
    override: false,
    tools: [...FILE_SHELL_SEARCH_TOOLS, ...towerTools],
    disallowedTools: [],
    subagents: [],
    prompt,
    source: 'builtin',
  };
}
