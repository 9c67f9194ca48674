// The workspace-trust question (docs/ui.md), asked the first time the UI opens in a folder, and again when a
// project MCP file, a file its servers are started with, or a Claude Code project settings file (hooks) changed since
// the folder was trusted (docs/mcp.md, "Workspace trust"; docs/hooks.md, "Claude Code hooks"). The default answer is
// "Don't trust" (or, for a changed file, "Keep them off"). The answer is stored per workspace under
// $JARVIS_CODE_HOME; trusting records the digests of the files as they were read for what the question lists
// (LoadedMcpServers.snapshot, and the settings files read for the hook lines), never as they are when the user answers.
import { loadClaudeSettingsHooks } from '../../ext/hooks/claudeSettingsHooks';
import { DEFAULT_COMPAT, type CompatSettings } from '../../store/compat';
import { describeMcpTarget, readProjectMcp, type LoadedMcpServers, type McpServerConfig } from '../../store/mcpConfig';
import { displayPath } from '../../store/paths';
import {
  fileDigest,
  mcpFileApproved,
  projectHookFiles,
  setWorkspaceTrust,
  TRUST_ENABLES,
  workspaceTrust,
  type TrustEntry,
  type TrustSnapshot,
} from '../../store/trust';
import type { Theme } from '../theme';
import { SelectDialog } from './selectDialog';

type ShownMcp = Pick<LoadedMcpServers, 'changed' | 'changes' | 'snapshot' | 'untrusted' | 'servers'>;

/** Never asked here, or a project MCP file or Claude Code settings file changed since the folder was trusted. */
export function needsTrustDecision(
  home: string,
  cwd: string,
  mcp?: Pick<LoadedMcpServers, 'changed'>,
  compat: CompatSettings = DEFAULT_COMPAT,
): boolean {
  if (workspaceTrust(home, cwd) === undefined || (mcp?.changed.length ?? 0) > 0) return true;
  // Settings files are read only with `[compat] claude` on; off, their hooks never run, so there is nothing to ask.
  if (!compat.claude || workspaceTrust(home, cwd)?.trusted !== true) return false;
  return projectHookFiles(cwd).some((f) => {
    const digest = fileDigest(f); // none: absent, or no regular file (never used)
    return digest !== undefined && !mcpFileApproved(home, cwd, f, digest);
  });
}

/**
 * Claude Code's project settings as read once now: the hooks a trusted folder would run, as "file: N hooks
 * (Event: command)" lines (docs/hooks.md, "Claude Code hooks"), and each file's digest, which a yes records. Nothing
 * when `[compat] claude` is off.
 */
function readProjectHooks(cwd: string, compat: CompatSettings): { lines: string[]; digests: Record<string, string> } {
  const read = loadClaudeSettingsHooks({
    cwd,
    env: process.env,
    enabled: compat.claude,
    projectFile: () => 'approved',
  });
  const lines: string[] = [];
  const digests: Record<string, string> = {};
  for (const file of read.files.filter((f) => f.scope === 'project')) {
    if (file.digest !== undefined) digests[file.path] = file.digest;
    if (file.hooks === 0) continue;
    lines.push(`${displayPath(file.path)}: ${file.hooks} hook${file.hooks === 1 ? '' : 's'}`);
    for (const h of file.specs) lines.push(`  ${h.event}: ${h.command}`);
  }
  return { lines, digests };
}

export function projectHookLines(cwd: string, compat: CompatSettings): string[] {
  return readProjectHooks(cwd, compat).lines;
}

/** The settings files of `digests` whose bytes the trusted `entry` does not hold. */
function changedHookFiles(entry: TrustEntry | undefined, digests: Record<string, string>): string[] {
  if (entry?.trusted !== true) return [];
  return Object.keys(digests).filter((f) => entry.mcpFiles?.[f] !== digests[f]);
}

const serverLine = (s: McpServerConfig) => `${s.name}: ${describeMcpTarget(s)} (${displayPath(s.file)})`;

