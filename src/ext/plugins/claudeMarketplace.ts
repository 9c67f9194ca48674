// Claude Code marketplaces (docs/plugins.md "Claude Code marketplaces"): `.claude-plugin/marketplace.json`
// with `name`, `owner` and `plugins[]` whose entries have `name` and a `source`. This file rewrites such a
// catalog into the entries marketplace.ts reads (`id`, `source` as a path or URL). Sources Jarvis can
// fetch: a relative path (against the marketplace root — the folder holding `.claude-plugin/` — and
// `metadata.pluginRoot`), `{"source": "github", "repo"}` and a GitHub `{"source": "url"}` (with `ref` or
// `sha`), and a zip URL. Anything else (another git host, `git-subdir`, npm, pip) is said and skipped.

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

/** True when the catalog is written the way Claude Code writes one (no `version`, entries named by `name`). */
export function isClaudeMarketplace(doc: Record<string, unknown>): boolean {
  if (doc.version !== undefined || !Array.isArray(doc.plugins)) return false;
  return isObject(doc.owner) || doc.plugins.some((p) => isObject(p) && p.id === undefined && p.name !== undefined);
}

/** Where relative sources start: the folder holding `.claude-plugin/`, plus `metadata.pluginRoot`. */
function sourceBase(location: string, doc: Record<string, unknown>): string {
  const isUrl = /^[a-z][a-z0-9+.-]*:\/\//i.test(location);
  const sep = isUrl ? '/' : location.includes('\\') && !location.includes('/') ? '\\' : '/';
  const parts = location.split(sep);
  parts.pop(); // marketplace.json
  if (parts.at(-1) === '.claude-plugin') parts.pop();
  const pluginRoot = isObject(doc.metadata) ? text(doc.metadata.pluginRoot) : undefined;
  const base = `${parts.join(sep)}${sep}`;
  return pluginRoot ? `${base}${pluginRoot.replace(/^\.\//, '').replace(/\/*$/, '/')}` : base;
}

/** A GitHub repository URL for `owner/repo` with an optional ref or commit. */
function githubUrl(repo: string, ref: string | undefined, sha: string | undefined): string {
  const base = `https://github.com/${repo.replace(/\.git$/, '')}`;
  return sha ? `${base}/commit/${sha}` : ref ? `${base}/tree/${ref}` : base;
}

/** The entry's source as a path or URL marketplace.ts resolves, or why it cannot be installed. */
function sourceOf(raw: unknown, base: string): { source: string } | { why: string } {
  const relative = (p: string) => ({ source: p === './' || p === '.' ? base : `${base}${p.replace(/^\.\//, '')}` });
  if (typeof raw === 'string') {
    if (raw.startsWith('./') || raw === '.') return relative(raw);
    return { source: raw };
  }
  if (!isObject(raw)) return { why: 'has no "source" (a "./" path or an object with "source")' };
  const kind = text(raw.source);
  const ref = text(raw.ref);
  const sha = text(raw.sha);
  if (kind === 'github') {
    const repo = text(raw.repo);
    if (!repo || !/^[\w.-]+\/[\w.-]+$/.test(repo)) return { why: 'a "github" source needs "repo": "<owner>/<repo>"' };
    return { source: githubUrl(repo, ref, sha) };
  }
  if (kind === 'url') {
    const url = text(raw.url);
    if (!url) return { why: 'a "url" source needs "url"' };
    const gh = /^https:\/\/(?:www\.)?github\.com\/([\w.-]+\/[\w.-]+?)(?:\.git)?\/?$/.exec(url);
    if (gh) return { source: githubUrl(gh[1], ref, sha) };
    if (/\.zip$/i.test(new URL(url, 'https://x/').pathname)) return { source: url };
    return {
      why:
        `the git repository ${url} cannot be fetched: ` +
        'Jarvis installs GitHub repositories and zip archives, and does not run git clone',
    };
  }
  if (kind === 'git-subdir')
    return { why: 'a "git-subdir" source (a folder of a git repository) cannot be fetched; install the folder itself' };
  if (kind === 'npm' || kind === 'pip')
    return {
      why: `an ${kind} package source cannot be installed; Jarvis installs folders, zips and GitHub repositories`,
    };
  return { why: `the source kind ${JSON.stringify(raw.source)} is not known` };
}

/** Entry fields of Claude Code's that define the plugin in the catalog itself (`strict: false`). */
const INLINE_FIELDS = ['commands', 'agents', 'skills', 'hooks', 'mcpServers', 'lspServers', 'outputStyles'];

/** The catalog rewritten into `{version: "2", plugins: [{id, source, …}]}`, with what could not be taken. */
export function fromClaudeMarketplace(
  doc: Record<string, unknown>,
  location: string,
): { doc: Record<string, unknown>; diagnostics: string[] } {
  const diagnostics: string[] = [];
  const base = sourceBase(location, doc);
  const plugins = (doc.plugins as unknown[]).map((raw, i) => {
    if (!isObject(raw)) return raw;
    const name = text(raw.name);
    const at = `plugins[${i}]${name ? ` "${name}"` : ''}`;
    const found = sourceOf(raw.source, base);
    if ('why' in found) {
      diagnostics.push(`${at}: ${found.why}; skipped.`);
      return null;
    }
    const inline = INLINE_FIELDS.filter((f) => raw[f] !== undefined);
    if (inline.length) {
      diagnostics.push(
        `${at}: ${inline.map((f) => `"${f}"`).join(', ')} in the catalog entry are not read; ` +
          "the plugin's own manifest counts.",
      );
    }
    const entry: Record<string, unknown> = { id: name ?? raw.id, source: found.source };
    for (const key of ['description', 'version', 'keywords', 'homepage'] as const) {
      if (raw[key] !== undefined) entry[key] = raw[key];
    }
    if (raw.keywords === undefined && Array.isArray(raw.tags)) entry.keywords = raw.tags;
    return entry;
  });
  // A skipped entry stays as null, so the positions in later diagnostics are the file's own.
  return { doc: { version: '2', plugins }, diagnostics };
}
