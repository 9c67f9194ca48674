// A plugin's manifest (docs/plugins.md "Manifest"): `jarvis.plugin.json` at the plugin root, else
// `.jarvis-plugin/plugin.json`, else `kimi.plugin.json` or `.kimi-plugin/plugin.json` (so Kimi Code
// plugins install as they are), else Claude Code's `.claude-plugin/plugin.json`; a manifest shadowed by
// a higher one is reported. This file only reads and checks the JSON: every
// field of the wrong shape becomes a diagnostic and is ignored, so one bad field never hides the rest.
// Only a missing manifest, unreadable JSON or a bad `name` makes the whole plugin fail to load.
import { readFileSync, statSync } from 'node:fs';
import { resolveInside } from './pluginPaths';
import { CLAUDE_MANIFEST, MANIFEST_FILES } from './shippedPlugins';

export { MANIFEST_FILES };
export const CLAUDE_MARKETPLACE = '.claude-plugin/marketplace.json';
export const MARKETPLACE_HINT =
  'list its plugins with `jarvis plugin marketplace <folder-or-url>` and install one of them';
export const PLUGIN_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;
const MAX_MANIFEST_BYTES = 1024 * 1024;

/** Fields shown in `/plugins` (SPEC §9.4 `interface`). */
export interface PluginInterface {
  displayName?: string;
  shortDescription?: string;
  longDescription?: string;
  developerName?: string;
  websiteURL?: string;
}

export interface PluginManifest {
  name: string;
  version?: string;
  description?: string;
  keywords: string[];
  author?: string;
  homepage?: string;
  license?: string;
  interface: PluginInterface;
  /** `./` paths as written; undefined = the field is absent (defaults apply). */
  skills?: string[];
  agents?: string[];
  commands?: string[];
  sessionStartSkill?: string;
  skillInstructions?: string;
  systemPrompt?: string;
  systemPromptPath?: string;
  /** Raw server entries by name, checked by the loader. */
  mcpServers: Record<string, unknown>;
  /** Raw hook entries, checked by the loader. */
  hooks: unknown[];
  /** Which manifest file was read, relative to the root. */
  file: string;
  /** `claude`: read from `.claude-plugin/plugin.json`, with Claude Code's defaults (claudePlugin.ts). */
  format: 'jarvis' | 'claude';
  /** Claude Code: `./` hook files (`{"hooks": {...}}`) and inline hook objects the manifest names. */
  claudeHooks: Array<string | Record<string, unknown>>;
  /** Claude Code: `./` files of MCP servers (`{"mcpServers": {...}}`) the manifest names. */
  mcpFiles: string[];
}

export type ManifestRead =
  { ok: true; manifest: PluginManifest; diagnostics: string[] } | { ok: false; error: string; diagnostics: string[] };

const UNSUPPORTED = ['tools', 'apps', 'inject', 'configFile'];
/** Claude Code manifest fields Jarvis has nothing for (docs/plugins.md "Claude Code plugins"). */
const CLAUDE_UNSUPPORTED: Record<string, string> = {
  outputStyles: 'output styles are not supported',
  lspServers: 'language servers from plugins are not supported',
  userConfig: 'install-time user settings are not supported',
  channels: 'channels are not supported',
};
const KNOWN = new Set([
  '$schema',
  'name',
  'version',
  'description',
  'keywords',
  'author',
  'homepage',
  'license',
  'interface',
  'skills',
  'agents',
  'sessionStart',
  'skillInstructions',
  'systemPrompt',
  'systemPromptPath',
  'mcpServers',
  'hooks',
  'commands',
]);
/** Fields Claude Code manifests carry that only describe the plugin. */
const CLAUDE_KNOWN = new Set(['repository']);
const INTERFACE_FIELDS = ['displayName', 'shortDescription', 'longDescription', 'developerName', 'websiteURL'] as const;

