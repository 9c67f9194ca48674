// The catalog lines of ToolSearch's description (docs/tools.md, "Deferred tools"). A built-in or plugin
// tool gets `- name: summary`. An MCP server with two or more deferred tools gets one line that writes
// its prefix once, `- mcp__server__{a, b}`: servers (plugins' included) can bring dozens of tools, and
// the repeated prefixes and summaries were most of the bytes a bundled plugin added to every request.
// The user's own servers are listed in full (their configuration is their choice). Plugins' servers
// together stay within PLUGIN_MCP_LISTING_BUDGET_BYTES, however many plugins are installed: a server line
// that does not fit is cut to its prefix and count, and servers past even that are counted on one line.
import type { DeferredToolEntry } from './toolLoader';

/** Most bytes the plugins' MCP servers' lines take in ToolSearch's description, all plugins together. */
export const PLUGIN_MCP_LISTING_BUDGET_BYTES = 256;

/** The longest prefix the names share that ends in `__` (the `mcp__server__` part). */
function sharedPrefix(names: readonly string[]): string {
  let prefix = names[0];
  for (const name of names) while (!name.startsWith(prefix)) prefix = prefix.slice(0, -1);
  const end = prefix.lastIndexOf('__');
  return end > 0 ? prefix.slice(0, end + 2) : '';
}

export function catalogLines(catalog: readonly DeferredToolEntry[]): string[] {
  const plain: string[] = [];
  const groups = new Map<string, DeferredToolEntry[]>();
  for (const entry of catalog) {
    if (entry.group) {
      const members = groups.get(entry.group) ?? [];
      members.push(entry);
      groups.set(entry.group, members);
    } else {
      plain.push(`- ${entry.name}: ${entry.summary}`);
    }
  }
  const mcp: string[] = [];
  let used = 0;
  let left = 0;
  const fits = (line: string) => used + Buffer.byteLength(line) + 1 <= PLUGIN_MCP_LISTING_BUDGET_BYTES;
  for (const members of groups.values()) {
    const names = members.map((e) => e.name);
    const prefix = members.length > 1 ? sharedPrefix(names) : '';
    const full = prefix
      ? `- ${prefix}{${names.map((n) => n.slice(prefix.length)).join(', ')}}`
      : members.map((e) => `- ${e.name}: ${e.summary}`).join('\n');
    const count = `${members.length} tool${members.length === 1 ? '' : 's'}`;
    const short = `- ${prefix || names[0]}*: ${count}, names not listed (find them with a query)`;
    if (!members[0].fromPlugin) {
      mcp.push(full);
      continue;
    }
    const line = fits(full) ? full : fits(short) ? short : undefined;
    if (line === undefined) {
      left++;
      continue;
    }
    used += Buffer.byteLength(line) + 1;
    mcp.push(line);
  }
  const servers = `${left} more plugin MCP server${left === 1 ? '' : 's'}`;
  if (left) mcp.push(`- and the tools of ${servers} (find them with a query)`);
  return [...plain, ...mcp];
}
