// docs/lsp.md "/lsp": the lines the TUI shows for the session's language servers in each state.
import { describe, expect, it } from 'vitest';
import { DEFAULT_LSP_SETTINGS } from '../../src/platform/lsp/lspServers';
import { lspStatusLines } from '../../src/ui/lspCommand';
import { findCommand } from '../../src/ui/slashCommands';

describe('/lsp', () => {
  it('is in the slash-command table', () => {
    expect(findCommand('lsp')?.description).toContain('language servers');
  });

  it('shows running, starting, crashed and missing servers with root and command, the rest as not started', () => {
    const lines = lspStatusLines(DEFAULT_LSP_SETTINGS, [
      {
        name: 'typescript',
        root: '/p/web',
        command: '/p/node_modules/.bin/typescript-language-server',
        state: 'ready',
      },
      { name: 'python', root: '/p/api', command: '/usr/bin/pyright-langserver', state: 'starting' },
      { name: 'go', root: '/p/svc', command: '/usr/bin/gopls', state: 'crashed', failure: 'gopls exited (code 2)' },
      { name: 'rust', root: '/p/rs', command: 'rust-analyzer', state: 'missing' },
    ]);
    const text = lines.join('\n');
    expect(text).toContain('typescript — running · root /p/web · *.ts');
    expect(text).toContain('  /p/node_modules/.bin/typescript-language-server');
    expect(text).toContain('python — starting · root /p/api · *.py *.pyi');
    expect(text).toContain('go — crashed · root /p/svc · *.go\n  /usr/bin/gopls\n  gopls exited (code 2)');
    expect(text).toContain('rust — not installed · root /p/rs');
    expect(text).toContain('clangd — not started · *.c');
    expect(text).not.toContain('typescript — not started');
  });

  it('says when servers are off, when no session exists yet and when none is configured', () => {
    expect(lspStatusLines({ ...DEFAULT_LSP_SETTINGS, enabled: false }, [])[0]).toContain('[lsp] enabled = false');
    expect(lspStatusLines(undefined, [])[0]).toContain('No session yet');
    expect(lspStatusLines({ ...DEFAULT_LSP_SETTINGS, servers: {} }, [])[0]).toContain('No language servers');
  });
});
