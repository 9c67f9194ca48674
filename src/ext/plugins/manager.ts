// The one API for installed plugins (docs/plugins.md), shared by `jarvis plugin …`, `/plugins` and the
// session start-up: install (copy into `plugins/managed/<id>/`, record in installed.json), enable,
// disable, remove (the record only), per-plugin MCP server switches, and loading what enabled plugins
// contribute. It keeps no state between calls: every call reads installed.json and the manifests again,
// so `reload()` is simply a fresh read, and two processes never disagree for longer than one call.
import { randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { McpTimeoutDefaults } from '../../store/mcpConfig';
import { displayPath } from '../../store/paths';
import {
  managedDir,
  PluginError,
  pluginsDir,
  readInstalled,
  updateInstalled,
  type InstalledRecord,
  type PluginSourceKind,
  type PluginTier,
} from './installedStore';
import { readManifest, type PluginInterface } from './manifest';
import { commandShellLines } from './pluginCommands';
import { loadPlugin, type LoadedPlugin } from './pluginLoader';
import { classifySource, fetchSource, pluginNetwork, type PluginNetwork } from './pluginSources';
import { realRoot } from './pluginPaths';

export { PluginError } from './installedStore';

/** What `/plugins` and `jarvis plugin` show for one installed plugin. */
export interface PluginView {
  id: string;
  version?: string;
  displayName: string;
  description?: string;
  enabled: boolean;
  source: string;
  sourceKind: PluginSourceKind;
  ref?: string;
  tier?: PluginTier;
  /** The managed copy the plugin runs from. */
  root: string;
  /** The manifest file read (relative to the root). */
  manifestFile?: string;
  interface: PluginInterface;
  keywords: string[];
  author?: string;
  homepage?: string;
  license?: string;
  /** Set when the plugin cannot load at all; it then contributes nothing. */
  error?: string;
  /** Skipped paths, ignored fields, oversized prompts…, one line each. */
  diagnostics: string[];
  /** Declared servers by manifest name; `runsAs` is the server name its tools carry (`mcp__<runsAs>__…`). */
  mcpServers: Array<{ name: string; enabled: boolean; runsAs: string; target: string }>;
  skills: string[];
  agents: string[];
  /** `runs`: the `` !`cmd` `` lines the command runs before sending (docs/plugins.md), in order. */
  commands: Array<{ name: string; description: string; runs: string[] }>;
  hooks: number;
  installedAt: string;
  updatedAt: string;
}

export interface PluginManagerOptions {
  /** `$JARVIS_CODE_HOME`. */
  home: string;
  /** Relative local paths are read from here (default: the process's folder). */
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** GitHub base URLs and the private-network policy; default: from `env`, private addresses refused. */
  network?: Partial<PluginNetwork>;
  /** `[mcp]` timeouts applied to plugin servers. */
  mcpDefaults?: McpTimeoutDefaults;
}

export interface InstallOptions {
  /** The marketplace tier it was installed from (third-party when unknown). */
  tier?: PluginTier;
  signal?: AbortSignal;
  /**
   * Checked under the installed.json lock against the record there: true keeps what is installed (the
   * copy is not touched). Start-up uses it so that two processes starting at once install a bundled
   * plugin once, and never swap the copy under the other's running servers.
   */
  keepIf?(current: InstalledRecord): boolean;
}

export interface InstallResult {
  plugin: PluginView;
  /** An installed plugin of the same id was replaced (its enabled state and MCP switches are kept). */
  replaced: boolean;
  previousVersion?: string;
}

/** A plugin as a session uses it: loaded, with the user's MCP switches. */
export interface EnabledPlugin {
  record: InstalledRecord;
  loaded: LoadedPlugin;
}

const DEFAULT_MCP_TIMEOUTS: McpTimeoutDefaults = { startupTimeoutMs: 30_000, toolTimeoutMs: 60_000 };

export class PluginManager {
  readonly home: string;
  private readonly cwd: string;
  private readonly env: NodeJS.ProcessEnv;
  private readonly network: PluginNetwork;
  private readonly mcpDefaults: McpTimeoutDefaults;

  constructor(opts: PluginManagerOptions) {
    this.home = opts.home;
    this.cwd = opts.cwd ?? process.cwd();
    this.env = opts.env ?? process.env;
    this.network = { ...pluginNetwork(this.env, false), ...opts.network };
    this.mcpDefaults = opts.mcpDefaults ?? DEFAULT_MCP_TIMEOUTS;
  }

  /** installed.json cannot be used (broken JSON…): the message to show, else undefined. */
  problem(): string | undefined {
    return readInstalled(this.home).problem;
  }

  /** Every installed plugin, enabled or not, in install order. */
  async list(): Promise<PluginView[]> {
    const { records } = readInstalled(this.home);
    return Promise.all(records.map(async (r) => this.view(r, await this.load(r))));
  }

  /** One plugin's details and diagnostics. Throws PluginError for an unknown id. */
  async info(id: string): Promise<PluginView> {
    const record = this.record(id);
    return this.view(record, await this.load(record));
  }

  /** Reads installed.json and every manifest again (what changed on disk since is picked up). */
  reload(): Promise<PluginView[]> {
    return this.list();
  }

  /**
   * Installs from a local folder or .zip, a zip URL or a GitHub URL. Nothing of the plugin runs: the
   * files are fetched, the manifest is checked, and the copy replaces `plugins/managed/<id>/`.
   */
  async install(input: string, opts: InstallOptions = {}): Promise<InstallResult> {
    const source = classifySource(input, this.cwd, this.network, this.env);
    const managedRoot = join(pluginsDir(this.home), 'managed');
    mkdirSync(managedRoot, { recursive: true });
    const staging = join(managedRoot, `.staging-${process.pid}-${randomBytes(4).toString('hex')}`);
    mkdirSync(staging);
    try {
      const fetched = await fetchSource(source, staging, this.network, opts.signal);
      const manifest = readManifest(realRoot(staging));
      if (!manifest.ok) throw new PluginError(`${input} cannot be installed: ${manifest.error}`);
      const id = manifest.manifest.name;
      const now = new Date().toISOString();
      const outcome = await updateInstalled(this.home, (records) => {
        const previous = records.find((r) => r.id === id);
        if (previous && opts.keepIf?.(previous)) return { records, result: { record: previous, previous } };
        const target = managedDir(this.home, id);
        // The old copy moves aside first, so a failure leaves either the old or the new copy, never neither.
        const aside = `${target}.old-${randomBytes(4).toString('hex')}`;
        let movedAside = false;
        try {
          renameSync(target, aside);
          movedAside = true;
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code !== 'ENOENT')
            throw new PluginError(`could not replace ${displayPath(target)} (${(e as NodeJS.ErrnoException).code})`);
        }
        try {
          renameSync(staging, target);
        } catch (e) {
          if (movedAside) renameSync(aside, target);
          throw new PluginError(
            `could not move the plugin into ${displayPath(target)} (${(e as NodeJS.ErrnoException).code})`,
          );
        }
        if (movedAside) rmSync(aside, { recursive: true, force: true });
        const record: InstalledRecord = {
          id,
          source: source.kind === 'local' ? source.path : input.trim(),
          sourceKind: fetched.kind,
          ref: fetched.ref,
          version: manifest.manifest.version,
          tier: opts.tier ?? previous?.tier,
          enabled: previous?.enabled ?? true,
          installedAt: previous?.installedAt || now,
          updatedAt: now,
          mcpServers: previous?.mcpServers ?? {},
        };
        const next = previous ? records.map((r) => (r.id === id ? record : r)) : [...records, record];
        return { records: next, result: { record, previous } };
      });
      const plugin = this.view(outcome.record, await this.load(outcome.record));
      return { plugin, replaced: !!outcome.previous, previousVersion: outcome.previous?.version };
    } finally {
      rmSync(staging, { recursive: true, force: true });
    }
  }

  enable(id: string): Promise<PluginView> {
    return this.change(id, (r) => ({ ...r, enabled: true }));
  }

  disable(id: string): Promise<PluginView> {
    return this.change(id, (r) => ({ ...r, enabled: false }));
  }

  /** Deletes the install record only; the managed copy stays on disk (docs/plugins.md). */
  async remove(id: string): Promise<void> {
    await updateInstalled(this.home, (records) => {
      if (!records.some((r) => r.id === id)) throw this.unknown(id, records);
      return { records: records.filter((r) => r.id !== id), result: undefined };
    });
  }

  /** Switches one of the plugin's MCP servers on or off (it starts or stops with the next session). */
  async setMcpServerEnabled(id: string, server: string, on: boolean): Promise<PluginView> {
    const loaded = await this.load(this.record(id));
    const declared = loaded.manifest ? Object.keys(loaded.manifest.mcpServers) : [];
    if (!declared.includes(server)) {
      throw new PluginError(
        `the plugin "${id}" declares no MCP server "${server}"${declared.length ? ` (its servers: ${declared.join(', ')})` : ' (it declares none)'}`,
      );
    }
    return this.change(id, (r) => ({ ...r, mcpServers: { ...r.mcpServers, [server]: on } }));
  }

  /** The enabled plugins, loaded, for a session. A broken plugin comes with its `error` and contributes nothing. */
  async loadEnabled(): Promise<{ plugins: EnabledPlugin[]; problem?: string }> {
    const { records, problem } = readInstalled(this.home);
    const plugins = await Promise.all(
      records.filter((r) => r.enabled).map(async (record) => ({ record, loaded: await this.load(record) })),
    );
    return { plugins, problem };
  }

  private async change(id: string, edit: (r: InstalledRecord) => InstalledRecord): Promise<PluginView> {
    const record = await updateInstalled(this.home, (records) => {
      const found = records.find((r) => r.id === id);
      if (!found) throw this.unknown(id, records);
      const changed = { ...edit(found), updatedAt: new Date().toISOString() };
      return { records: records.map((r) => (r.id === id ? changed : r)), result: changed };
    });
    return this.view(record, await this.load(record));
  }

  private record(id: string): InstalledRecord {
    const { records, problem } = readInstalled(this.home);
    if (problem) throw new PluginError(problem);
    const found = records.find((r) => r.id === id);
    if (!found) throw this.unknown(id, records);
    return found;
  }

  private unknown(id: string, records: InstalledRecord[]): PluginError {
    const ids = records.map((r) => r.id);
    return new PluginError(
      `no plugin "${id}" is installed${ids.length ? ` (installed: ${ids.join(', ')})` : ''}. See the list with: jarvis plugin list`,
    );
  }

  private load(record: InstalledRecord): Promise<LoadedPlugin> {
    return loadPlugin(managedDir(this.home, record.id), record.id, { home: this.home, mcpDefaults: this.mcpDefaults });
  }

  private view(record: InstalledRecord, loaded: LoadedPlugin): PluginView {
    const m = loaded.manifest;
    const declared = m ? Object.keys(m.mcpServers) : [];
    const servers = declared.map((name) => {
      const ok = loaded.mcpServers.find((s) => s.name === name);
      const target = ok
        ? ok.config.transport === 'stdio'
          ? [ok.config.command, ...ok.config.args].join(' ')
          : (ok.config.url ?? '')
        : 'ignored (see diagnostics)';
      return { name, enabled: record.mcpServers[name] !== false, runsAs: ok?.config.name ?? '', target };
    });
    return {
      id: record.id,
      version: m?.version ?? record.version,
      displayName: m?.interface.displayName ?? m?.name ?? record.id,
      description: m?.interface.shortDescription ?? m?.description,
      enabled: record.enabled,
      source: record.source,
      sourceKind: record.sourceKind,
      ref: record.ref,
      tier: record.tier,
      root: loaded.root,
      manifestFile: m?.file,
      interface: m?.interface ?? {},
      keywords: m?.keywords ?? [],
      author: m?.author,
      homepage: m?.homepage,
      license: m?.license,
      error: loaded.error,
      diagnostics: loaded.diagnostics,
      mcpServers: servers,
      skills: loaded.skills.map((s) => s.name),
      agents: loaded.agents.map((a) => a.name),
      commands: loaded.commands.map((c) => ({
        name: c.name,
        description: c.description,
        runs: commandShellLines(c.body),
      })),
      hooks: loaded.hooks.length,
      installedAt: record.installedAt,
      updatedAt: record.updatedAt,
    };
  }
}
