// The discovery tool group: ToolSearch and the loader service it calls (docs/tools.md, "Deferred tools").
export * from './toolLoader';
export { TOOL_SEARCH_MAX_QUERY_MATCHES, TOOL_SEARCH_NAME, toolSearchTool } from './toolSearchTool';
