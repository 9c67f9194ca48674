// The web tool group: FetchURL always; WebSearch when a search backend is configured.
import type { Tool } from '../defineTool';
import { fetchUrlTool } from './fetchUrlTool';
import type { WebSettings } from './webService';

export { fetchUrlTool };
export * from './webService';
export { webSettingsFromConfig } from './webConfig';

export function webTools(settings: WebSettings): Tool[] {
  void settings;
  return [fetchUrlTool];
}
