// Claude Code plugins (docs/plugins.md "Claude Code plugins"): a `.claude-plugin/plugin.json` manifest
// whose plugin also has default folders — `skills/`, `commands/`, `agents/` are read whether or not the
// manifest names other paths (Claude Code's paths add to the defaults) — plus `hooks/hooks.json` and a
// `.mcp.json` at the root. This file turns those into what the Jarvis loader reads: manifest paths, hooks of
// Claude Code's dialect (ext/hooks/claudeHookConfig.ts), and MCP server entries with `${CLAUDE_PLUGIN_ROOT}`
// resolved. What has no Jarvis counterpart (another hook type, an event we do not have) is a diagnostic naming it.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { claudeHookSpecs } from '../hooks/claudeHookConfig';
import type { HookSpec } from '../hooks/hookRunner';
import type { PluginManifest } from './manifest';
import { resolveInside } from './pluginPaths';

const MAX_FILE_BYTES = 1024 * 1024;
export const CLAUDE_ROOT_VARIABLE = '${CLAUDE_PLUGIN_ROOT}';

/** The manifest with Claude Code's default folders and files added where they exist. */
export function withClaudeDefaults(root: string, manifest: PluginManifest): PluginManifest {
  const exists = (rel: string, kind: 'dir' | 'file') => {
    const where = resolveInside(root, rel);
    return where.ok && where.kind === kind;
  };
  const plus = (declared: string[] | undefined, folder: string) => {
    const list = [...(declared ?? [])];
    if (exists(folder, 'dir') && !list.some((p) => p.replace(/\/+$/, '') === folder)) list.unshift(folder);
    return list;
  };
  const hooks = [...manifest.claudeHooks];
  const hooksFile = './hooks/hooks.json';
  if (exists(hooksFile, 'file') && !hooks.includes(hooksFile)) hooks.unshift(hooksFile);
  const mcpFiles = [...manifest.mcpFiles];
  if (exists('./.mcp.json', 'file') && !mcpFiles.includes('./.mcp.json')) mcpFiles.unshift('./.mcp.json');
  return {
    ...manifest,
    skills: plus(manifest.skills, './skills'),
    commands: plus(manifest.commands, './commands'),
    agents: plus(manifest.agents, './agents'),
    claudeHooks: hooks,
    mcpFiles,
  };
}

/** Reads a `./` JSON file inside the plugin; a problem is a diagnostic and undefined. */
function readJsonInside(root: string, rel: string, label: string, diag: (t: string) => void): unknown {
  const where = resolveInside(root, rel);
  if (!where.ok || where.kind !== 'file') {
    diag(`${label}: ${where.ok ? `"${rel}" is not a file` : where.reason}; skipped`);
    return undefined;
  }
  try {
    const text = readFileSync(where.path, 'utf8');
    if (Buffer.byteLength(text) > MAX_FILE_BYTES) {
      diag(`${label}: ${rel} is larger than ${MAX_FILE_BYTES} bytes; skipped`);
      return undefined;
    }
    return JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (e) {
    diag(`${label}: ${rel} is not valid JSON (${(e as Error).message}); skipped`);
    return undefined;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * The plugin's hooks (`hooks/hooks.json`, the files or objects the manifest names), in Claude Code's dialect: they
 * run in the project folder with Claude Code's payload (docs/hooks.md, "Claude Code hooks"), `CLAUDE_PLUGIN_ROOT`
 * naming the plugin's files.
 */
export function claudePluginHooks(
  root: string,
  manifest: PluginManifest,
  source: { origin: string; env: Record<string, string> },
  diag: (t: string) => void,
): HookSpec[] {
  const specs: HookSpec[] = [];
  for (const ref of manifest.claudeHooks) {
    const label = typeof ref === 'string' ? `hooks ${ref.replace(/^\.\//, '')}` : 'hooks';
    const doc = typeof ref === 'string' ? readJsonInside(root, ref, label, diag) : ref;
    if (doc === undefined) continue;
    const hooks = isObject(doc) ? doc.hooks : undefined;
    specs.push(...claudeHookSpecs(hooks, { ...source, label }, diag));
  }
  return specs;
}

/** `${CLAUDE_PLUGIN_ROOT}` replaced by the plugin root in a string, or in every string of an array or object. */
export function resolvePluginRoot(value: unknown, root: string): unknown {
  if (typeof value === 'string') return value.split(CLAUDE_ROOT_VARIABLE).join(root);
  if (Array.isArray(value)) return value.map((v) => resolvePluginRoot(v, root));
  if (isObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolvePluginRoot(v, root)]));
  }
  return value;
}

/**
 * MCP server entries from the plugin's `.mcp.json` files, `${CLAUDE_PLUGIN_ROOT}` resolved; a command
 * under the root becomes a `./` path, which the loader checks like any plugin command.
 */
export function claudeMcpServers(
  root: string,
  manifest: PluginManifest,
  diag: (t: string) => void,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const rel of manifest.mcpFiles) {
    const label = `mcpServers ${rel.replace(/^\.\//, '')}`;
    const doc = readJsonInside(root, rel, label, diag);
    if (doc === undefined) continue;
    // `.mcp.json` wraps servers in "mcpServers"; a file of servers by name is read as well.
    const servers = isObject(doc) && isObject(doc.mcpServers) ? doc.mcpServers : isObject(doc) ? doc : undefined;
    if (!servers) {
      diag(`${label}: expected {"mcpServers": {...}}; skipped`);
      continue;
    }
    for (const [name, raw] of Object.entries(servers)) {
      if (name in out || name in manifest.mcpServers) {
        diag(`${label}: the MCP server "${name}" is defined twice; the first definition is kept`);
        continue;
      }
      const entry = resolvePluginRoot(raw, root);
      if (isObject(entry) && typeof entry.command === 'string' && entry.command.startsWith(`${root}/`)) {
        entry.command = `./${relative(root, entry.command)}`;
      }
      out[name] = entry;
    }
  }
  return out;
}
