// The catalog lines of ToolSearch's description (docs/tools.md, "Deferred tools"). A built-in or plugin
// tool gets `- name: summary`. An MCP server with two or more deferred tools gets one line that writes
// its prefix once, `- mcp__server__{a, b}`: servers (plugins' included) can bring dozens of tools, and
// the repeated prefixes and summaries were most of the bytes a bundled plugin added to every request.
// The user's own servers are listed in full (their configuration is their choice). Plugins' servers
// together get the room of one listing (src/tools/listingBudget.ts, which grows with the model's context
// window): a server line that does not fit is cut to its prefix and tool count, so every server is named.
import { LISTING_MIN_BYTES } from '../listingBudget';
import type { DeferredToolEntry } from './toolLoader';

/** The longest prefix the names share that ends in `__` (the `mcp__server__` part). */
function sharedPrefix(names: readonly string[]): string {
  let prefix = names[0];
  for (const name of names) while (!name.startsWith(prefix)) prefix = prefix.slice(0, -1);
  const end = prefix.lastIndexOf('__');
  return end > 0 ? prefix.slice(0, end + 2) : '';
}

export function catalogLines(catalog: readonly DeferredToolEntry[], budgetBytes = LISTING_MIN_BYTES): string[] {
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
  const fits = (line: string) => used + Buffer.byteLength(line) + 1 <= budgetBytes;
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
    // Past the room a server keeps its prefix and count: named, never left out.
    const line = fits(full) ? full : short;
    used += Buffer.byteLength(line) + 1;
    mcp.push(line);
  }
  return [...plain, ...mcp];
}
