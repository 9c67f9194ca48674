// The Tower tool group (docs/tower.md). They exist only with the experimental flag (towerEnabled);
// their service is implemented by the engine (engine/tower/).
import type { Tool } from '../defineTool';
import { towerCoordinatorTools } from './coordinatorTools';
import { towerSharedTools } from './sharedTools';

export * from './towerService';
export * from './towerLimits';
export { towerCoordinatorTools, towerSharedTools };
export const towerTools: Tool[] = [...towerCoordinatorTools, ...towerSharedTools];
