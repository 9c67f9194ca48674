// Reads what an installed plugin contributes (docs/plugins.md): skills, agents, Markdown commands,
// system prompt text, MCP servers and hooks. Reading never runs anything of the plugin. Every path
// must stay inside the plugin root after symlinks are resolved; a path that does not is a diagnostic
// and only that part is skipped. A broken manifest yields a plugin with `error` set and nothing else.
import { lstatSync, readFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { hookSchema } from '../../store/configSchema';
import { parseServerEntry, type McpServerConfig, type McpTimeoutDefaults } from '../../store/mcpConfig';
import { parseAgentFile, type AgentProfile } from '../agents/agentFile';
import type { HookSpec } from '../hooks/hookRunner';
import { parseSkillFile, type Skill } from '../skills/skillFile';
import { claudeMcpServers, claudePluginHooks, resolvePluginRoot, withClaudeDefaults } from './claudePlugin';
import { readManifest, type PluginManifest } from './manifest';
import { loadPluginCommands, type PluginCommand } from './pluginCommands';
import { containedFiles, realRoot, resolveInside } from './pluginPaths';

/** Each of `systemPrompt` and the `systemPromptPath` file is limited to this many UTF-8 bytes. */
export const PROMPT_FIELD_MAX_BYTES = 32 * 1024;

/** One MCP server a plugin declares, with the name it runs under (`plugin-<id>_<server>`). */
export interface PluginMcpServer {
  /** The name in the manifest. */
  name: string;
  config: McpServerConfig;
}

export interface LoadedPlugin {
  id: string;
  /** The real path of the plugin root (the managed copy). */
  root: string;
  manifest?: PluginManifest;
  /** Set when the plugin cannot load at all (no or broken manifest); nothing else is then filled. */
  error?: string;
  /** Everything skipped or ignored, one line each. */
  diagnostics: string[];
  /**
   * What the session must say because it depends on the session's own environment (a server whose `${VAR}` is not
   * set is not started): shown at start-up, not only by `jarvis plugin info`.
   */
  sessionWarnings: string[];
  skills: Skill[];
  agents: AgentProfile[];
  commands: PluginCommand[];
  /** `systemPrompt` then the `systemPromptPath` file, each within its limit; empty when none. */
  promptSections: string[];
  mcpServers: PluginMcpServer[];
  hooks: HookSpec[];
  /** The skill `sessionStart.skill` names (one of this plugin's skills). */
  sessionStartSkill?: Skill;
}

export interface PluginLoadOptions {
  /** `$JARVIS_CODE_HOME`, given to hooks. */
  home: string;
  /** `[mcp]` startup and tool timeouts for the plugin's servers. */
  mcpDefaults: McpTimeoutDefaults;
}

/** The name a plugin server runs under; its tools are `mcp__plugin-<id>_<server>__<tool>`. */
export function pluginServerName(pluginId: string, server: string): string {
  return `plugin-${pluginId}_${server}`;
}

function emptyPlugin(id: string, root: string, diagnostics: string[], error?: string): LoadedPlugin {
  return {
    id,
    root,
    error,
    diagnostics,
    sessionWarnings: [],
    skills: [],
    agents: [],
    commands: [],
    promptSections: [],
    mcpServers: [],
    hooks: [],
  };
}

/** Loads the plugin at `root`. `id` is the installed id (the manifest name is checked against it). Never throws. */
export async function loadPlugin(root: string, id: string, opts: PluginLoadOptions): Promise<LoadedPlugin> {
  let real: string;
  try {
    real = realRoot(root);
  } catch (e) {
    return emptyPlugin(
      id,
      root,
      [],
      `the plugin folder ${root} cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); reinstall the plugin`,
    );
  }
  const read = readManifest(real);
  if (!read.ok) return emptyPlugin(id, real, read.diagnostics, read.error);
  const manifest =
    read.manifest.format === 'claude' ? claudeManifest(real, read.manifest, read.diagnostics) : read.manifest;
  if (manifest.name !== id)
    return emptyPlugin(
      id,
      real,
      read.diagnostics,
      `the manifest now names the plugin "${manifest.name}", but it is installed as "${id}"; reinstall it`,
    );
  const plugin: LoadedPlugin = { ...emptyPlugin(id, real, read.diagnostics), manifest };
  const diag = (text: string) => plugin.diagnostics.push(text);

  plugin.skills = await loadSkills(real, manifest, diag);
  plugin.agents = await loadAgents(real, manifest, diag);
  plugin.commands = await loadPluginCommands(real, id, manifest.commands, diag);
  plugin.promptSections = promptSections(real, manifest, diag);
  plugin.mcpServers = mcpServers(real, id, manifest, opts.home, opts.mcpDefaults, diag, (t) =>
    plugin.sessionWarnings.push(t),
  );
  plugin.hooks = hooks(real, id, manifest, opts.home, diag);
  if (manifest.format === 'claude') {
    const env = { JARVIS_CODE_HOME: opts.home, JARVIS_PLUGIN_ROOT: real, CLAUDE_PLUGIN_ROOT: real };
    plugin.hooks.push(...claudePluginHooks(real, manifest, { origin: `plugin ${id}`, env }, diag));
  }
  if (manifest.sessionStartSkill !== undefined) {
    plugin.sessionStartSkill = plugin.skills.find(
      (s) => s.name.toLowerCase() === manifest.sessionStartSkill!.toLowerCase(),
    );
    if (!plugin.sessionStartSkill)
      diag(
        `sessionStart.skill "${manifest.sessionStartSkill}" is not one of this plugin's skills (${plugin.skills.map((s) => s.name).join(', ') || 'it has none'}); ignored`,
      );
  }
  return plugin;
}

async function loadSkills(root: string, manifest: PluginManifest, diag: (t: string) => void): Promise<Skill[]> {
  const files: Array<{ path: string; form: 'dir' | 'flat' }> = [];
  const addRoot = (dir: string) => {
    const single = skillFileIn(root, dir, diag);
    if (single) {
      files.push({ path: single, form: 'dir' });
      return;
    }
    // A folder of skills: `<name>/SKILL.md` folders, then flat `<name>.md` files.
    const found = containedFiles(root, dir, /\.md$/i, diag);
    for (const f of found) if (/^[^/]+\/SKILL\.md$/i.test(f.rel)) files.push({ path: f.path, form: 'dir' });
    for (const f of found) if (!f.rel.includes('/') && f.rel !== 'SKILL.md') files.push({ path: f.path, form: 'flat' });
  };
  if (manifest.skills === undefined) {
    // No `skills` field: a SKILL.md at the root is the plugin's one skill.
    const single = skillFileIn(root, root, diag);
    if (single) files.push({ path: single, form: 'dir' });
  } else {
    for (const value of manifest.skills) {
      const where = resolveInside(root, value);
      if (!where.ok) diag(`skills: ${where.reason}; skipped`);
      else if (where.kind === 'dir') addRoot(where.path);
      else if (/\.md$/i.test(where.path))
        files.push({ path: where.path, form: basename(where.path) === 'SKILL.md' ? 'dir' : 'flat' });
      else diag(`skills: "${value}" is neither a folder nor a .md file; skipped`);
    }
  }
  const skills: Skill[] = [];
  const seen = new Set<string>();
  for (const f of files) {
    const parsed = await parseSkillFile(f.path, f.form, 'plugin');
    if (!parsed.ok) {
      diag(`skill skipped: ${parsed.message}`);
      continue;
    }
    const key = parsed.skill.name.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    const instructions = manifest.skillInstructions?.trim() || undefined;
    skills.push({ ...parsed.skill, plugin: { id: manifest.name, instructions, root } });
  }
  return skills;
}

async function loadAgents(root: string, manifest: PluginManifest, diag: (t: string) => void): Promise<AgentProfile[]> {
  const files: string[] = [];
  if (manifest.agents === undefined) {
    // No `agents` field: an `agents/` folder at the root is used when there is one.
    const where = resolveInside(root, './agents');
    if (where.ok && where.kind === 'dir')
      files.push(...containedFiles(root, where.path, /\.md$/i, diag).map((f) => f.path));
    else if (!where.ok && !/does not exist/.test(where.reason)) diag(`agents: ${where.reason}; skipped`);
  } else {
    // Folders of agent files, or the files themselves (`"agents": ["./agents/a.md", …]`, as Claude Code plugins list them).
    for (const value of manifest.agents) {
      const where = resolveInside(root, value);
      if (!where.ok) diag(`agents: ${where.reason}; skipped`);
      else if (where.kind === 'dir') files.push(...containedFiles(root, where.path, /\.md$/i, diag).map((f) => f.path));
      else if (/\.md$/i.test(where.path)) files.push(where.path);
      else diag(`agents: "${value}" is neither a folder nor a .md file; skipped`);
    }
  }
  const agents: AgentProfile[] = [];
  const seen = new Set<string>();
  for (const file of files) {
    if (seen.has(file)) continue;
    seen.add(file);
    const parsed = await parseAgentFile(file, 'plugin');
    if (!parsed.ok) {
      diag(`agent file skipped: ${parsed.message}`);
      continue;
    }
    for (const w of parsed.warnings) diag(`agent file: ${w}`);
    // Every plugin agent is `<plugin>:<agent>`, as in Claude Code: a plugin's `explore` is never the built-in one.
    agents.push({ ...parsed.agent, name: `${manifest.name}:${parsed.agent.name}` });
  }
  return agents;
}

function promptSections(root: string, manifest: PluginManifest, diag: (t: string) => void): string[] {
  const sections: string[] = [];
  const within = (text: string, label: string): boolean => {
    const bytes = Buffer.byteLength(text, 'utf8');
    if (bytes <= PROMPT_FIELD_MAX_BYTES) return true;
    diag(`${label} is ${bytes} bytes, over the ${PROMPT_FIELD_MAX_BYTES}-byte limit; ignored`);
    return false;
  };
  if (manifest.systemPrompt?.trim() && within(manifest.systemPrompt, 'systemPrompt'))
    sections.push(manifest.systemPrompt.trim());
  if (manifest.systemPromptPath !== undefined) {
    const where = resolveInside(root, manifest.systemPromptPath);
    if (!where.ok) diag(`systemPromptPath: ${where.reason}; ignored`);
    else if (where.kind !== 'file') diag(`systemPromptPath: "${manifest.systemPromptPath}" is not a file; ignored`);
    else {
      const data = readFileSync(where.path);
      const text = new TextDecoder('utf-8', { fatal: false }).decode(data);
      if (data.length > PROMPT_FIELD_MAX_BYTES)
        diag(
          `systemPromptPath ${manifest.systemPromptPath} is ${data.length} bytes, over the ${PROMPT_FIELD_MAX_BYTES}-byte limit; ignored`,
        );
      else if (text.trim()) sections.push(text.trim());
    }
  }
  return sections;
}

function mcpServers(
  root: string,
  id: string,
  manifest: PluginManifest,
  home: string,
  defaults: McpTimeoutDefaults,
  diag: (t: string) => void,
  warnSession: (t: string) => void,
): PluginMcpServer[] {
  const out: PluginMcpServer[] = [];
  const manifestFile = join(root, manifest.file);
  for (const [name, raw] of Object.entries(manifest.mcpServers)) {
    const skip = (why: string) => diag(`MCP server "${name}": ${why}; server ignored`);
    if (!/^[A-Za-z0-9_.-]+$/.test(name)) {
      skip('the name may contain only letters, digits, "_", "-" and "."');
      continue;
    }
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      skip('must be an object with "command" or "url"');
      continue;
    }
    const entry = { ...(raw as Record<string, unknown>) };
    if (typeof entry.command === 'string') {
      const command = entry.command;
      if (command.startsWith('./')) {
        const where = resolveInside(root, command);
        if (!where.ok || where.kind !== 'file') {
          skip(`command ${where.ok ? `"${command}" is not a file` : where.reason}`);
          continue;
        }
        entry.command = where.path;
      } else if (command.includes('/') || command.includes('\\')) {
        skip(`command "${command}" must be a program on PATH or a "./" path inside the plugin folder`);
        continue;
      }
      if (entry.cwd !== undefined) {
        const where =
          typeof entry.cwd === 'string'
            ? resolveInside(root, entry.cwd)
            : { ok: false as const, reason: 'must be a string' };
        if (!where.ok || where.kind !== 'dir') {
          skip(`cwd ${where.ok ? `"${String(entry.cwd)}" is not a folder` : where.reason}`);
          continue;
        }
        entry.cwd = where.path;
      } else {
        entry.cwd = root;
      }
      const given = typeof entry.env === 'object' && entry.env ? (entry.env as Record<string, unknown>) : {};
      const claude = manifest.format === 'claude' ? { CLAUDE_PLUGIN_ROOT: root } : {};
      entry.env = { ...given, JARVIS_CODE_HOME: home, JARVIS_PLUGIN_ROOT: root, ...claude };
    }
    const parsed = parseServerEntry(pluginServerName(id, name), entry, { scope: 'user', file: manifestFile, defaults });
    if ('error' in parsed) {
      const text = parsed.error.replace(/^.*?MCP server "[^"]*": /, `MCP server "${name}": `);
      diag(text);
      if (parsed.unsetVariable) warnSession(`${text.replace(/ \(server skipped\)$/, '')}; the server is not started`);
      continue;
    }
    out.push({ name, config: { ...parsed.server, scope: 'plugin' } });
  }
  return out;
}

