// The workspace-trust question (docs/ui.md), asked the first time the UI opens in a folder. The
// default answer is "Don't trust". The answer is stored per workspace under $JARVIS_CODE_HOME.
import type { CompatSettings } from '../../store/compat';
import { describeMcpTarget, readProjectMcpServers } from '../../store/mcpConfig';
import { displayPath } from '../../store/paths';
import { setWorkspaceTrust, workspaceTrust } from '../../store/trust';
import type { Theme } from '../theme';
import { SelectDialog } from './selectDialog';

export function needsTrustDecision(home: string, cwd: string): boolean {
  return workspaceTrust(home, cwd) === undefined;
}

/**
 * Project MCP servers a trusted folder would start, as "name: transport command-or-url (from file)" lines; the
 * project `.mcp.json` only with `[compat] mcp_json` on (docs/compatibility.md "MCP configs").
 */
export function projectMcpServers(cwd: string, compat: CompatSettings): string[] {
  return readProjectMcpServers(cwd, compat).map((s) => `${s.name}: ${describeMcpTarget(s)} (${displayPath(s.file)})`);
}

export function trustDialog(
  theme: Theme,
  home: string,
  cwd: string,
  compat: CompatSettings,
  done: (trusted: boolean) => void,
): SelectDialog {
  const servers = projectMcpServers(cwd, compat);
  const files = compat.mcpJson ? '.jarvis-code/mcp.json or .mcp.json' : '.jarvis-code/mcp.json';
  const body = [
    `Do you trust the files in ${displayPath(cwd)}?`,
    `A trusted folder may start the MCP servers it configures in ${files} and use its project memory.`,
    ...(servers.length
      ? ['Project MCP servers:', ...servers.map((s) => `  • ${s}`)]
      : ['This folder configures no MCP servers.']),
  ];
  return new SelectDialog(theme, {
    title: 'Workspace trust',
    body,
    items: [
      { value: 'no', label: "Don't trust", description: 'project MCP servers stay off (default)' },
      { value: 'yes', label: 'Trust this folder' },
    ],
    onSelect: (value) => {
      const trusted = value === 'yes';
      setWorkspaceTrust(home, cwd, trusted);
      done(trusted);
    },
  });
}
