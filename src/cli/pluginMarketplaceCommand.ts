// `jarvis plugin marketplace [source]` (docs/plugins.md "Marketplaces"): lists a marketplace — the default
// one (the file shipped with Jarvis, or JARVIS_CODE_PLUGIN_MARKETPLACE_URL), or a JSON file, folder or
// URL — by tier, with what is installed and which updates exist, then the problems of its bad entries.
// Exit 1 when the marketplace cannot be read at all.
import { PLUGIN_TIERS } from '../ext/plugins/installedStore';
import {
  loadMarketplace,
  MarketplaceError,
  newerVersion,
  type Marketplace,
  type MarketplaceEntry,
} from '../ext/plugins/marketplace';
import type { PluginView } from '../ext/plugins/manager';
import { ConfigError, loadConfig } from '../store/config';
import { jarvisHome } from '../store/paths';
import { pluginManagerFor, type PluginCommandIo } from './pluginCommand';

const io = (): PluginCommandIo => ({
  env: process.env,
  cwd: process.cwd(),
  out: (t) => void process.stdout.write(t),
  err: (t) => void process.stderr.write(t),
});

const TIER_TITLE = { official: 'Official', curated: 'Curated', 'third-party': 'Third-party' } as const;

function entryStatus(entry: MarketplaceEntry, installed: PluginView | undefined): string {
  if (!installed) return 'not installed';
  const update = newerVersion(installed.version, entry);
  return update
    ? `installed ${installed.version}, update ${update} available`
    : `installed${installed.version ? ` ${installed.version}` : ''}`;
}

function marketplaceText(m: Marketplace, installed: readonly PluginView[]): string {
  const lines = [`Marketplace ${m.location}${m.trusted ? ' (default)' : ''}`];
  if (!m.entries.length) lines.push('', 'It lists no plugins.');
  for (const tier of PLUGIN_TIERS) {
    const entries = m.entries.filter((e) => e.tier === tier);
    if (!entries.length) continue;
    lines.push('', TIER_TITLE[tier]);
    for (const e of entries) {
      const view = installed.find((v) => v.id === e.id);
      lines.push(
        `  ${e.id}${e.version ? ` ${e.version}` : ''}${e.displayName !== e.id ? ` — ${e.displayName}` : ''}  (${entryStatus(e, view)})`,
      );
      if (e.description) lines.push(`      ${e.description}`);
      lines.push(`      source: ${e.source}`);
    }
  }
  if (m.diagnostics.length)
    lines.push('', `Problems (${m.diagnostics.length}):`, ...m.diagnostics.map((d) => `  - ${d}`));
  if (m.entries.length)
    lines.push('', 'Install one with: jarvis plugin install <source>  (or Enter on it in /plugins)');
  return lines.join('\n');
}

export async function runPluginMarketplaceCommand(
  source: string | undefined,
  opts: { json?: boolean } = {},
  ctx: PluginCommandIo = io(),
): Promise<number> {
  const home = jarvisHome(ctx.env);
  let allowPrivateNetwork = false;
  try {
    allowPrivateNetwork = loadConfig(home).config.web.allow_private_network;
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    // pluginManagerFor below reports the broken config once.
  }
  const manager = pluginManagerFor(home, ctx.env, ctx.cwd, (w) => ctx.err(`warning: ${w}\n`));
  let marketplace: Marketplace;
  try {
    marketplace = await loadMarketplace(source, { env: ctx.env, cwd: ctx.cwd, allowPrivateNetwork });
  } catch (e) {
    if (!(e instanceof MarketplaceError)) throw e;
    ctx.err(`jarvis plugin marketplace: ${e.message}\n`);
    return 1;
  }
  const installed = manager.problem() ? [] : await manager.list();
  if (opts.json) {
    const entries = marketplace.entries.map((e) => {
      const view = installed.find((v) => v.id === e.id);
      return {
        ...e,
        installedVersion: view ? (view.version ?? null) : undefined,
        update: view ? (newerVersion(view.version, e) ?? null) : undefined,
      };
    });
    ctx.out(`${JSON.stringify({ ...marketplace, entries }, null, 2)}\n`);
  } else ctx.out(`${marketplaceText(marketplace, installed)}\n`);
  return 0;
}
