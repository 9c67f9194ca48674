// Finds the agents of a launch (SPEC §9.2). Priority, highest first: `--agent-file` > project
// (`.jarvis-code/agents`, `.agents/agents`) > `extra_agent_dirs` > user (`$JARVIS_CODE_HOME/agents`,
// `~/.agents/agents`) > plugins > built-in; other agents' folders (`.claude/agents`, `.opencode/agent(s)`,
// `~/.claude/agents`, opencode's global `~/.config/opencode/agent(s)`) rank last in their scope
// (docs/compatibility.md, `[compat]`), and a name already taken is recorded as shadowed. Folders are searched
// recursively for `.md` files. A file named like a built-in agent replaces it only with `override: true` (an
// `--agent-file` always does).
import { readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { DEFAULT_COMPAT, foreignAgentFolders, type CompatSettings, type ForeignTool } from '../../store/compat';
import { crossToolHome, expandTilde, projectRoot } from '../../store/paths';
import { canonicalToolName } from '../../types/toolNames';
import { parseAgentFile, type AgentProfile, type AgentSource, type NameSelection } from './agentFile';
import { BUILTIN_AGENTS, DEFAULT_SUBAGENTS, MAIN_AGENT } from './builtinAgents';
import { opencodeAgentNotes } from './opencodeAgent';

export interface AgentRoot {
  dir: string;
  source: AgentSource;
  /** Another agent's folder (docs/compatibility.md). */
  tool?: ForeignTool;
}

export function agentRoots(o: {
  home: string;
  cwd: string;
  extraDirs?: string[];
  env?: NodeJS.ProcessEnv;
  /** `[compat]`: whether Claude Code's and opencode's agent folders are read (default: yes). */
  compat?: CompatSettings;
}): AgentRoot[] {
  const env = o.env ?? process.env;
  const root = projectRoot(o.cwd);
  const foreign = foreignAgentFolders(root, o.compat ?? DEFAULT_COMPAT, env)
    .filter((f) => !f.off)
    .map((f) => ({ dir: f.dir, source: f.scope, tool: f.tool }));
  return [
    { dir: join(root, '.jarvis-code', 'agents'), source: 'project' },
    { dir: join(root, '.agents', 'agents'), source: 'project' },
    ...foreign.filter((f) => f.source === 'project'),
    ...(o.extraDirs ?? []).map((d) => ({ dir: resolve(o.cwd, expandTilde(d, env)), source: 'extra' as const })),
    { dir: join(o.home, 'agents'), source: 'user' },
    { dir: join(crossToolHome(env), 'agents'), source: 'user' },
    ...foreign.filter((f) => f.source === 'user'),
  ];
}

const MAX_DEPTH = 8;

export function markdownFiles(dir: string, depth = 0): string[] {
  if (depth > MAX_DEPTH) return [];
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
  } catch {
    return [];
  }
  const files: string[] = [];
  for (const e of entries) {
    const path = join(dir, e.name);
    // Dot-folders (.git, an editor's .obsidian) and node_modules hold no agents of the user's.
    if (e.isDirectory()) {
      if (!e.name.startsWith('.') && e.name !== 'node_modules') files.push(...markdownFiles(path, depth + 1));
    } else if (e.isFile() && /\.md$/i.test(e.name)) files.push(path);
  }
  return files;
}

export class AgentCatalog {
  constructor(
    private readonly byName: ReadonlyMap<string, AgentProfile>,
    readonly warnings: string[],
    /** The agent `--agent-file` named, if any. */
    readonly explicit?: AgentProfile,
    /** Agent files not used because a higher-ranked agent has their name (`jarvis doctor` lists them). */
    readonly shadowed: ReadonlyArray<{ agent: AgentProfile; by: AgentProfile }> = [],
  ) {}

  get all(): AgentProfile[] {
    return [...this.byName.values()];
  }

  get names(): string[] {
    return [...this.byName.keys()];
  }

  /**
   * The agent of this name; a plugin agent (`<plugin>:<agent>`) is also found by its own name when that name is no
   * other agent's and only one plugin has it.
   */
  get(name: string): AgentProfile | undefined {
    const exact = this.byName.get(name);
    if (exact || name.includes(':')) return exact;
    const bare = this.all.filter((a) => a.source === 'plugin' && a.name.slice(a.name.indexOf(':') + 1) === name);
    return bare.length === 1 ? bare[0] : undefined;
  }