function isFileAt(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Finds, reads and checks the manifest of the plugin at `root` (a real path). Never throws. */
export function readManifest(root: string): ManifestRead {
  const diagnostics: string[] = [];
  const present = MANIFEST_FILES.filter((f) => isFileAt(`${root}/${f}`));
  if (!present.length) {
    const catalog = isFileAt(`${root}/${CLAUDE_MARKETPLACE}`)
      ? `; the folder holds a Claude Code marketplace (${CLAUDE_MARKETPLACE}), not a plugin: ${MARKETPLACE_HINT}`
      : '';
    return {
      ok: false,
      error: `no plugin manifest: expected ${MANIFEST_FILES.join(' or ')} in the plugin folder${catalog}`,
      diagnostics,
    };
  }
  const [file, ...shadowed] = present;
  for (const s of shadowed) diagnostics.push(`${s} is shadowed by ${file} and was not read`);
  const where = resolveInside(root, `./${file}`);
  if (!where.ok) return { ok: false, error: `manifest ${file} ${where.reason}`, diagnostics };
  let raw: unknown;
  try {
    const size = statSync(where.path).size;
    if (size > MAX_MANIFEST_BYTES)
      return { ok: false, error: `manifest ${file} is ${size} bytes; the limit is ${MAX_MANIFEST_BYTES}`, diagnostics };
    raw = JSON.parse(readFileSync(where.path, 'utf8').replace(/^\uFEFF/, ''));
  } catch (e) {
    return { ok: false, error: `manifest ${file} is not valid JSON (${(e as Error).message})`, diagnostics };
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return { ok: false, error: `manifest ${file} must be a JSON object`, diagnostics };
  const m = raw as Record<string, unknown>;
  if (typeof m.name !== 'string')
    return {
      ok: false,
      error: `manifest ${file}: "name" is required (the plugin id, matching [a-z0-9][a-z0-9_-]{0,63})`,
      diagnostics,
    };
  if (!PLUGIN_NAME.test(m.name)) {
    return {
      ok: false,
      error: `manifest ${file}: name "${m.name}" must match [a-z0-9][a-z0-9_-]{0,63} (lowercase letters, digits, "_" and "-", at most 64)`,
      diagnostics,
    };
  }
  const bad = (fieldName: string, expected: string) => diagnostics.push(`"${fieldName}" must be ${expected}; ignored`);
  const str = (key: string): string | undefined => {
    const v = m[key];
    if (v === undefined || v === null) return undefined;
    if (typeof v === 'string') return v;
    bad(key, 'a string');
    return undefined;
  };
  const paths = (key: string): string[] | undefined => {
    const v = m[key];
    if (v === undefined || v === null) return undefined;
    if (typeof v === 'string') return [v];
    if (Array.isArray(v) && v.every((p) => typeof p === 'string')) return v as string[];
    bad(key, 'a "./" path or an array of them');
    return [];
  };

  const format = file === CLAUDE_MANIFEST ? 'claude' : 'jarvis';
  for (const key of Object.keys(m)) {
    const claudeOnly = format === 'claude' ? CLAUDE_UNSUPPORTED[key] : undefined;
    if (claudeOnly) diagnostics.push(`"${key}": ${claudeOnly}; ignored`);
    else if (UNSUPPORTED.includes(key)) diagnostics.push(`"${key}" is not supported by Jarvis Code plugins; ignored`);
    else if (!KNOWN.has(key) && !(format === 'claude' && CLAUDE_KNOWN.has(key)))
      diagnostics.push(`unknown field "${key}"; ignored`);
  }

  let keywords: string[] = [];
  if (Array.isArray(m.keywords) && m.keywords.every((k) => typeof k === 'string')) keywords = m.keywords as string[];
  else if (m.keywords !== undefined) bad('keywords', 'an array of strings');

  let author: string | undefined;
  if (typeof m.author === 'string') author = m.author;
  else if (m.author && typeof m.author === 'object' && typeof (m.author as { name?: unknown }).name === 'string')
    author = (m.author as { name: string }).name;
  else if (m.author !== undefined) bad('author', 'a string or an object with "name"');

  const iface: PluginInterface = {};
  if (m.interface !== undefined) {
    if (typeof m.interface !== 'object' || m.interface === null || Array.isArray(m.interface))
      bad('interface', 'an object');
    else {
      const i = m.interface as Record<string, unknown>;
      for (const f of INTERFACE_FIELDS) {
        if (i[f] === undefined) continue;
        if (typeof i[f] === 'string') iface[f] = i[f] as string;
        else bad(`interface.${f}`, 'a string');
      }
    }
  }

  let sessionStartSkill: string | undefined;
  if (m.sessionStart !== undefined) {
    const s = m.sessionStart as { skill?: unknown } | null;
    if (typeof s !== 'object' || s === null || Array.isArray(s))
      bad('sessionStart', 'an object like {"skill": "<name>"}');
    else if (s.skill !== undefined && typeof s.skill !== 'string') bad('sessionStart.skill', 'a skill name');
    else sessionStartSkill = s.skill as string | undefined;
  }

  let mcpServers: Record<string, unknown> = {};
  const mcpFiles: string[] = [];
  const claudeHooks: Array<string | Record<string, unknown>> = [];
  // Claude Code also lets both fields name files (or, for hooks, hold the hooks.json object itself).
  const claudeRefs = (v: unknown) => (format === 'claude' && (typeof v === 'string' || Array.isArray(v)) ? v : null);
  const mcpRefs = claudeRefs(m.mcpServers);
  const hookRefs = claudeRefs(m.hooks);
  if (mcpRefs !== null) {
    for (const ref of [mcpRefs].flat()) {
      if (typeof ref === 'string') mcpFiles.push(ref);
      else bad('mcpServers', 'an object of servers, a "./" path to a .mcp.json file, or an array of such paths');
    }
  } else if (m.mcpServers !== undefined) {
    if (typeof m.mcpServers !== 'object' || m.mcpServers === null || Array.isArray(m.mcpServers))
      bad('mcpServers', 'an object of servers by name');
    else mcpServers = m.mcpServers as Record<string, unknown>;
  }
  let hooks: unknown[] = [];
  if (hookRefs !== null) {
    for (const ref of [hookRefs].flat()) {
      if (typeof ref === 'string' || (ref && typeof ref === 'object' && !Array.isArray(ref))) claudeHooks.push(ref);
      else bad('hooks', 'a "./" path to a hooks.json file, a hooks object, or an array of them');
    }
  } else if (format === 'claude' && m.hooks && typeof m.hooks === 'object') {
    claudeHooks.push(m.hooks as Record<string, unknown>);
  } else if (m.hooks !== undefined) {
    if (!Array.isArray(m.hooks)) bad('hooks', 'an array of {event, matcher, command, timeout} entries');
    else hooks = m.hooks;
  }

  return {
    ok: true,
    diagnostics,
    manifest: {
      name: m.name,
      version: str('version'),
      description: str('description'),
      keywords,
      author,
      homepage: str('homepage'),
      license: str('license'),
      interface: iface,
      skills: paths('skills'),
      agents: paths('agents'),
      commands: paths('commands'),
      sessionStartSkill,
      skillInstructions: str('skillInstructions'),
      systemPrompt: str('systemPrompt'),
      systemPromptPath: str('systemPromptPath'),
      mcpServers,
      hooks,
      file,
      format,
      claudeHooks,
      mcpFiles,
    },
  };
}
