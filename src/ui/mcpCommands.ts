// `/mcp` (each server's state and tools) and `/mcp-config login <server>` (OAuth sign-in), see docs/mcp.md.
import type { McpServerStatus } from '../ext/mcp/mcpManager';
import type { SlashCommand } from './slashCommands';

/** The /mcp popup: one block per server. */
export function mcpStatusLines(rows: readonly McpServerStatus[]): string[] {
  if (!rows.length)
    return [
      'No MCP servers are configured.',
      '',
      'Add one with: jarvis mcp add <name> -- <command> [args…]  (see docs/mcp.md)',
    ];
  const lines: string[] = [];
  for (const s of rows) {
    const took = s.state === 'ready' && s.startMs !== undefined ? `, started in ${s.startMs} ms` : '';
    lines.push(`${s.name}  ${s.state}  (${s.scope}, ${s.transport}: ${s.target}${took})`);
    if (s.error) lines.push(`  ${s.error}`);
    if (s.tools.length) lines.push(`  ${toolsLine(s.name, s.tools)}`);
    else if (s.state === 'ready') lines.push('  no tools');
    lines.push('');
  }
  return lines.slice(0, -1);
}

/**
 * `11 tools (mcp__docs__*): create_pdf, edit_pdf, …`: the prefix the model and the permission rules use is said
 * once, not repeated on every name (docs/mcp.md); names that do not share it are listed whole.
 */
function toolsLine(server: string, tools: readonly string[]): string {
  const count = `${tools.length} tool${tools.length === 1 ? '' : 's'}`;
  const prefix = `mcp__${server}__`;
  if (!tools.every((t) => t.startsWith(prefix) && t.length > prefix.length)) return `${count}: ${tools.join(', ')}`;
  return `${count} (${prefix}*): ${tools.map((t) => t.slice(prefix.length)).join(', ')}`;
}

export const MCP_COMMANDS: SlashCommand[] = [
  {
    name: 'mcp',
    aliases: [],
    description: 'MCP servers: state, errors and tools',
    run(h) {
      h.popup('MCP servers', mcpStatusLines(h.mcp?.status() ?? []));
    },
  },
  {
    name: 'mcp-config',
    aliases: [],
    description: 'login <server>: sign in to an MCP server that uses OAuth',
    async run(h, args) {
      const [sub, name] = args.trim().split(/\s+/);
      if (sub !== 'login' || !name) {
        h.notice(
          'info',
          'Usage: /mcp-config login <server>',
          'Add or remove servers from the shell: jarvis mcp add|remove (see docs/mcp.md).',
        );
        return;
      }
      await h.mcpLogin(name);
    },
  },
];
