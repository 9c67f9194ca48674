// The delegation tool group: Agent and AgentSwarm. Their service (delegationService.ts) is implemented
// by the engine (engine/delegation/subagents.ts).
import type { Tool } from '../defineTool';
import { agentSwarmTool, makeAgentSwarmTool } from './agentSwarmTool';
import { agentTool, makeAgentTool, type ModelOffer, type SubagentTypeInfo } from './agentTool';

export { agentSwarmTool, makeAgentSwarmTool, agentTool, makeAgentTool, type ModelOffer, type SubagentTypeInfo };
export * from './delegationService';
export const agentTools: Tool[] = [agentTool, agentSwarmTool];
