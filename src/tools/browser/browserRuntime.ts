// Config → the browser profile's session services: the lazily started BrowserSession (whose request
// check applies the web tools' address rules to every request of a managed browser), the workspace
// folder, the web_search engine and the checklist. The caller closes the session with the runtime.
import { BrowserSession } from '../../platform/browser/browserSession';
import { checkUrl } from '../../platform/web/guardedFetch';
import type { JarvisConfig } from '../../store/config';
import type { WebSettings } from '../web/webService';
import { BROWSER_SERVICE } from './browserService';
import type { EngineSettings } from './searchEngines';
import { Checklist, CHECKLIST_SERVICE } from './taskListTools';
import { ENGINE_SERVICE } from './webSearchTool';
import { WORKSPACE_SERVICE } from './workspacePaths';

export interface BrowserRuntimeOptions {
  /** `agent`: the browser agent's own tool set; `page-tools`: tab/page/script tools added to the default agent. */
  profile: 'agent' | 'page-tools';
  executable?: string;
  cdpUrl?: string;
  workspaceDir: string;
  engine: EngineSettings;
}

export function browserOptionsFromConfig(config: JarvisConfig, home: string, profile: BrowserRuntimeOptions['profile']): BrowserRuntimeOptions {
  const b = config.browser;
  const s = config.web_search;
  return {
    profile,
    executable: b.executable,
    cdpUrl: b.cdp_url,
    workspaceDir: b.workspace_dir ?? `${home}/workspace`,
    engine: {
      engine: s.engine,
      baseUrls: { duckduckgo: s.duckduckgo_url, bing: s.bing_url, baidu: s.baidu_url, google_cse: s.google_cse_url },
      bingApiKey: s.bing_api_key,
      googleApiKey: s.google_api_key,
      googleCseId: s.google_cse_id,
    },
  };
}

/** The services to register and the session to close. */
export function browserRuntime(opts: BrowserRuntimeOptions, web: WebSettings, env: NodeJS.ProcessEnv): { services: Array<[string, unknown]>; session: BrowserSession } {
  const checkRequest = web.allowPrivateNetwork
    ? undefined
    : async (url: string): Promise<string | undefined> => {
        if (!/^https?:/i.test(url)) return undefined;
        try {
          await checkUrl(new URL(url), { resolver: web.resolver });
          return undefined;
        } catch (e) {
          return (e as Error).message;
        }
      };
  const session = new BrowserSession({ executable: opts.executable, cdpUrl: opts.cdpUrl, checkRequest, env });
  return {
    session,
    services: [
      [BROWSER_SERVICE.name, { session }],
      [WORKSPACE_SERVICE.name, { root: opts.workspaceDir }],
      [ENGINE_SERVICE.name, opts.engine],
      [CHECKLIST_SERVICE.name, new Checklist()],
    ],
  };
}