/**
 * Project MCP servers a trusted folder would start, as "name: transport command-or-url (from file)" lines; the
 * project `.mcp.json` only with `[compat] mcp_json` on (docs/compatibility.md "MCP configs").
 */
export function projectMcpServers(cwd: string, compat: CompatSettings): string[] {
  return readProjectMcp(cwd, compat).servers.map(serverLine);
}

/**
 * The question; `mcp.changed` (the servers of files changed since the folder was trusted) and changed settings files
 * ask about those only. `languageServers` names the servers the folder's project files would start ("typescript
 * (tsconfig.json)"). `done(true)`: trusted, with the files as the question read them; `done(false)`: nothing new
 * starts.
 */
export function trustDialog(
  theme: Theme,
  home: string,
  cwd: string,
  compat: CompatSettings,
  done: (trusted: boolean) => void,
  mcp?: ShownMcp,
  languageServers: readonly string[] = [],
): SelectDialog {
  const read = mcp ?? { ...readProjectMcp(cwd, compat), untrusted: [], changed: [], changes: [] };
  const hooks = readProjectHooks(cwd, compat);
  const snapshot: TrustSnapshot = { ...read.snapshot, hookFiles: hooks.digests };
  const hookFiles = changedHookFiles(workspaceTrust(home, cwd), hooks.digests);
  if (read.changed.length || hookFiles.length)
    return changedDialog(theme, { home, cwd, snapshot }, read, { files: hookFiles, lines: hooks.lines }, done);
  const servers = [...read.untrusted, ...read.servers.filter((s) => s.scope === 'project')].map(serverLine);
  // Everything trust enables, then what this folder has of it (docs/ui.md "Workspace trust").
  const body = [
    `Do you trust the files in ${displayPath(cwd)}?`,
    'Trusting it lets Jarvis:',
    ...TRUST_ENABLES.map((line) => `  • ${line}`),
    ...(servers.length
      ? ['Project MCP servers:', ...servers.map((s) => `  • ${s}`)]
      : ['This folder configures no MCP servers.']),
    ...(hooks.lines.length
      ? [
          'Hooks of its Claude Code settings (they run commands; from the next session or /reload on):',
          ...hooks.lines.map((l) => `  • ${l}`),
        ]
      : []),
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
      setWorkspaceTrust(home, cwd, trusted, new Date(), snapshot, compat);
      done(trusted);
    },
  });
}

function changedDialog(
  theme: Theme,
  where: { home: string; cwd: string; snapshot: TrustSnapshot },
  mcp: Pick<LoadedMcpServers, 'changed' | 'changes'>,
  hooks: { files: string[]; lines: string[] },
  done: (trusted: boolean) => void,
): SelectDialog {
  const { home, cwd, snapshot } = where;
  const files = [...new Set([...mcp.changes.map((c) => c.file), ...hooks.files].map((f) => displayPath(f)))];
  const hookLines = hooks.files.length ? hooks.lines : [];
  return new SelectDialog(theme, {
    title: 'Workspace trust',
    body: [
      `${files.join(' and ')} changed since you trusted ${displayPath(cwd)}.`,
      ...(mcp.changed.length
        ? [
            'These MCP servers run outside the sandbox with your environment. Start them with the new content?',
            ...mcp.changed.map((s) => `  • ${serverLine(s)}`),
          ]
        : []),
      ...(hookLines.length
        ? ['Its hooks run commands (from the next session or /reload on):', ...hookLines.map((l) => `  • ${l}`)]
        : []),
    ],
    items: [
      { value: 'no', label: 'Keep them off', description: 'asked again next session (default)' },
      { value: 'yes', label: 'Trust the new content' },
    ],
    onSelect: (value) => {
      const trusted = value === 'yes';
      if (trusted) setWorkspaceTrust(home, cwd, true, new Date(), snapshot);
      done(trusted);
    },
  });
}
