// The workspace-trust question (docs/ui.md), asked the first time the UI opens in a folder, and again when a
// project MCP file changed since the folder was trusted (docs/mcp.md, "Workspace trust"). The default answer
// is "Don't trust" (or, for a changed file, "Keep them off"). The answer is stored per workspace under
// $JARVIS_CODE_HOME; trusting records the MCP files' digests as they are now.
import type { CompatSettings } from '../../store/compat';
import {
  describeMcpTarget,
  readProjectMcpServers,
  type LoadedMcpServers,
  type McpServerConfig,
} from '../../store/mcpConfig';
import { displayPath } from '../../store/paths';
import { setWorkspaceTrust, TRUST_ENABLES, workspaceTrust } from '../../store/trust';
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
 * `languageServers` names the servers the folder's project files would start ("typescript (tsconfig.json)").
 * `done(true)`: trusted, with the files as they are now; `done(false)`: nothing new starts.
 */
export function trustDialog(
  theme: Theme,
  home: string,
  cwd: string,
  compat: CompatSettings,
  done: (trusted: boolean) => void,
  changed: readonly McpServerConfig[] = [],
  languageServers: readonly string[] = [],
): SelectDialog {
  if (changed.length) return changedDialog(theme, home, cwd, changed, done);
  const servers = projectMcpServers(cwd, compat);
  // Everything trust enables, then what this folder has of it (docs/ui.md "Workspace trust").
  const body = [
    `Do you trust the files in ${displayPath(cwd)}?`,
    'Trusting it lets Jarvis:',
    ...TRUST_ENABLES.map((line) => `  • ${line}`),
    ...(servers.length
      ? ['Project MCP servers:', ...servers.map((s) => `  • ${s}`)]
      : ['This folder configures no MCP servers.']),
    languageServers.length
      ? `Language servers for its project files: ${languageServers.join(', ')}.`
      : 'No project file here starts a language server yet (one starts on the first file of its language).',
  ];
  return new SelectDialog(theme, {
    title: 'Workspace trust',
    body,
    items: [
      {
        value: 'no',
        label: "Don't trust",
        description: 'project MCP servers, language servers and project memory stay off (default)',
      },
      { value: 'yes', label: 'Trust this folder' },
    ],
    onSelect: (value) => {
      const trusted = value === 'yes';
      setWorkspaceTrust(home, cwd, trusted);
      done(trusted);
    },
  });
}

function changedDialog(
  theme: Theme,
  home: string,
  cwd: string,
  changed: readonly McpServerConfig[],
  done: (trusted: boolean) => void,
): SelectDialog {
  const files = [...new Set(changed.map((s) => displayPath(s.file)))];
  return new SelectDialog(theme, {
    title: 'Workspace trust',
    body: [
      `${files.join(' and ')} changed since you trusted ${displayPath(cwd)}.`,
      'Its MCP servers run outside the sandbox with your environment. Start these servers?',
      ...changed.map((s) => `  • ${serverLine(s)}`),
    ],
    items: [
      { value: 'no', label: 'Keep them off', description: 'asked again next session (default)' },
      { value: 'yes', label: 'Trust the new content' },
    ],
    onSelect: (value) => {
      const trusted = value === 'yes';
      if (trusted) setWorkspaceTrust(home, cwd, true);
      done(trusted);
    },
  });
}
