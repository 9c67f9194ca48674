export { listMcpResourcesTool } from './listMcpResourcesTool';
export { readMcpResourceTool } from './readMcpResourceTool';
export {
  MCP_RESOURCES,
  type McpResourceAccess,
  type McpResourceContent,
  type McpResourceEntry,
} from './mcpResourceService';
