// Where a plugin is installed from (docs/plugins.md "Installing"): a local folder (or a local .zip), a
// zip URL, or one of the four GitHub URL forms. GitHub is reached only through github.com (the
// `releases/latest` redirect) and codeload.github.com (the archive); api.github.com is never called.
// Both base URLs are configurable (JARVIS_CODE_GITHUB_URL, JARVIS_CODE_GITHUB_CODELOAD_URL) so tests
// and mirrors can stand in for them. This module only fetches and unpacks into a staging folder: it
// never runs anything that it unpacks.
import { chmodSync, cpSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { guardedFetch, UrlRefusedError, type Resolver } from '../../platform/web/guardedFetch';
import type { ReadZipEntry } from '../../platform/zip';
import { expandTilde } from '../../store/paths';
import { PluginError, type PluginSourceKind } from './installedStore';
import { CLAUDE_MARKETPLACE, MANIFEST_FILES, MARKETPLACE_HINT } from './manifest';

export const DEFAULT_GITHUB_URL = 'https://github.com';
export const DEFAULT_CODELOAD_URL = 'https://codeload.github.com';
/** A plugin archive larger than this is refused (downloaded bytes). */
export const MAX_ARCHIVE_BYTES = 64 * 1024 * 1024;
const ZIP_LIMITS = { maxEntries: 20_000, maxBytes: 256 * 1024 * 1024 };
const PROBE_BYTES = 64 * 1024;

export interface PluginNetwork {
  githubUrl: string;
  codeloadUrl: string;
  /** `[web] allow_private_network`: zip URLs may point at loopback and private addresses. */
  allowPrivateNetwork: boolean;
  /**
   * Hosts of the GitHub base URLs that were set explicitly: the user chose those, so they are contacted
   * whatever their address. Only the hosts named: with only JARVIS_CODE_GITHUB_URL set, the real codeload
   * host is checked like any other.
   */
  trustedHosts: ReadonlySet<string>;
  timeoutMs?: number;
  resolver?: Resolver;
}

/** The network settings of plugin installs from the environment and `[web] allow_private_network`. */
export function pluginNetwork(env: NodeJS.ProcessEnv, allowPrivateNetwork: boolean): PluginNetwork {
  const github = env.JARVIS_CODE_GITHUB_URL?.trim();
  const codeload = env.JARVIS_CODE_GITHUB_CODELOAD_URL?.trim();
  return {
    githubUrl: (github || DEFAULT_GITHUB_URL).replace(/\/+$/, ''),
    codeloadUrl: (codeload || DEFAULT_CODELOAD_URL).replace(/\/+$/, ''),
    allowPrivateNetwork,
    trustedHosts: new Set([github, codeload].filter((u): u is string => !!u).map(hostOf)),
  };
}

/** The host of a configured base URL; an unreadable one names no host (the download then reports the URL). */
function hostOf(base: string): string {
  return URL.canParse(base) ? new URL(base).host : '';
}

export type GithubForm = 'repo' | 'tree' | 'release' | 'commit';

export type InstallSource =
  | { kind: 'local'; path: string }
  | { kind: 'zip'; url: string }
  | { kind: 'github'; owner: string; repo: string; form: GithubForm; ref?: string };

const NAME = /^[A-Za-z0-9_.-]+$/;

/** Reads what the user typed: a URL (GitHub or zip) or a local path. Throws PluginError for what it cannot be. */
export function classifySource(
  input: string,
  cwd: string,
  network: PluginNetwork,
  env: NodeJS.ProcessEnv = process.env,
): InstallSource {
  const text = input.trim();
  if (!text) throw new PluginError('give a plugin folder, a zip URL or a GitHub URL to install from');
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw new PluginError(`"${text}" is not a valid URL`);
    }
    if (url.protocol === 'file:') return { kind: 'local', path: decodeURIComponent(url.pathname) };
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new PluginError(`only http(s) URLs can be installed from, got ${url.protocol}`);
    const github = githubForm(url, network);
    if (github) return github;
    return { kind: 'zip', url: url.href };
  }
  return { kind: 'local', path: resolve(cwd, expandTilde(text, env)) };
}

function githubForm(url: URL, network: PluginNetwork): InstallSource | undefined {
  const bases = new Set([new URL(network.githubUrl).host, 'github.com', 'www.github.com']);
  // An archive or release asset on github.com (`/archive/…zip`, `/releases/download/…zip`) is a zip URL.
  if (!bases.has(url.host) || /\.zip$/i.test(url.pathname)) return undefined;
  const base = new URL(network.githubUrl).pathname.replace(/\/+$/, '');
  const path = url.pathname.slice(url.pathname.startsWith(base) ? base.length : 0);
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  const [owner, rawRepo, kind, ...rest] = parts;
  const repo = rawRepo?.replace(/\.git$/, '');
  if (!owner || !repo || !NAME.test(owner) || !NAME.test(repo))
    throw new PluginError(`${url.href} is not a GitHub repository URL (https://github.com/<owner>/<repo>)`);
  const malformed = () =>
    new PluginError(
      `${url.href}: the supported GitHub forms are /<owner>/<repo>, /tree/<ref>, /releases/tag/<tag> and /commit/<sha>`,
    );
  if (kind === undefined) return { kind: 'github', owner, repo, form: 'repo' };
  if (kind === 'tree' && rest.length) return { kind: 'github', owner, repo, form: 'tree', ref: rest.join('/') };
  if (kind === 'releases' && rest[0] === 'tag' && rest.length >= 2)
    return { kind: 'github', owner, repo, form: 'release', ref: rest.slice(1).join('/') };
  if (kind === 'commit' && rest.length === 1 && /^[0-9a-f]{4,40}$/i.test(rest[0]))
    return { kind: 'github', owner, repo, form: 'commit', ref: rest[0] };
  throw malformed();
}

