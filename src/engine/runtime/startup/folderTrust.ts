// Trusting a folder outside the interactive UI (docs/ui.md "Workspace trust"): recorded exactly like the UI's "Trust
// this folder" (with the digests of the project MCP files, their launch files and Claude Code's project settings as
// they are now), and saying what trust lets Jarvis do there. Used by `jarvis trust` and print mode's `--trust`.
import { existsSync, realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { BUILTIN_LSP_SERVERS, serversForFolder, type LspServerConfig } from '../../../platform/lsp/lspServers';
import { compatSettingsOf, DEFAULT_COMPAT, type CompatSettings } from '../../../store/compat';
import { ConfigError, readConfigFile } from '../../../store/config';
import { describeMcpTarget, readProjectMcpServers } from '../../../store/mcpConfig';
import { configPath, displayPath } from '../../../store/paths';
import { setWorkspaceTrust, TRUST_ENABLES } from '../../../store/trust';
import { lspSettingsFromConfig } from './lspSettings';

/** A folder that cannot be trusted as asked (missing, not a folder, a broken config): the message says what to do. */
export class FolderTrustError extends Error {}

/** config.toml's compat and language-server settings (the defaults when there is no file). */
export function settingsHere(home: string): { compat: CompatSettings; servers: Record<string, LspServerConfig> } {
  const file = configPath(home);
  if (!existsSync(file)) return { compat: DEFAULT_COMPAT, servers: BUILTIN_LSP_SERVERS };
  try {
    const { config } = readConfigFile(file);
    const lsp = lspSettingsFromConfig(config, file);
    return { compat: compatSettingsOf(config.compat), servers: lsp.enabled ? lsp.servers : {} };
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    throw new FolderTrustError(
      `invalid configuration\n${e.message}\nFix the file (jarvis doctor checks it); it was not changed.`,
    );
  }
}

/** What trusting `folder` lets Jarvis do, and what of it the folder has (its MCP servers, its project files). */
export function trustEffects(home: string, folder: string): string[] {
  const { compat, servers } = settingsHere(home);
  const mcp = readProjectMcpServers(folder, compat);
  const lsp = serversForFolder(servers, folder);
  return [
    'Trust lets Jarvis, for this folder:',
    ...TRUST_ENABLES.map((line) => `  • ${line}`),
    mcp.length
      ? `Its project MCP servers: ${mcp.map((s) => `${s.name} (${describeMcpTarget(s)})`).join(', ')}.`
      : 'It configures no project MCP servers.',
    lsp.length
      ? `Language servers for its project files: ${lsp.map((s) => `${s.name} (${s.marker})`).join(', ')}.`
      : 'No project file here starts a language server yet (one starts on the first file of its language).',
  ];
}

/** The folder a path names, as its real path; a FolderTrustError naming it when it is not a folder. */
export function folderOf(path: string | undefined, cwd: string): string {
  const given = resolve(cwd, path ?? '.');
  let stat;
  try {
    stat = statSync(given);
  } catch {
    throw new FolderTrustError(`${given} does not exist; give the folder to trust (default: the current one).`);
  }
  if (!stat.isDirectory()) throw new FolderTrustError(`${given} is not a folder; trust is given to a folder.`);
  return realpathSync(given);
}

/** Print mode's `--trust`: the working folder trusted before anything starts; the lines say what that enables. */
export function trustForPrintMode(home: string, cwd: string): string[] {
  const folder = folderOf(undefined, cwd);
  setWorkspaceTrust(home, folder, true, new Date(), undefined, settingsHere(home).compat);
  return [
    `trusted ${displayPath(folder)} (--trust), as the interactive UI's yes records it.`,
    ...trustEffects(home, folder),
  ];
}