  /** Agents `agent` may delegate to: its `subagents` list, else the built-in subagents (+ every custom agent for the main agent). */
  delegatesOf(agent: AgentProfile, isMain: boolean): string[] {
    const custom = this.all.filter((a) => a.source !== 'builtin' && !a.primaryOnly).map((a) => a.name);
    const allowed: NameSelection = agent.subagents ?? (isMain ? [...DEFAULT_SUBAGENTS, ...custom] : DEFAULT_SUBAGENTS);
    // `*` means every agent that can work delegated: not the built-in main agent itself.
    const names =
      allowed === '*'
        ? this.all
            .filter((a) => !(a.name === MAIN_AGENT && a.source === 'builtin') && !a.primaryOnly)
            .map((a) => a.name)
        : allowed;
    return [...new Set(names)].filter((n) => n !== agent.name && this.byName.has(n));
  }
}

export class AgentFileError extends Error {}

/** A catalog of the built-in agents only (a runtime opened without discovery, as in engine tests). */
export function builtinAgentCatalog(): AgentCatalog {
  return new AgentCatalog(new Map(BUILTIN_AGENTS.map((a) => [a.name, a])), []);
}

/** `pluginAgents`: agents of enabled plugins, below every folder and above the built-ins (SPEC §9.2). */
export async function loadAgentCatalog(
  roots: AgentRoot[],
  explicitFile?: string,
  pluginAgents: readonly AgentProfile[] = [],
): Promise<AgentCatalog> {
  const warnings: string[] = [];
  const byName = new Map<string, AgentProfile>();
  let explicit: AgentProfile | undefined;
  if (explicitFile) {
    const parsed = await parseAgentFile(explicitFile, 'explicit');
    if (!parsed.ok) throw new AgentFileError(`--agent-file ${parsed.message}`);
    explicit = parsed.agent;
    warnings.push(...parsed.warnings.map((w) => `agent file: ${w}`));
    byName.set(explicit.name, explicit);
  }
  const builtinNames = new Set(BUILTIN_AGENTS.map((a) => a.name));
  const shadowed: Array<{ agent: AgentProfile; by: AgentProfile }> = [];
  const add = (agent: AgentProfile, where: string) => {
    const winner = byName.get(agent.name);
    if (winner) {
      shadowed.push({ agent, by: winner });
      return;
    }
    if (builtinNames.has(agent.name) && !agent.override) {
      warnings.push(
        `agent file ${where} is named like the built-in agent "${agent.name}" and was ignored; add \`override: true\` to replace the built-in`,
      );
      return;
    }
    byName.set(agent.name, agent);
  };
  for (const root of roots) {
    for (const file of markdownFiles(root.dir)) {
      if (root.tool === 'opencode') {
        const { notes, disabled } = await opencodeAgentNotes(file);
        warnings.push(...notes);
        if (disabled) continue;
      }
      const parsed = await parseAgentFile(file, root.source, { opencode: root.tool === 'opencode' });
      if (!parsed.ok) warnings.push(`agent file skipped: ${parsed.message}`);
      else {
        warnings.push(...parsed.warnings.map((w) => `agent file: ${w}`));
        add(parsed.agent, `${relative(root.dir, file)} in ${root.dir}`);
      }
    }
  }
  for (const agent of pluginAgents) add(agent, agent.path ?? agent.name);
  for (const agent of BUILTIN_AGENTS) if (!byName.has(agent.name)) byName.set(agent.name, agent);
  return new AgentCatalog(byName, warnings, explicit, shadowed);
}

/** The tools an agent is offered, from the names available: `tools` first (exactly that list), then `disallowedTools`. */
export function selectTools(
  agent: Pick<AgentProfile, 'tools' | 'disallowedTools'>,
  available: readonly string[],
): { names: string[]; unknown: string[] } {
  const byLower = new Map(available.map((n) => [n.toLowerCase(), n]));
  // Profiles built in code (and older journals) may still hold a foreign name; files are mapped on parse.
  const lookup = (n: string) => byLower.get(n.toLowerCase()) ?? byLower.get(canonicalToolName(n).toLowerCase());
  const unknown: string[] = [];
  let chosen: string[];
  if (agent.tools === '*') {
    chosen = [...available];
  } else {
    chosen = [];
    for (const requested of agent.tools) {
      const name = lookup(requested);
      if (name) chosen.push(name);
      else unknown.push(requested);
    }
  }
  const removed = new Set(agent.disallowedTools.map((n) => canonicalToolName(n).toLowerCase()));
  return { names: [...new Set(chosen)].filter((n) => !removed.has(n.toLowerCase())), unknown };
}
