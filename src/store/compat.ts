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
  /**
   * `.opencode/agent(s)`, `.opencode/command(s)`, `opencode.json(c)` and their counterparts in opencode's global
   * `~/.config/opencode/`.
   */
  opencode: boolean;
  /** Codex's `$CODEX_HOME/prompts` (`/prompts:<name>`), `$CODEX_HOME/skills` and the project's `.codex/skills`. */
  codex: boolean;
  /** Gemini CLI's `GEMINI.md` files and `.gemini/commands` (project and user). */
  gemini: boolean;
  /** Kimi Code's `.kimi/skills`, `~/.kimi/skills` and `~/.config/agents/skills`. */
  kimi: boolean;
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
  codex: true,
  gemini: true,
  kimi: true,
  claudeMd: true,
  nestedAgentsMd: true,
  mcpJson: true,
};

/** The `[compat]` table of config.toml as settings. */
export function compatSettingsOf(c: JarvisConfig['compat']): CompatSettings {
  return {
    claude: c.claude,
    opencode: c.opencode,
    codex: c.codex,
    gemini: c.gemini,
    kimi: c.kimi,
    claudeMd: c.claude_md,
    nestedAgentsMd: c.nested_agents_md,
    mcpJson: c.mcp_json,
  };
}

/** The `[compat]` key that switches a setting off, for messages ("off by [compat] claude = false"). */
export const COMPAT_KEYS: Record<keyof CompatSettings, string> = {
  claude: 'claude',
  opencode: 'opencode',
  codex: 'codex',
  gemini: 'gemini',
  kimi: 'kimi',
  claudeMd: 'claude_md',
  nestedAgentsMd: 'nested_agents_md',
  mcpJson: 'mcp_json',
};

export type ForeignTool = 'claude' | 'opencode' | 'codex' | 'gemini' | 'kimi';

export interface ForeignFolder {
  dir: string;
  scope: 'project' | 'user';
  tool: ForeignTool;
  /** Off by `[compat]`: not read (doctor still lists it). */
  off: boolean;
}

/** Codex's home: `$CODEX_HOME` when set to an absolute path, else `~/.codex`. */
export function codexHome(env: NodeJS.ProcessEnv): string {
  const set = env.CODEX_HOME?.trim();
  return set && isAbsolute(set) ? set : join(expandTilde('~', env), '.codex');
}

/** The XDG config folder: `$XDG_CONFIG_HOME` when absolute, else `~/.config`. */
function xdgConfigHome(env: NodeJS.ProcessEnv): string {
  const xdg = env.XDG_CONFIG_HOME?.trim();
  return xdg && isAbsolute(xdg) ? xdg : join(expandTilde('~', env), '.config');
}

/**
 * Other agents' skill folders, project first (they rank below Jarvis's own folders of the same scope): in each scope
 * Kimi Code's, then Claude Code's, then Codex's (Kimi Code's own order), and last the shared `~/.config/agents/skills`.
 * Codex's folders are searched recursively, as Codex searches them.
 */
export function foreignSkillFolders(root: string, compat: CompatSettings, env: NodeJS.ProcessEnv): ForeignFolder[] {
  const home = expandTilde('~', env);
  return [
    { dir: join(root, '.kimi', 'skills'), scope: 'project', tool: 'kimi', off: !compat.kimi },
    { dir: join(root, '.claude', 'skills'), scope: 'project', tool: 'claude', off: !compat.claude },
    { dir: join(root, '.codex', 'skills'), scope: 'project', tool: 'codex', off: !compat.codex },
    { dir: join(home, '.kimi', 'skills'), scope: 'user', tool: 'kimi', off: !compat.kimi },
    { dir: join(home, '.claude', 'skills'), scope: 'user', tool: 'claude', off: !compat.claude },
    { dir: join(codexHome(env), 'skills'), scope: 'user', tool: 'codex', off: !compat.codex },
    { dir: join(xdgConfigHome(env), 'agents', 'skills'), scope: 'user', tool: 'kimi', off: !compat.kimi },
  ];
}

/** opencode's global config folder: `$XDG_CONFIG_HOME/opencode`, else `~/.config/opencode` (a relative XDG: unset). */
export function opencodeConfigDir(env: NodeJS.ProcessEnv): string {
  return join(xdgConfigHome(env), 'opencode');
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

/** A command folder of another agent and the way its files are written (ext/commands/peerCommands.ts). */
export interface PeerCommandFolder extends ForeignFolder {
  /** `opencode` and `codex`: Markdown files; `gemini`: TOML files. */
  format: 'opencode' | 'codex' | 'gemini';
  /** What the name starts with (`prompts:` for Codex), and how folders join in it (`/` opencode, `:` Gemini). */
  prefix: string;
  join: '/' | ':';
  /** Codex reads only the folder's own files; the others read sub-folders too. */
  recursive: boolean;
}

/**
 * The command folders of opencode, Gemini CLI and Codex, project first: `.opencode/command(s)`, `.gemini/commands`,
 * then `~/.config/opencode/command(s)`, `~/.gemini/commands` (and Gemini's newer `~/.config/gemini-cli/commands`),
 * `$CODEX_HOME/prompts` (`/prompts:<name>`).
 */
export function peerCommandFolders(root: string, compat: CompatSettings, env: NodeJS.ProcessEnv): PeerCommandFolder[] {
  const home = expandTilde('~', env);
  const oc = opencodeConfigDir(env);
  const opencode = { tool: 'opencode' as const, format: 'opencode' as const, prefix: '', join: '/' as const };
  const gemini = { tool: 'gemini' as const, format: 'gemini' as const, prefix: '', join: ':' as const };
  const offOc = !compat.opencode;
  const offGem = !compat.gemini;
  return [
    { ...opencode, dir: join(root, '.opencode', 'command'), scope: 'project', off: offOc, recursive: true },
    { ...opencode, dir: join(root, '.opencode', 'commands'), scope: 'project', off: offOc, recursive: true },
    { ...gemini, dir: join(root, '.gemini', 'commands'), scope: 'project', off: offGem, recursive: true },
    { ...opencode, dir: join(oc, 'command'), scope: 'user', off: offOc, recursive: true },
    { ...opencode, dir: join(oc, 'commands'), scope: 'user', off: offOc, recursive: true },
    { ...gemini, dir: join(home, '.gemini', 'commands'), scope: 'user', off: offGem, recursive: true },
    { ...gemini, dir: join(xdgConfigHome(env), 'gemini-cli', 'commands'), scope: 'user', off: offGem, recursive: true },
    {
      tool: 'codex',
      format: 'codex',
      prefix: 'prompts:',
      join: ':',
      dir: join(codexHome(env), 'prompts'),
      scope: 'user',
      off: !compat.codex,
      recursive: false,
    },
  ];
}

/** Claude Code's project MCP file (`claude mcp add --scope project` writes it). */
export function claudeMcpPath(projectDir: string): string {
  return join(projectDir, '.mcp.json');
}
