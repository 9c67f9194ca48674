// Where other coding agents keep things that Jarvis also reads (docs/compatibility.md "Locations"), and the
// `[compat]` switches that turn each of them off (docs/configuration.md). Jarvis's own folders always rank above
// these: on a name clash ours win and the foreign entry is reported as shadowed (`jarvis doctor`).
import { isAbsolute, join } from 'node:path';
import type { JarvisConfig } from './configSchema';
import { expandTilde } from './paths';

export interface CompatSettings {
  /**
   * `.claude/skills`, `.claude/agents`, `.claude/commands`, `.claude/settings*.json` hooks and their `~/.claude/`
   * counterparts, and `~/.claude.json`'s MCP servers.
   */
  claude: boolean;
  /** `.opencode/agent`, `.opencode/agents`, and opencode's global `~/.config/opencode/agent(s)`. */
  opencode: boolean;
  /** `CLAUDE.md` and `CLAUDE.local.md` beside each AGENTS.md. */
  claudeMd: boolean;
  /** AGENTS.md (and CLAUDE.md) in the folders between the repository root and the working folder. */
  nestedAgentsMd: boolean;
  /** The project `.mcp.json` (Claude Code's project scope). */
  mcpJson: boolean;
}

export const DEFAULT_COMPAT: CompatSettings = {
  claude: true,
  opencode: true,
  claudeMd: true,
  nestedAgentsMd: true,
  mcpJson: true,
};

/** The `[compat]` table of config.toml as settings. */
export function compatSettingsOf(c: JarvisConfig['compat']): CompatSettings {
  return {
    claude: c.claude,
    opencode: c.opencode,
    claudeMd: c.claude_md,
    nestedAgentsMd: c.nested_agents_md,
    mcpJson: c.mcp_json,
  };
}

/** The `[compat]` key that switches a setting off, for messages ("off by [compat] claude = false"). */
export const COMPAT_KEYS: Record<keyof CompatSettings, string> = {
  claude: 'claude',
  opencode: 'opencode',
  claudeMd: 'claude_md',
  nestedAgentsMd: 'nested_agents_md',
  mcpJson: 'mcp_json',
};

export type ForeignTool = 'claude' | 'opencode';

export interface ForeignFolder {
  dir: string;
  scope: 'project' | 'user';
  tool: ForeignTool;
  /** Off by `[compat]`: not read (doctor still lists it). */
  off: boolean;
}

/** Claude Code's skill folders, project first (they rank below Jarvis's own folders of the same scope). */
export function foreignSkillFolders(root: string, compat: CompatSettings, env: NodeJS.ProcessEnv): ForeignFolder[] {
  return [
    { dir: join(root, '.claude', 'skills'), scope: 'project', tool: 'claude', off: !compat.claude },
    { dir: join(expandTilde('~', env), '.claude', 'skills'), scope: 'user', tool: 'claude', off: !compat.claude },
  ];
}

/** opencode's global config folder: `$XDG_CONFIG_HOME/opencode`, else `~/.config/opencode` (a relative XDG: unset). */
export function opencodeConfigDir(env: NodeJS.ProcessEnv): string {
  const xdg = env.XDG_CONFIG_HOME?.trim();
  return join(xdg && isAbsolute(xdg) ? xdg : join(expandTilde('~', env), '.config'), 'opencode');
}

/**
 * Claude Code's and opencode's agent folders (Claude's `agents`, opencode's `agent` and `agents`), project first;
 * in the user scope `~/.claude/agents` ranks above opencode's global folders.
 */
export function foreignAgentFolders(root: string, compat: CompatSettings, env: NodeJS.ProcessEnv): ForeignFolder[] {
  const opencodeUser = opencodeConfigDir(env);
  return [
    { dir: join(root, '.claude', 'agents'), scope: 'project', tool: 'claude', off: !compat.claude },
    { dir: join(root, '.opencode', 'agent'), scope: 'project', tool: 'opencode', off: !compat.opencode },
    { dir: join(root, '.opencode', 'agents'), scope: 'project', tool: 'opencode', off: !compat.opencode },
    { dir: join(expandTilde('~', env), '.claude', 'agents'), scope: 'user', tool: 'claude', off: !compat.claude },
    { dir: join(opencodeUser, 'agent'), scope: 'user', tool: 'opencode', off: !compat.opencode },
    { dir: join(opencodeUser, 'agents'), scope: 'user', tool: 'opencode', off: !compat.opencode },
  ];
}

/** Claude Code's command folders, project first: `.claude/commands` at the project root and `~/.claude/commands`. */
export function claudeCommandFolders(root: string, compat: CompatSettings, env: NodeJS.ProcessEnv): ForeignFolder[] {
  return [
    { dir: join(root, '.claude', 'commands'), scope: 'project', tool: 'claude', off: !compat.claude },
    { dir: join(expandTilde('~', env), '.claude', 'commands'), scope: 'user', tool: 'claude', off: !compat.claude },
  ];
}

/** Claude Code's project MCP file (`claude mcp add --scope project` writes it). */
export function claudeMcpPath(projectDir: string): string {
  return join(projectDir, '.mcp.json');
}
