// `[lsp]` of config.toml as language-server settings (docs/lsp.md): built-ins changed, turned off, servers added.
import { describe, expect, it } from 'vitest';
import { lspSettingsFromConfig } from '../../src/engine/runtime/startup/lspSettings';
import { configSchema } from '../../src/store/configSchema';
import { ConfigError } from '../../src/store/config';

const settings = (lsp: unknown) => lspSettingsFromConfig(configSchema.parse({ lsp }), '/home/u/config.toml');

describe('lspSettingsFromConfig', () => {
  it('has the built-in servers and documented defaults', () => {
    const s = settings({});
    expect(Object.keys(s.servers)).toEqual(['typescript', 'python', 'go', 'rust', 'clangd']);
    expect(s).toMatchObject({ enabled: true, diagnosticsWaitMs: 1_500, maxDiagnostics: 10, maxDiagnosticBytes: 4_096 });
  });

  it('changes only the keys given, turns a server off, adds a new one', () => {
    const s = settings({
      diagnostics_wait_ms: 300,
      servers: {
        python: { command: '/opt/pyright-langserver' },
        clangd: { enabled: false },
        lua: { command: 'lua-language-server', file_patterns: ['*.lua'], initialization_options: { a: 1 } },
      },
    });
    expect(s.diagnosticsWaitMs).toBe(300);
    expect(s.servers.python).toMatchObject({ command: '/opt/pyright-langserver', args: ['--stdio'] });
    expect(s.servers.clangd).toBeUndefined();
    expect(s.servers.lua).toEqual({
      command: 'lua-language-server',
      args: [],
      filePatterns: ['*.lua'],
      rootMarkers: [],
      initializationOptions: { a: 1 },
    });
  });

  it('refuses a new server without a command or file patterns, naming the key', () => {
    expect(() => settings({ servers: { lua: { file_patterns: ['*.lua'] } } })).toThrow(ConfigError);
    expect(() => settings({ servers: { lua: { file_patterns: ['*.lua'] } } })).toThrow(
      /\[lsp\.servers\.lua\] is not a built-in server .* so it needs command/,
    );
    expect(() => settings({ servers: { lua: { command: 'x' } } })).toThrow(/needs file_patterns/);
  });

  it('refuses a wait out of range with the expected phrase', () => {
    expect(() => configSchema.parse({ lsp: { diagnostics_wait_ms: 90_000 } })).toThrow();
  });
});