export interface Fetched {
  kind: PluginSourceKind;
  /** GitHub: the tag, branch or commit downloaded. */
  ref?: string;
}

/** Puts the plugin's files into `staging` (an empty folder). */
export async function fetchSource(
  source: InstallSource,
  staging: string,
  network: PluginNetwork,
  signal?: AbortSignal,
): Promise<Fetched> {
  if (source.kind === 'local') {
    let st;
    try {
      st = statSync(source.path);
    } catch {
      throw new PluginError(`${source.path} does not exist`);
    }
    if (st.isDirectory()) {
      copyFolder(source.path, staging);
      return { kind: 'local' };
    }
    if (/\.zip$/i.test(source.path)) {
      unpack(await entriesOf(readFileSync(source.path), source.path), staging, source.path);
      return { kind: 'local' };
    }
    throw new PluginError(`${source.path} is neither a plugin folder nor a .zip file`);
  }
  if (source.kind === 'zip') {
    const data = await download(source.url, { allowPrivateNetwork: network.allowPrivateNetwork, network, signal });
    unpack(await entriesOf(data, source.url), staging, source.url);
    return { kind: 'zip' };
  }
  const ref = source.ref ?? (await latestReleaseTag(source, network, signal));
  // codeload: refs/tags/<tag> for a release, the ref itself for a branch/tag/sha, HEAD for the default branch.
  const archiveRef =
    source.form === 'release' || (source.form === 'repo' && ref) ? `refs/tags/${ref}` : (ref ?? 'HEAD');
  const url = `${network.codeloadUrl}/${encodeURIComponent(source.owner)}/${encodeURIComponent(source.repo)}/zip/${archiveRef.split('/').map(encodeURIComponent).join('/')}`;
  const what = `${source.owner}/${source.repo}${ref ? `@${ref}` : ' (default branch)'}`;
  const allowPrivateNetwork = network.allowPrivateNetwork;
  const data = await download(url, { allowPrivateNetwork, network, signal, githubOnly: true, what });
  unpack(await entriesOf(data, what), staging, what);
  return { kind: 'github', ref: ref ?? 'HEAD' };
}

/** Hosts a GitHub install may contact: github.com and codeload.github.com (or their configured stand-ins). */
function githubHosts(network: PluginNetwork): Set<string> {
  return new Set([new URL(network.githubUrl).host, new URL(network.codeloadUrl).host]);
}

/**
 * The latest release's tag from the `releases/latest` redirect (github.com answers with a redirect to
 * `/releases/tag/<tag>`, or to the release list when there is none). Undefined: no release.
 */