function hooks(
  root: string,
  id: string,
  manifest: PluginManifest,
  home: string,
  diag: (t: string) => void,
): HookSpec[] {
  const out: HookSpec[] = [];
  manifest.hooks.forEach((raw, i) => {
    const parsed = hookSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue.path.length ? issue.path.join('.') : '(entry)';
      diag(`hooks[${i}]: ${where}: ${issue.message}; hook ignored`);
      return;
    }
    const env: Record<string, string> = { JARVIS_CODE_HOME: home, JARVIS_PLUGIN_ROOT: root };
    out.push({ ...parsed.data, cwd: root, env, origin: `plugin ${id}` });
  });
  return out;
}

/** A Claude Code manifest with its default folders, its hooks files as rules and its `.mcp.json` servers. */
function claudeManifest(root: string, read: PluginManifest, diagnostics: string[]): PluginManifest {
  const diag = (t: string) => diagnostics.push(t);
  const manifest = withClaudeDefaults(root, read);
  const inline = resolvePluginRoot(manifest.mcpServers, root) as Record<string, unknown>;
  return {
    ...manifest,
    mcpServers: { ...inline, ...claudeMcpServers(root, manifest, diag) },
  };
}

/** The real path of `dir/SKILL.md` when it is a file inside the root; a symlink out of it is reported. */
function skillFileIn(root: string, dir: string, diag: (t: string) => void): string | undefined {
  const path = join(dir, 'SKILL.md');
  try {
    lstatSync(path);
  } catch {
    return undefined;
  }
  const where = resolveInside(root, relative(root, path) || 'SKILL.md', false);
  if (!where.ok) {
    diag(`skills: ${where.reason}; skipped`);
    return undefined;
  }
  return where.kind === 'file' ? where.path : undefined;
}
