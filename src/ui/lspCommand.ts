// `/lsp` (docs/lsp.md "/lsp"): the session's language servers and their state. Servers start on the first file of
// their language, so most are "not started" until an edit or the Lsp tool needs them.
import type { LspServerStatus } from '../platform/lsp/lspManager';
import type { LspSettings } from '../platform/lsp/lspServers';
import { displayPath } from '../store/paths';
import { LSP_SERVICE } from '../tools/lsp/lspService';
import type { SlashCommand } from './commandHost';

const STATE_WORDS: Record<LspServerStatus['state'], string> = {
  starting: 'starting',
  ready: 'running',
  crashed: 'crashed',
  stopped: 'stopped',
  missing: 'not installed',
  unusable: 'cannot run here',
};

/** The lines `/lsp` shows: every started (or missing) server with its root, then the configured ones not started. */
export function lspStatusLines(settings: LspSettings | undefined, statuses: readonly LspServerStatus[]): string[] {
  if (!settings) return ['No session yet: language servers start with it, on the first file of their language.'];
  if (!settings.enabled) return ['Language servers are off ([lsp] enabled = false in config.toml).'];
  const lines: string[] = [];
  for (const s of statuses) {
    const patterns = settings.servers[s.name]?.filePatterns.join(' ') ?? '';
    const where = s.sandboxed ? ' · in the sandbox' : '';
    lines.push(`${s.name} — ${STATE_WORDS[s.state]}${where} · root ${displayPath(s.root)} · ${patterns}`);
    lines.push(`  ${s.command}`);
    if (s.failure) lines.push(`  ${s.failure}`);
  }
  const started = new Set(statuses.map((s) => s.name));
  for (const [name, config] of Object.entries(settings.servers)) {
    if (started.has(name)) continue;
    lines.push(`${name} — not started · ${config.filePatterns.join(' ')}`);
  }
  if (!lines.length) return ['No language servers are configured ([lsp.servers.<name>] in config.toml, docs/lsp.md).'];
  return [...lines, '', 'A server starts on the first file of its language; `jarvis doctor --online` checks them.'];
}

export const lspCommand: SlashCommand = {
  name: 'lsp',
  aliases: [],
  description: 'language servers and their state',
  run(h) {
    const manager = h.runtime?.services.find(LSP_SERVICE);
    h.popup('Language servers', lspStatusLines(manager?.settings, manager?.status() ?? []));
  },
};
