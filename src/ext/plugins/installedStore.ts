// `$JARVIS_CODE_HOME/plugins/installed.json` (docs/plugins.md): one record per installed plugin with
// where it came from, whether it is enabled and which of its MCP servers are switched off. Every change
// is a read-modify-write under a file lock with an atomic rename, so two jarvis processes changing
// plugins at once both land and neither leaves a half-written file. A broken file is never overwritten:
// reading reports it, and changing anything stops with a message that says how to fix it.
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { withFileLock } from '../../store/fileLock';

export const PLUGIN_TIERS = ['official', 'curated', 'third-party'] as const;
export type PluginTier = (typeof PLUGIN_TIERS)[number];
export type PluginSourceKind = 'local' | 'zip' | 'github';

export interface InstalledRecord {
  id: string;
  /** What the install was given: a folder path or a URL. */
  source: string;
  sourceKind: PluginSourceKind;
  /** GitHub installs: the tag, branch or commit that was downloaded. */
  ref?: string;
  version?: string;
  tier?: PluginTier;
  enabled: boolean;
  installedAt: string;
  updatedAt: string;
  /** MCP servers the user switched off (`false`); absent or true = on. */
  mcpServers: Record<string, boolean>;
}

export class PluginError extends Error {}

export function pluginsDir(home: string): string {
  return join(home, 'plugins');
}

export function installedPath(home: string): string {
  return join(pluginsDir(home), 'installed.json');
}

export function managedDir(home: string, id: string): string {
  return join(pluginsDir(home), 'managed', id);
}

export interface InstalledRead {
  records: InstalledRecord[];
  /** Set when the file exists but cannot be used; the records are then empty. */
  problem?: string;
}

function asRecord(raw: unknown): InstalledRecord | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const r = raw as Record<string, unknown>;
  if (typeof r.id !== 'string' || typeof r.source !== 'string') return undefined;
  const kind = r.sourceKind === 'zip' || r.sourceKind === 'github' ? r.sourceKind : 'local';
  const toggles: Record<string, boolean> = {};
  if (typeof r.mcpServers === 'object' && r.mcpServers !== null) {
    for (const [k, v] of Object.entries(r.mcpServers)) if (typeof v === 'boolean') toggles[k] = v;
  }
  const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
  return {
    id: r.id,
    source: r.source,
    sourceKind: kind,
    ref: text(r.ref),
    version: text(r.version),
    tier: PLUGIN_TIERS.includes(r.tier as PluginTier) ? (r.tier as PluginTier) : undefined,
    enabled: r.enabled !== false,
    installedAt: text(r.installedAt) ?? '',
    updatedAt: text(r.updatedAt) ?? '',
    mcpServers: toggles,
  };
}

/** Reads installed.json; a missing file is no plugins, a broken one is a problem. Never throws. */
export function readInstalled(home: string): InstalledRead {
  const file = installedPath(home);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { records: [] };
    return {
      records: [],
      problem: `${file} cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
    };
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    return {
      records: [],
      problem: `${file} is not valid JSON (${(e as Error).message}); fix it or delete it and install the plugins again`,
    };
  }
  const list = (doc as { plugins?: unknown } | null)?.plugins;
  if (!Array.isArray(list))
    return { records: [], problem: `${file} has no "plugins" list; fix it or delete it and install the plugins again` };
  const records: InstalledRecord[] = [];
  for (const raw of list) {
    const r = asRecord(raw);
    if (r && !records.some((x) => x.id === r.id)) records.push(r);
  }
  return { records };
}

/** Writes through a temporary file and a rename: readers see the old or the new file, never a mix. */
function writeAtomically(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  try {
    writeFileSync(tmp, text);
    renameSync(tmp, file);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw new PluginError(
      `could not write ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); nothing was changed`,
    );
  }
}

/**
 * Changes the records under the lock: `change` gets the current list (read inside the lock) and returns
 * the new one. Throws PluginError when the file is broken (it is left as it is).
 */
export async function updateInstalled<T>(
  home: string,
  change: (records: InstalledRecord[]) => { records: InstalledRecord[]; result: T },
): Promise<T> {
  const file = installedPath(home);
  return withFileLock(file, () => {
    const current = readInstalled(home);
    if (current.problem) throw new PluginError(`${current.problem}. It was not changed.`);
    const { records, result } = change(current.records.map((r) => ({ ...r, mcpServers: { ...r.mcpServers } })));
    writeAtomically(file, `${JSON.stringify({ version: 1, plugins: records }, null, 2)}\n`);
    return result;
  });
}

/** True when installed.json exists (the start path loads nothing of plugins otherwise). */
export function hasInstalledPlugins(home: string): boolean {
  return existsSync(installedPath(home));
}
