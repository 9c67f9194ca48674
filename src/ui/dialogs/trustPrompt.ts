// The workspace-trust question (docs/ui.md), asked the first time the UI opens in a folder, and again when a
// project MCP file, or a file its servers are started with, changed since the folder was trusted (docs/mcp.md,
// "Workspace trust"). The default answer is "Don't trust" (or, for a changed file, "Keep them off"). The answer is
// stored per workspace under $JARVIS_CODE_HOME; trusting records the digests of the files as they were read for
// the servers the question lists (LoadedMcpServers.snapshot), never as they are by the time the user answers.
import type { CompatSettings } from '../../store/compat';
import {
  describeMcpTarget,
  readProjectMcpServers,
  type LoadedMcpServers,
  type McpServerConfig,
} from '../../store/mcpConfig';
import { displayPath } from '../../store/paths';
import { setWorkspaceTrust, workspaceTrust } from '../../store/trust';
import type { Theme } from '../theme';
import { SelectDialog } from './selectDialog';

/** Never asked here, or a project MCP file changed since the folder was trusted. */
export function needsTrustDecision(home: string, cwd: string, mcp?: Pick<LoadedMcpServers, 'changed'>): boolean {
  return workspaceTrust(home, cwd) === undefined || (mcp?.changed.length ?? 0) > 0;
}

const serverLine = (s: McpServerConfig) => `${s.name}: ${describeMcpTarget(s)} (${displayPath(s.file)})`;

/**
 * Project MCP servers a trusted folder would start, as "name: transport command-or-url (from file)" lines; the
 * project `.mcp.json` only with `[compat] mcp_json` on (docs/compatibility.md "MCP configs").
 */
export function projectMcpServers(cwd: string, compat: CompatSettings): string[] {
  return readProjectMcpServers(cwd, compat).map(serverLine);
}

/**
 * The question; `changed` (the servers of files changed since the folder was trusted) asks about those only.
 * `done(true)`: trusted, with the files as they are now; `done(false)`: nothing new starts.
 */
export function trustDialog(
  theme: Theme,
  home: string,
  cwd: string,
  compat: CompatSettings,
  done: (trusted: boolean) => void,
  mcp?: Pick<LoadedMcpServers, 'changed' | 'changes' | 'snapshot' | 'untrusted' | 'servers'>,
): SelectDialog {
  if (mcp?.changed.length) return changedDialog(theme, home, cwd, mcp, done);
  const project = mcp ? [...mcp.untrusted, ...mcp.servers.filter((s) => s.scope === 'project')] : undefined;
  const servers = project ? project.map(serverLine) : projectMcpServers(cwd, compat);
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
      setWorkspaceTrust(home, cwd, trusted, new Date(), mcp?.snapshot, compat);
      done(trusted);
    },
  });
}

function changedDialog(
  theme: Theme,
  home: string,
  cwd: string,
  mcp: Pick<LoadedMcpServers, 'changed' | 'changes' | 'snapshot'>,
  done: (trusted: boolean) => void,
): SelectDialog {
  const files = mcp.changes.map((c) => displayPath(c.file));
  return new SelectDialog(theme, {
    title: 'Workspace trust',
    body: [
      `${files.join(' and ')} changed since you trusted ${displayPath(cwd)}.`,
      'These MCP servers run outside the sandbox with your environment. Start them with the new content?',
      ...mcp.changed.map((s) => `  • ${serverLine(s)}`),
    ],
    items: [
      { value: 'no', label: 'Keep them off', description: 'asked again next session (default)' },
      { value: 'yes', label: 'Trust the new content' },
    ],
    onSelect: (value) => {
      const trusted = value === 'yes';
      if (trusted) setWorkspaceTrust(home, cwd, true, new Date(), mcp.snapshot);
      done(trusted);
    },
  });
}
