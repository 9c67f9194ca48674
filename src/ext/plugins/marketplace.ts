// Plugin marketplaces (docs/plugins.md "Marketplaces"): a JSON catalog of installable plugins, read from
// a local path, a file:// URL or http(s). The default catalog is the file this package ships
// (plugins/marketplace.json), replaced by JARVIS_CODE_PLUGIN_MARKETPLACE_URL when that is set. A broken
// entry is reported and skipped; the others are still listed. Only the default catalog may call an
// entry "official": a catalog the user points at ad hoc cannot make its plugins skip the confirmation
// that third-party installs ask for.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import semverLt from 'semver/functions/lt';
import semverValid from 'semver/functions/valid';
import { expandTilde } from '../../store/paths';
import { guardedFetch } from '../../platform/web/guardedFetch';
import { packageRoot } from '../../store/packageRoot';
import { fromClaudeMarketplace, isClaudeMarketplace } from './claudeMarketplace';
import { PLUGIN_TIERS, type PluginTier } from './installedStore';

export const MARKETPLACE_ENV = 'JARVIS_CODE_PLUGIN_MARKETPLACE_URL';
export const MARKETPLACE_VERSIONS = ['1', '2'] as const;
/** A catalog bigger than this is refused (a real one is a few KiB). */
export const MAX_MARKETPLACE_BYTES = 2 * 1024 * 1024;
export const MARKETPLACE_TIMEOUT_MS = 15_000;
/** The plugin id rule of the manifest's `name` (docs/plugins.md). */
const PLUGIN_ID = /^[a-z0-9][a-z0-9_-]{0,63}$/;

export interface MarketplaceEntry {
  id: string;
  /** Where to install from: an absolute path or a URL (relative sources are resolved against the catalog). */
  source: string;
  displayName: string;
  tier: PluginTier;
  version?: string;
  description?: string;
  keywords?: string[];
  homepage?: string;
}

export interface Marketplace {
  /** The file path or URL the catalog was read from. */
  location: string;
  /** The default catalog (the shipped file or JARVIS_CODE_PLUGIN_MARKETPLACE_URL): its tiers are believed. */
  trusted: boolean;
  entries: MarketplaceEntry[];
  /** One line per problem, naming the entry (`plugins[2] "x": …`); the entry is skipped or the field dropped. */
  diagnostics: string[];
}

/** The catalog could not be read at all (unreachable, not JSON, not a catalog). */
export class MarketplaceError extends Error {}

export interface MarketplaceLoadOptions {
  env: NodeJS.ProcessEnv;
  /** Relative paths given by the user resolve against this folder. */
  cwd: string;
  /** `[web] allow_private_network`: lets an http(s) catalog live on loopback or a private network. */
  allowPrivateNetwork?: boolean;
  signal?: AbortSignal;
}

/** The marketplace file this package ships, beside dist/ in an installed copy (package.json "files"). */
export function packagedMarketplacePath(): string {
  return join(packageRoot(), 'plugins', 'marketplace.json');
}

/** The default catalog: JARVIS_CODE_PLUGIN_MARKETPLACE_URL, else the shipped file. */
export function defaultMarketplaceSource(env: NodeJS.ProcessEnv): string {
  return env[MARKETPLACE_ENV]?.trim() || packagedMarketplacePath();
}

const isUrl = (s: string) => /^[a-z][a-z0-9+.-]*:\/\//i.test(s);

/**
 * Reads a catalog. `source` omitted: the default catalog. Throws MarketplaceError when nothing can be
 * listed; problems with single entries are in `diagnostics`.
 */
export async function loadMarketplace(source: string | undefined, opts: MarketplaceLoadOptions): Promise<Marketplace> {
  const trusted = source === undefined;
  const given = source ?? defaultMarketplaceSource(opts.env);
  const { text, location } =
    isUrl(given) && !given.toLowerCase().startsWith('file:')
      ? await fetchCatalog(given, opts)
      : readCatalogFile(given, opts);
  return parseMarketplace(text, location, { trusted });
}

