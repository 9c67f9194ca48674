// The web tool group: FetchURL always; WebSearch when a search backend is configured; the ten Brave
// tools when Brave is the chosen backend and has a key (docs/web-tools.md).
import type { Tool } from '../defineTool';
import { braveTools } from './brave/braveTools';
import { fetchUrlTool } from './fetchUrlTool';
import type { WebSettings } from './webService';
import { webSearchTool } from './webSearchTool';

export { fetchUrlTool, webSearchTool, braveTools };
export * from './webService';
export { webSettingsFromConfig } from './webConfig';

export function webTools(settings: WebSettings): Tool[] {
  return [fetchUrlTool, ...(settings.search ? [webSearchTool] : []), ...(settings.braveTools ? braveTools : [])];
}
