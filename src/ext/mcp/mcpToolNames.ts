// The names MCP tools are offered under: `mcp__<server>__<tool>` (docs/mcp.md). Providers accept only
// `[A-Za-z0-9_-]{1,64}` as a tool name, so anything else becomes `_`, and a name longer than 64
// characters is cut and ends with a short hash of the full name, which keeps two long names that share
// a beginning apart. Permission rules and `[tools]` entries match these names.
import { createHash } from 'node:crypto';

export const MAX_TOOL_NAME_LENGTH = 64;
const HASH_LENGTH = 8;

function sanitize(part: string): string {
  return part.replace(/[^A-Za-z0-9_-]/g, '_');
}

/** The model-facing name of `tool` on `server`. */
export function mcpToolName(server: string, tool: string): string {
  const name = `mcp__${sanitize(server)}__${sanitize(tool)}`;
  if (name.length <= MAX_TOOL_NAME_LENGTH) return name;
  const hash = createHash('sha256').update(`${server}\0${tool}`).digest('hex').slice(0, HASH_LENGTH);
  return `${name.slice(0, MAX_TOOL_NAME_LENGTH - HASH_LENGTH - 1)}_${hash}`;
}

/** The prefix every tool of `server` starts with (`mcp__github__`). */
export function mcpServerPrefix(server: string): string {
  return `mcp__${sanitize(server)}__`;
}

/**
 * Like mcpToolName, but when two of a server's tools sanitise to the same name (`a.b` and `a_b`), the
 * later one gets the hash ending, so both stay callable.
 */
export function uniqueMcpToolName(server: string, tool: string, taken: Set<string>): string {
  let name = mcpToolName(server, tool);
  if (taken.has(name)) {
    const hash = createHash('sha256').update(`${server}\0${tool}`).digest('hex').slice(0, HASH_LENGTH);
    name = `${name.slice(0, MAX_TOOL_NAME_LENGTH - HASH_LENGTH - 1)}_${hash}`;
  }
  taken.add(name);
  return name;
}