async function fetchCatalog(url: string, opts: MarketplaceLoadOptions): Promise<{ text: string; location: string }> {
  let response;
  try {
    response = await guardedFetch(url, {
      maxBytes: MAX_MARKETPLACE_BYTES,
      timeoutMs: MARKETPLACE_TIMEOUT_MS,
      allowPrivateNetwork: opts.allowPrivateNetwork,
      signal: opts.signal,
      headers: { accept: 'application/json' },
    });
  } catch (e) {
    throw new MarketplaceError(`Could not fetch the plugin marketplace ${url}: ${(e as Error).message}`);
  }
  if (response.status !== 200)
    throw new MarketplaceError(
      `Could not fetch the plugin marketplace ${url}: the server answered ${response.status} ${response.statusText}.`.replace(
        / \./,
        '.',
      ),
    );
  if (response.truncated)
    throw new MarketplaceError(
      `The plugin marketplace ${url} is larger than ${MAX_MARKETPLACE_BYTES / 1024 / 1024} MiB; a catalog is a small JSON file.`,
    );
  // Relative sources resolve against where the catalog really is (after redirects).
  return { text: response.body.toString('utf8'), location: response.url };
}

function readCatalogFile(given: string, opts: MarketplaceLoadOptions): { text: string; location: string } {
  let path = given.toLowerCase().startsWith('file:')
    ? fileURLToPathOrThrow(given)
    : resolve(opts.cwd, expandTilde(given, opts.env));
  try {
    if (statSync(path).isDirectory()) {
      // A folder: its marketplace.json, else Claude Code's .claude-plugin/marketplace.json.
      const claude = join(path, '.claude-plugin', 'marketplace.json');
      const own = join(path, 'marketplace.json');
      path = !existsSync(own) && existsSync(claude) ? claude : own;
    }
    const stat = statSync(path);
    if (stat.size > MAX_MARKETPLACE_BYTES)
      throw new MarketplaceError(
        `The plugin marketplace ${path} is larger than ${MAX_MARKETPLACE_BYTES / 1024 / 1024} MiB; a catalog is a small JSON file.`,
      );
    return { text: readFileSync(path, 'utf8'), location: path };
  } catch (e) {
    if (e instanceof MarketplaceError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : (e as Error).message;
    throw new MarketplaceError(
      `Could not read the plugin marketplace ${path}: ${why}. Give a marketplace JSON file, a folder holding marketplace.json, or an http(s) URL.`,
    );
  }
}

function fileURLToPathOrThrow(url: string): string {
  try {
    return fileURLToPath(url);
  } catch (e) {
    throw new MarketplaceError(`"${url}" is not a usable file URL: ${(e as Error).message}`);
  }
}

/** Resolves an entry's source against the catalog's own location (a path or a URL). */
export function resolveEntrySource(source: string, location: string): string {
  if (isUrl(source)) return source.toLowerCase().startsWith('file:') ? fileURLToPath(source) : source;
  if (isAbsolute(source)) return source;
  if (isUrl(location)) return new URL(source, location).href;
  return resolve(dirname(location), source);
}

const str = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';

/** Parses catalog text read from `location`. Throws MarketplaceError when it is not a catalog at all. */
export function parseMarketplace(text: string, location: string, opts: { trusted: boolean }): Marketplace {
  let doc: unknown;
  try {
    doc = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (e) {
    throw new MarketplaceError(`The plugin marketplace ${location} is not valid JSON: ${(e as Error).message}`);
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc))
    throw new MarketplaceError(
      `The plugin marketplace ${location} must be a JSON object with "version" and "plugins".`,
    );
  const diagnostics: string[] = [];
  const claudeFormat = isClaudeMarketplace(doc as Record<string, unknown>);
  if (claudeFormat) {
    const claude = fromClaudeMarketplace(doc as Record<string, unknown>, location);
    doc = claude.doc;
    diagnostics.push(...claude.diagnostics);
  }
  const { version, plugins } = doc as { version?: unknown; plugins?: unknown };
  const versionText = typeof version === 'number' ? String(version) : version;
  if (versionText === undefined) diagnostics.push(`"version" is missing; read as version "1".`);
  else if (!(MARKETPLACE_VERSIONS as readonly unknown[]).includes(versionText)) {
    throw new MarketplaceError(
      `The plugin marketplace ${location} has version ${JSON.stringify(version)}; this Jarvis reads versions "1" and "2".`,
    );
  }
  if (!Array.isArray(plugins))
    throw new MarketplaceError(
      `The plugin marketplace ${location} needs a "plugins" array${plugins === undefined ? '' : ` (found ${typeof plugins})`}.`,
    );
  const entries: MarketplaceEntry[] = [];
  const seen = new Set<string>();
  plugins.forEach((raw, i) => {
    if (raw === null && claudeFormat) return; // a Claude Code entry skipped above, already reported
    const entry = parseEntry(raw, `plugins[${i}]`, location, opts.trusted, diagnostics);
    if (!entry) return;
    if (seen.has(entry.id)) {
      diagnostics.push(`plugins[${i}] "${entry.id}": the id is listed twice; the first entry is kept.`);
      return;
    }
    seen.add(entry.id);
    entries.push(entry);
  });
  return { location, trusted: opts.trusted, entries, diagnostics };
}

function parseEntry(
  raw: unknown,
  at: string,
  location: string,
  trusted: boolean,
  diagnostics: string[],
): MarketplaceEntry | undefined {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    diagnostics.push(`${at}: an entry must be an object with "id" and "source"; skipped.`);
    return undefined;
  }
  const e = raw as Record<string, unknown>;
  if (!str(e.id)) {
    diagnostics.push(`${at}: "id" is missing or not a string; skipped.`);
    return undefined;
  }
  const id = e.id.trim();
  const name = `${at} "${id}"`;
  if (!PLUGIN_ID.test(id)) {
    diagnostics.push(
      `${name}: the id must match [a-z0-9][a-z0-9_-]{0,63} (lower-case letters, digits, "-" and "_"); skipped.`,
    );
    return undefined;
  }
  if (!str(e.source)) {
    diagnostics.push(
      `${name}: "source" is missing or not a string (a local path, a zip URL or a GitHub URL); skipped.`,
    );
    return undefined;
  }
  let source: string;
  try {
    source = resolveEntrySource(e.source.trim(), location);
  } catch (err) {
    diagnostics.push(
      `${name}: "source" ${JSON.stringify(e.source)} cannot be resolved: ${(err as Error).message}; skipped.`,
    );
    return undefined;
  }
  const entry: MarketplaceEntry = { id, source, displayName: id, tier: 'third-party' };
  const optionalText = (field: 'displayName' | 'description' | 'homepage') => {
    const v = e[field];
    if (v === undefined) return;
    if (str(v)) entry[field] = v.trim();
    else diagnostics.push(`${name}: "${field}" must be a non-empty string; ignored.`);
  };
  optionalText('displayName');
  optionalText('description');
  optionalText('homepage');
  if (e.tier !== undefined) {
    if (!(PLUGIN_TIERS as readonly unknown[]).includes(e.tier))
      diagnostics.push(
        `${name}: "tier" must be one of ${PLUGIN_TIERS.join(', ')} (found ${JSON.stringify(e.tier)}); listed as third-party.`,
      );
    else if (e.tier === 'official' && !trusted)
      diagnostics.push(`${name}: only the default marketplace can list official plugins; listed as third-party.`);
    else entry.tier = e.tier as PluginTier;
  }
  if (e.version !== undefined) {
    if (typeof e.version === 'string' && semverValid(e.version.trim())) entry.version = semverValid(e.version.trim())!;
    else
      diagnostics.push(
        `${name}: "version" ${JSON.stringify(e.version)} is not a semantic version (like 1.2.3); ignored, so no update notice for it.`,
      );
  }
  if (e.keywords !== undefined) {
    if (Array.isArray(e.keywords) && e.keywords.every(str))
      entry.keywords = (e.keywords as string[]).map((k) => k.trim());
    else diagnostics.push(`${name}: "keywords" must be an array of strings; ignored.`);
  }
  return entry;
}