async function latestReleaseTag(
  source: Extract<InstallSource, { kind: 'github' }>,
  network: PluginNetwork,
  signal?: AbortSignal,
): Promise<string | undefined> {
  const repoUrl = `${network.githubUrl}/${encodeURIComponent(source.owner)}/${encodeURIComponent(source.repo)}`;
  const hosts = githubHosts(network);
  // A page of github.com, read only as far as needed; redirects stay on GitHub's hosts.
  const probe = (url: string, failure: string) =>
    guardedFetch(url, {
      maxBytes: PROBE_BYTES,
      signal,
      timeoutMs: network.timeoutMs,
      resolver: network.resolver,
      allowPrivateNetwork: network.allowPrivateNetwork,
      trustedHost: (next) => network.trustedHosts.has(next.host),
      redirectAllowed: (next) => hosts.has(next.host),
    }).catch((e: Error) => {
      throw new PluginError(`${failure}: ${e.message}`);
    });
  const response = await probe(
    `${repoUrl}/releases/latest`,
    `could not look up the latest release of ${source.owner}/${source.repo}`,
  );
  if (response.status === 404) {
    const repoPage = await probe(repoUrl, `could not reach ${source.owner}/${source.repo} on GitHub`);
    if (repoPage.status === 404)
      throw new PluginError(`GitHub has no repository ${source.owner}/${source.repo} (or it is private)`);
    return undefined;
  }
  if (response.status >= 400)
    throw new PluginError(
      `GitHub answered ${response.status} ${response.statusText} for the latest release of ${source.owner}/${source.repo}`,
    );
  const m = /\/releases\/tag\/([^?#]+)$/.exec(new URL(response.url).pathname);
  return m ? decodeURIComponent(m[1]) : undefined;
}

async function download(
  url: string,
  opts: {
    allowPrivateNetwork: boolean;
    network: PluginNetwork;
    signal?: AbortSignal;
    githubOnly?: boolean;
    what?: string;
  },
): Promise<Buffer> {
  const hosts = githubHosts(opts.network);
  let response;
  try {
    response = await guardedFetch(url, {
      maxBytes: MAX_ARCHIVE_BYTES,
      signal: opts.signal,
      timeoutMs: opts.network.timeoutMs ?? 120_000,
      resolver: opts.network.resolver,
      allowPrivateNetwork: opts.allowPrivateNetwork,
      trustedHost: opts.githubOnly ? (next) => opts.network.trustedHosts.has(next.host) : undefined,
      redirectAllowed: opts.githubOnly ? (next) => hosts.has(next.host) : undefined,
    });
  } catch (e) {
    const why = e instanceof UrlRefusedError ? e.message : `the download failed: ${(e as Error).message}`;
    throw new PluginError(`could not download ${opts.what ?? url}: ${why}`);
  }
  if (response.status === 404) throw new PluginError(`could not download ${opts.what ?? url}: not found (404)`);
  if (response.status >= 400)
    throw new PluginError(
      `could not download ${opts.what ?? url}: the server answered ${response.status} ${response.statusText}`,
    );
  if (response.truncated)
    throw new PluginError(
      `${opts.what ?? url} is larger than ${MAX_ARCHIVE_BYTES / 1024 / 1024} MiB; plugins that large are not installed`,
    );
  return response.body;
}

async function entriesOf(data: Buffer, what: string): Promise<ReadZipEntry[]> {
  // Loaded here, not at the top: the zip reader is only for installs from archives, and every start-up loads this
  // file (docs/FEATURES.md, "Start-up time against Codex").
  const { readZip, ZipError } = await import('../../platform/zip');
  try {
    return await readZip(data, ZIP_LIMITS);
  } catch (e) {
    if (e instanceof ZipError) throw new PluginError(`${what} was refused: ${e.message}`);
    throw e;
  }
}

/**
 * Writes the archive's files into `staging`. The plugin is the archive's root, or its one top-level
 * folder (GitHub archives wrap everything in `<repo>-<ref>/`), whichever holds a manifest.
 */
function unpack(entries: ReadZipEntry[], staging: string, what: string): void {
  const hasManifest = (prefix: string) => MANIFEST_FILES.some((m) => entries.some((e) => e.name === `${prefix}${m}`));
  let prefix = '';
  if (!hasManifest('')) {
    const tops = new Set(entries.map((e) => e.name.split('/')[0]));
    const only = tops.size === 1 ? `${[...tops][0]}/` : undefined;
    if (!only || !hasManifest(only)) {
      const catalog = entries.some((e) => e.name === `${only ?? ''}${CLAUDE_MARKETPLACE}`);
      throw new PluginError(
        `${what} holds no plugin manifest (${MANIFEST_FILES.join(' or ')}) at its root` +
          (catalog ? `; it holds a Claude Code marketplace (${CLAUDE_MARKETPLACE}): ${MARKETPLACE_HINT}` : ''),
      );
    }
    prefix = only;
  }
  const files = entries.filter((e) => e.name.startsWith(prefix) && e.name.length > prefix.length);
  refuseFilesUnderFiles(
    files.map((e) => e.name.slice(prefix.length)),
    what,
  );
  for (const e of files) {
    const name = e.name.slice(prefix.length);
    const target = join(staging, name);
    try {
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, e.data);
      // Keep execute bits (a `./bin/server` MCP command), never set-id bits.
      if (e.mode) chmodSync(target, e.mode & 0o777);
    } catch (err) {
      const why = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
      throw new PluginError(`could not unpack ${what}: ${name}: ${why}`);
    }
  }
}

/**
 * An archive that holds a file (a symbolic link entry is unpacked as a file holding the link text) and
 * then entries under that same name (`skills/evil` and `skills/evil/x`) cannot be unpacked as written,
 * and is the shape of an attempt to write through a link: refused, naming both entries.
 */
function refuseFilesUnderFiles(names: readonly string[], what: string): void {
  const fileNames = new Set(names);
  for (const name of names) {
    const parts = name.split('/');
    for (let i = 1; i < parts.length; i++) {
      const above = parts.slice(0, i).join('/');
      if (fileNames.has(above)) {
        throw new PluginError(
          `${what} was refused: the entry "${name}" lies under "${above}", ` +
            'which the archive also holds as a file or a symbolic link',
        );
      }
    }
  }
}

/** Copies a plugin folder; symlinks stay symlinks (the loader refuses those that lead outside). */
function copyFolder(from: string, to: string): void {
  try {
    cpSync(from, to, { recursive: true, verbatimSymlinks: true, filter: (src) => !/[\\/]\.git$/.test(src) });
  } catch (e) {
    throw new PluginError(`could not copy ${from}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}
