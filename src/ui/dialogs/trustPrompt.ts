// The workspace-trust question (docs/ui.md), asked the first time the UI opens in a folder. The
// default answer is "Don't trust". The answer is stored per workspace under $JARVIS_CODE_HOME.
import { describeMcpTarget, readProjectMcpServers } from '../../store/mcpConfig';
import { displayPath } from '../../store/paths';
import { setWorkspaceTrust, workspaceTrust } from '../../store/trust';
import type { Theme } from '../theme';
import { SelectDialog } from './selectDialog';

export function needsTrustDecision(home: string, cwd: string): boolean {
  return workspaceTrust(home, cwd) === undefined;
}

/** Project MCP servers a trusted folder would start, as "name: transport command-or-url" lines. */
export function projectMcpServers(cwd: string): string[] {
  return readProjectMcpServers(cwd).map((s) => `${s.name}: ${describeMcpTarget(s)}`);
}

export function trustDialog(theme: Theme, home: string, cwd: string, done: (trusted: boolean) => void): SelectDialog {
  const servers = projectMcpServers(cwd);
  const body = [
    `Do you trust the files in ${displayPath(cwd)}?`,
    'A trusted folder may start the MCP servers it configures in .jarvis-code/mcp.json and use its project memory.',
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