/** The entry's version when it is newer than `installed` (semver order); undefined when not, or when either is no version. */
export function newerVersion(installed: string | undefined, entry: MarketplaceEntry): string | undefined {
  const current = installed ? semverValid(installed.trim()) : null;
  return current && entry.version && semverLt(current, entry.version) ? entry.version : undefined;
}

export interface PluginUpdate {
  id: string;
  displayName: string;
  installed: string;
  available: string;
}

/**
 * Installed plugins that the default catalog lists as official with a newer version. Official plugins
 * never update by themselves (docs/plugins.md): the user is told and installs the update from /plugins.
 */
export function officialUpdates(
  installed: readonly { id: string; version?: string }[],
  marketplace: Marketplace,
): PluginUpdate[] {
  if (!marketplace.trusted) return [];
  const byId = new Map(marketplace.entries.map((e) => [e.id, e]));
  const updates: PluginUpdate[] = [];
  for (const plugin of installed) {
    const entry = byId.get(plugin.id);
    const available = entry?.tier === 'official' ? newerVersion(plugin.version, entry) : undefined;
    if (entry && available)
      updates.push({
        id: plugin.id,
        displayName: entry.displayName,
        installed: semverValid(plugin.version!.trim())!,
        available,
      });
  }
  return updates;
}
