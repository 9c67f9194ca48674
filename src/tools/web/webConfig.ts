// config.toml + environment → WebSettings: the network policy and which search backend (if any)
// serves WebSearch. An explicit `active_search_provider` wins; without one, the first configured of
// the Moonshot service, Brave and LangSearch is used (docs/web-tools.md, "Search backends").
import { proxyFetchOptions } from '../../llm/network';
import type { JarvisConfig } from '../../store/config';
import type { ServiceEndpoint } from '../../store/settings';
import type { SearchBackendConfig, SearchProviderName, WebSettings } from './webService';

export const DEFAULT_BRAVE_BASE_URL = 'https://api.search.brave.com/res/v1';
export const DEFAULT_LANGSEARCH_BASE_URL = 'https://api.langsearch.com/v1';

function backend(
  provider: SearchProviderName,
  config: JarvisConfig,
  moonshot: ServiceEndpoint | undefined,
): SearchBackendConfig | undefined {
  if (provider === 'moonshot') {
    // SPEC §0.10: the Moonshot service has no built-in endpoint; it exists once a base URL is configured.
    if (!moonshot?.baseUrl) return undefined;
    return { provider, baseUrl: moonshot.baseUrl, apiKey: moonshot.apiKey, headers: moonshot.customHeaders };
  }
  const entry = config.web[provider];
  if (!entry?.api_key) return undefined;
  return {
    provider,
    apiKey: entry.api_key,
    baseUrl: entry.base_url ?? (provider === 'brave' ? DEFAULT_BRAVE_BASE_URL : DEFAULT_LANGSEARCH_BASE_URL),
  };
}

export function webSettingsFromConfig(
  config: JarvisConfig,
  moonshotSearch: ServiceEndpoint | undefined,
  env: NodeJS.ProcessEnv,
): WebSettings {
  const chosen = config.active_search_provider;
  const search = chosen
    ? backend(chosen, config, moonshotSearch)
    : (['moonshot', 'brave', 'langsearch'] as const).map((p) => backend(p, config, moonshotSearch)).find(Boolean);
  const settings: WebSettings = {
    allowPrivateNetwork: config.web.allow_private_network,
    search,
    proxyFor: async (url) => (await proxyFetchOptions(url, env))?.dispatcher,
  };
  if (chosen === 'brave' && search?.apiKey) settings.braveTools = { apiKey: search.apiKey, baseUrl: search.baseUrl };
  return settings;
}
