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
import { existsSync } from 'node:fs';
import { loadClaudeSettingsHooks } from '../../ext/hooks/claudeSettingsHooks';
import { mcpFileApproved, projectHookFiles, setWorkspaceTrust, workspaceTrust } from '../../store/trust';
import type { Theme } from '../theme';
import { SelectDialog } from './selectDialog';

/** Never asked here, or a project MCP file or Claude Code settings file changed since the folder was trusted. */
export function needsTrustDecision(home: string, cwd: string, mcp?: Pick<LoadedMcpServers, 'changed'>): boolean {
  return (
    workspaceTrust(home, cwd) === undefined || (mcp?.changed.length ?? 0) > 0 || changedHookFiles(home, cwd).length > 0
  );
}

/** Claude Code's project settings files of a trusted folder that changed since it was trusted. */
function changedHookFiles(home: string, cwd: string): string[] {
  if (workspaceTrust(home, cwd)?.trusted !== true) return [];
  return projectHookFiles(cwd).filter((f) => existsSync(f) && !mcpFileApproved(home, cwd, f));
}

/**
 * The hooks a trusted folder would run from Claude Code's project settings, as "file: N hooks (Event: command)"
 * lines (docs/hooks.md, "Claude Code hooks"); nothing when `[compat] claude` is off.
 */
export function projectHookLines(cwd: string, compat: CompatSettings): string[] {
  const read = loadClaudeSettingsHooks({
    cwd,
    env: process.env,
    enabled: compat.claude,
    projectFile: () => 'approved',
  });
  const lines: string[] = [];
  for (const file of read.files.filter((f) => f.scope === 'project' && f.hooks > 0)) {
    lines.push(`${displayPath(file.path)}: ${file.hooks} hook${file.hooks === 1 ? '' : 's'}`);
    for (const h of file.specs) lines.push(`  ${h.event}: ${h.command}`);
  }
  return lines;
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
  changed: readonly McpServerConfig[] = [],
): SelectDialog {
  const hookFiles = changedHookFiles(home, cwd);
  if (changed.length || hookFiles.length) return changedDialog(theme, { home, cwd, compat }, changed, hookFiles, done);
  const servers = projectMcpServers(cwd, compat);
  const hooks = projectHookLines(cwd, compat);
  const files = compat.mcpJson ? '.jarvis-code/mcp.json or .mcp.json' : '.jarvis-code/mcp.json';
  const body = [
    `Do you trust the files in ${displayPath(cwd)}?`,
    `A trusted folder may start the MCP servers it configures in ${files} and use its project memory.`,
    ...(servers.length
      ? ['Project MCP servers:', ...servers.map((s) => `  • ${s}`)]
      : ['This folder configures no MCP servers.']),
    ...(hooks.length
      ? [
          'Hooks of its Claude Code settings (they run commands; from the next session or /reload on):',
          ...hooks.map((l) => `  • ${l}`),
        ]
      : []),
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

function changedDialog(
  theme: Theme,
  where: { home: string; cwd: string; compat: CompatSettings },
  changed: readonly McpServerConfig[],
  hookFiles: readonly string[],
  done: (trusted: boolean) => void,
): SelectDialog {
  const { home, cwd } = where;
  const files = [...new Set([...changed.map((s) => s.file), ...hookFiles].map((f) => displayPath(f)))];
  const hooks = hookFiles.length ? projectHookLines(cwd, where.compat) : [];
  return new SelectDialog(theme, {
    title: 'Workspace trust',
    body: [
      `${files.join(' and ')} changed since you trusted ${displayPath(cwd)}.`,
      ...(changed.length
        ? [
            'Its MCP servers run outside the sandbox with your environment. Start these servers?',
            ...changed.map((s) => `  • ${serverLine(s)}`),
          ]
        : []),
      ...(hooks.length
        ? ['Its hooks run commands (from the next session or /reload on):', ...hooks.map((l) => `  • ${l}`)]
        : []),
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
