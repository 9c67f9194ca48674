// Config → the browser profile's session services: the lazily started BrowserSession (whose request
// check applies the web tools' address rules to every request of a managed browser), the workspace
// folder, the web_search engine and the checklist. The caller closes the session with the runtime and
// adds the summarizer (it needs the session's model).
import { BrowserSession } from '../../platform/browser/browserSession';
import { checkedLookup, checkUrl } from '../../platform/web/guardedFetch';
import type { ResolvedModel } from '../../llm/types';
import type { JarvisConfig } from '../../store/config';
import type { WebSettings } from '../web/webService';
import { BROWSER_SERVICE } from './browserService';
import type { EngineSettings } from './searchEngines';
import { Checklist, CHECKLIST_SERVICE } from './taskListTools';
import { ENGINE_SERVICE } from './webSearchTool';
import { WORKSPACE_SERVICE } from './workspacePaths';

/** `agent`: the browser agent's own tool set; `page-tools`: tab/page/script tools added to the default agent. */
export type BrowserProfileChoice = 'agent' | 'page-tools';

export interface BrowserRuntimeOptions {
  /**
   * What this launch asks for; undefined = no browser tools, unless the resumed session was created
   * with some (the journal records the choice; the other settings here apply then).
   */
  profile?: BrowserProfileChoice;
  executable?: string;
  cdpUrl?: string;
  /** A visible browser window (`--headed`; the caller checked there is a display). */
  headed?: boolean;
  workspaceDir: string;
  engine: EngineSettings;
  /** `[browser] summary_model`, resolved; undefined = the session's model. */
  summaryModel?: ResolvedModel;
  /** How long one sub-agent of the `agent` tool may run; default 10 minutes. */
  subagentTimeoutMs?: number;
}

export function browserOptionsFromConfig(
  config: JarvisConfig,
  home: string,
  profile: BrowserProfileChoice | undefined,
): BrowserRuntimeOptions {
  const b = config.browser;
  const s = config.web_search;
  return {
    profile,
    executable: b.executable,
    cdpUrl: b.cdp_url,
    headed: b.headed,
    subagentTimeoutMs: b.subagent_timeout_s * 1000,
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
export function browserRuntime(
  opts: BrowserRuntimeOptions,
  web: WebSettings,
  env: NodeJS.ProcessEnv,
): { services: Array<[string, unknown]>; session: BrowserSession } {
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
  // The proxy's own connections resolve through a lookup that checks every address again (no rebinding).
  const lookup = checkRequest ? { lookup: checkedLookup(web.resolver) } : {};
  const { executable, cdpUrl, headed } = opts;
  const session = new BrowserSession({ executable, cdpUrl, headed, checkRequest, env, ...lookup });
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
