// The scheduled-task tool group. The service they use is defined in cronService.ts and implemented by
// the engine (engine/background/cronScheduler.ts). JARVIS_DISABLE_CRON=1 leaves the group out.
import type { Tool } from '../defineTool';
import { cronCreateTool } from './cronCreateTool';
import { cronDeleteTool } from './cronDeleteTool';
import { cronListTool } from './cronListTool';

export { cronCreateTool, cronDeleteTool, cronListTool };
export * from './cronService';
export const cronTools: Tool[] = [cronCreateTool, cronListTool, cronDeleteTool];

/** JARVIS_DISABLE_CRON=1 turns scheduled tasks off: no tools, no fires. */
export function cronDisabled(env: NodeJS.ProcessEnv): boolean {
  return env.JARVIS_DISABLE_CRON === '1' || env.JARVIS_DISABLE_CRON?.toLowerCase() === 'true';
}
