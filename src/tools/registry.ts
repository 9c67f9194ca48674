// The built-in tools, in the order they are offered to the model.
import { agentTools } from './agent';
import type { Tool } from './defineTool';
import { cronTools } from './cron';
import { workflowTools } from './workflow';
import { fileTools } from './file';
import { goalTools } from './goal';
import { lspTools } from './lsp';
import { memoryTools } from './memory';
import { planTools } from './plan';
import { questionTools } from './question';
import { shellTools } from './shell';
import { skillTools } from './skill';
import { taskTools } from './task';
import { todoTools } from './todo';
import { DEFAULT_WEB_SETTINGS, webTools, type WebSettings } from './web';

/** `web`: which web tools exist depends on the configured search backend; `cron: false` (JARVIS_DISABLE_CRON) drops the Cron tools. */
export function builtinTools(opts: { web?: WebSettings; cron?: boolean } = {}): Tool[] {
  return [
    ...fileTools,
    ...shellTools,
    ...webTools(opts.web ?? DEFAULT_WEB_SETTINGS),
    ...taskTools,
    ...planTools,
    ...todoTools,
    ...questionTools,
    ...agentTools,
    ...workflowTools,
    ...skillTools,
    ...memoryTools,
    ...goalTools,
    ...lspTools,
    ...(opts.cron === false ? [] : cronTools),
  ];
}
