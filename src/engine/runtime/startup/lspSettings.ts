// `[lsp]` and `[lsp.servers.<name>]` of config.toml as the session's language-server settings (docs/lsp.md): the
// built-in servers, each changed or turned off by a table of the same name, plus servers the user adds.
import { BUILTIN_LSP_SERVERS, type LspServerConfig, type LspSettings } from '../../../platform/lsp/lspServers';
import { ConfigError, type JarvisConfig } from '../../../store/config';

export function lspSettingsFromConfig(config: JarvisConfig, configPath: string): LspSettings {
  const servers: Record<string, LspServerConfig> = { ...BUILTIN_LSP_SERVERS };
  for (const [name, entry] of Object.entries(config.lsp.servers)) {
    if (!entry.enabled) {
      delete servers[name];
      continue;
    }
    const base = BUILTIN_LSP_SERVERS[name];
    const command = entry.command ?? base?.command;
    const filePatterns = entry.file_patterns ?? base?.filePatterns;
    if (!command || !filePatterns?.length) {
      const missing = !command ? 'command' : 'file_patterns';
      throw new ConfigError({
        file: configPath,
        key: `lsp.servers.${name}.${missing}`,
        expected: !command ? 'a non-empty string' : 'a non-empty array of strings',
        message:
          `${configPath}: [lsp.servers.${name}] is not a built-in server ` +
          `(${Object.keys(BUILTIN_LSP_SERVERS).join(', ')}), ` +
          `so it needs ${missing}, e.g. command = "my-language-server", file_patterns = ["*.ext"] (docs/lsp.md).`,
      });
    }
    const initializationOptions = entry.initialization_options ?? base?.initializationOptions;
    const install = entry.install ?? base?.install;
    servers[name] = {
      command,
      args: entry.args ?? base?.args ?? [],
      filePatterns,
      rootMarkers: entry.root_markers ?? base?.rootMarkers ?? [],
      ...(initializationOptions ? { initializationOptions } : {}),
      ...(install ? { install } : {}),
    };
  }
  return {
    enabled: config.lsp.enabled,
    diagnosticsWaitMs: config.lsp.diagnostics_wait_ms,
    firstDiagnosticsWaitMs: config.lsp.first_diagnostics_wait_ms,
    maxDiagnostics: config.lsp.max_diagnostics,
    maxDiagnosticBytes: config.lsp.max_diagnostic_bytes,
    servers,
  };
}
