// `jarvis doctor`, Claude Code's own files (docs/compatibility.md): its command folders, the hooks of its settings
// files and the MCP servers of `~/.claude.json` — what was found, what is used, and what is not and why (untrusted,
// changed since trusted, shadowed, a field Jarvis does not apply). A file that cannot be used is a problem; a field
// that is not applied is a note.
import { existsSync } from 'node:fs';
import { loadClaudeCommands } from '../ext/commands/claudeCommands';
import { loadClaudeSettingsHooks, type ClaudeSettingsFileReport } from '../ext/hooks/claudeSettingsHooks';
import { claudeJsonPath, readClaudeJsonServers } from '../store/claudeJsonMcp';
import { claudeCommandFolders, type CompatSettings } from '../store/compat';
import { parseServerEntry } from '../store/mcpConfig';
import { displayPath, projectRoot } from '../store/paths';
import { isWorkspaceTrusted, mcpFileApproved } from '../store/trust';
import type { DoctorContext } from './doctorSections';
import type { PluginCommand } from '../ext/plugins/pluginCommands';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const OFF = 'off by [compat] claude = false';

export interface ClaudeDoctorOut {
  lines: string[];
  problems: string[];
  notes: string[];
}

/** Lines for `.claude/commands` and `~/.claude/commands`; `taken` names what already owns a command's name. */
export async function claudeCommandLines(
  ctx: DoctorContext,
  compat: CompatSettings,
  taken: (name: string) => string | undefined,
  out: ClaudeDoctorOut,
): Promise<PluginCommand[]> {
  const folders = claudeCommandFolders(projectRoot(ctx.cwd), compat, ctx.env);
  const load = await loadClaudeCommands(folders, taken);
  for (const { folder, names } of load.found) {
    const label = `commands ${displayPath(folder.dir, ctx.env)} (Claude Code, ${folder.scope})`;
    if (folder.off) out.lines.push(`${label}: ${OFF}`);
    else if (!existsSync(folder.dir)) out.lines.push(`${label}: not present`);
    else
      out.lines.push(`${label}: ${plural(names.length, 'command')}${names.length ? ` (/${names.join(', /')})` : ''}`);
  }
  for (const s of load.skipped)
    (s.why.startsWith('shadowed') ? out.notes : out.problems).push(`${displayPath(s.path, ctx.env)}: ${s.why}`);
  for (const c of load.commands) for (const n of c.notes ?? []) out.notes.push(`${displayPath(c.path, ctx.env)}: ${n}`);
  return load.commands;
}

function settingsLine(report: ClaudeSettingsFileReport, env: NodeJS.ProcessEnv): string {
  const label = `hooks ${displayPath(report.path, env)} (Claude Code, ${report.scope})`;
  const hooks = plural(report.hooks, 'hook');
  switch (report.state) {
    case 'absent':
      return `${label}: not present`;
    case 'off':
      return `${label}: ${OFF}`;
    case 'broken':
      return `${label}: not used (see the problem below)`;
    case 'untrusted':
      return `${label}: ${hooks}; not used: this workspace is not trusted`;
    case 'changed':
      return `${label}: ${hooks}; not used: changed since this workspace was trusted`;
    case 'disabled':
      return `${label}: ${hooks}; off: "disableAllHooks": true`;
    default:
      return `${label}: ${hooks}`;
  }
}

/** Lines for the hooks of `~/.claude/settings.json` and the project's `.claude/settings*.json`. */
export function claudeSettingsLines(ctx: DoctorContext, compat: CompatSettings, out: ClaudeDoctorOut): void {
  const trusted = isWorkspaceTrusted(ctx.home, ctx.cwd);
  const loaded = loadClaudeSettingsHooks({
    cwd: ctx.cwd,
    env: ctx.env,
    enabled: compat.claude,
    projectFile: (file, digest) =>
      !trusted ? 'untrusted' : mcpFileApproved(ctx.home, ctx.cwd, file, digest) ? 'approved' : 'changed',
  });
  for (const report of loaded.files) {
    out.lines.push(settingsLine(report, ctx.env));
    for (const p of report.problems) (report.state === 'broken' ? out.problems : out.notes).push(p);
  }
}

/** Lines for the user and this project's MCP servers of `~/.claude.json`. */
export function claudeJsonLines(ctx: DoctorContext, compat: CompatSettings, out: ClaudeDoctorOut): void {
  const file = claudeJsonPath(ctx.env);
  const label = `mcp ${displayPath(file, ctx.env)}`;
  if (!compat.claude) return void out.lines.push(`${label} (Claude Code): ${OFF}`);
  if (!existsSync(file)) return void out.lines.push(`${label} (Claude Code): not present`);
  const defaults = { startupTimeoutMs: 30_000, toolTimeoutMs: 60_000 };
  const warnings: string[] = [];
  const servers = readClaudeJsonServers(ctx.cwd, defaults, warnings, ctx.env, parseServerEntry);
  out.problems.push(...warnings);
  const names = (list: Array<{ name: string }>) => (list.length ? ` (${list.map((s) => s.name).join(', ')})` : '');
  out.lines.push(`${label} (Claude Code, user): ${plural(servers.user.length, 'server')}${names(servers.user)}`);
  if (!servers.projectKey) {
    out.lines.push(`${label} (Claude Code, this project): no entry for this folder`);
    return;
  }
  let line = `${label} projects["${servers.projectKey}"] (Claude Code, this project): `;
  line += `${plural(servers.project.length, 'server')}${names(servers.project)}`;
  if (servers.project.length && !isWorkspaceTrusted(ctx.home, ctx.cwd))
    line += '; not started: this workspace is not trusted';
  out.lines.push(line);
}
