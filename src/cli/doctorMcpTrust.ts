// `jarvis doctor`: project MCP files that changed since this workspace was trusted (docs/mcp.md, "Workspace
// trust"). Their servers are not started until the user approves the new content, so each is a problem line.
import { compatSettingsOf } from '../store/compat';
import { loadMcpServers } from '../store/mcpConfig';
import { isWorkspaceTrusted } from '../store/trust';
import { readConfig } from './doctorCompat';
import type { DoctorContext, DoctorSection, DoctorSectionProvider } from './doctorSections';
import { changedMcpFileWarnings } from '../engine/runtime/startup/mcpTrustNotice';

export const mcpTrustDoctor: DoctorSectionProvider = async (ctx: DoctorContext): Promise<DoctorSection | undefined> => {
  if (!isWorkspaceTrusted(ctx.home, ctx.cwd)) return undefined;
  const compat = compatSettingsOf(readConfig(ctx.home).config.compat);
  const defaults = { startupTimeoutMs: 30_000, toolTimeoutMs: 60_000 };
  const loaded = loadMcpServers({ home: ctx.home, projectDir: ctx.cwd, trusted: true, defaults, compat, env: ctx.env });
  const changed = changedMcpFileWarnings(loaded);
  const trustedFiles = [...new Set(loaded.servers.filter((s) => s.scope === 'project').map((s) => s.file))];
  if (!changed.length && !trustedFiles.length) return undefined;
  return {
    title: 'Project MCP files',
    ok: changed.length === 0,
    lines: [
      ...changed.map((w) => `problem: ${w}`),
      ...trustedFiles.map((f) => `${f}: unchanged since this workspace was trusted`),
    ],
  };
};
