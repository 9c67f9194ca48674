// The workspace-trust question in the interactive UI lists everything trust enables (docs/ui.md "Workspace trust"):
// project MCP servers (with this folder's), language servers (with the ones its project files start) and the
// project memory. Answering yes records it, and the session's edits then get the language server's diagnostics;
// answering no leaves them saying (to the model, and once to the user) why they were not checked. The real binary in tmux, the real
// typescript-language-server from node_modules.
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isWorkspaceTrusted } from '../../src/store/trust';
import { requireSystemPart } from '../helpers/requireAll';
import { appsClosedAfterEach, send, tempDir } from './e2eHarness';

const hasTmux = requireSystemPart('tmux', 'the terminal UI is tested inside tmux');
const start = appsClosedAfterEach();
const EDIT = { path: 'src/cart.ts', old_string: 'formatPrice(total)', new_string: 'formatPrice("x")' };

function project(): { home: string; cwd: string } {
  const home = tempDir('jarvis-ui-trust-home-');
  const cwd = tempDir('jarvis-ui-trust-');
  cpSync(resolve(__dirname, '../fixtures/lsp/ts-project'), cwd, { recursive: true });
  mkdirSync(join(cwd, '.jarvis-code'));
  writeFileSync(
    join(cwd, '.jarvis-code', 'mcp.json'),
    JSON.stringify({ mcpServers: { docs: { command: 'docs-server', args: ['--stdio'] } } }),
  );
  // Edits are approved without asking, so the transcript shows their results directly.
  writeFileSync(join(home, 'config.toml'), 'default_permission_mode = "auto"\n');
  return { home, cwd };
}

const turns = [
  { toolCalls: [{ id: 'read', name: 'Read', arguments: { path: 'src/cart.ts' } }] },
  { toolCalls: [{ id: 'edit', name: 'Edit', arguments: EDIT }] },
  { text: 'edited it' },
];
const env = { PATH: `${resolve(__dirname, '../../node_modules/.bin')}:${process.env.PATH}` };

describe.runIf(hasTmux)('the workspace-trust question (tmux)', () => {
  it('lists what trust enables and what this folder has of it; yes turns on its language servers', async () => {
    const { home, cwd } = project();
    const app = await start({ home, cwd, answerTrust: false, env, turns });
    const screen = await app.tmux.waitFor('Trust this folder', { timeoutMs: 20_000 });
    expect(screen).toContain('Trusting it lets Jarvis:');
    expect(screen).toContain('start the project MCP servers of .jarvis-code/mcp.json and .mcp.json');
    expect(screen).toContain('start language servers for the files of this checkout');
    expect(screen).toContain('read and write the project memory');
    expect(screen).toContain('docs: stdio: docs-server --stdio');
    expect(screen).toContain('Language servers for its project files: typescript (tsconfig.json)');
    expect(screen).toContain('project MCP servers, language servers and project memory stay off');
    app.tmux.keys('Down');
    app.tmux.keys('Enter');
    await app.tmux.waitForGone('Trust this folder');
    expect(isWorkspaceTrusted(home, cwd)).toBe(true);
    send(app, 'break the cart');
    await app.tmux.waitFor('edited it', { timeoutMs: 120_000 });
    app.tmux.keys('C-o');
    await app.tmux.waitFor(/- src\/cart\.ts:5:22: Argument of type 'string'/, { timeoutMs: 10_000 });
  }, 180_000);

  it("answered no, the folder's edits say they were not checked and how to trust it", async () => {
    const { home, cwd } = project();
    const app = await start({ home, cwd, answerTrust: false, env, turns });
    await app.tmux.waitFor('Trust this folder', { timeoutMs: 20_000 });
    app.tmux.keys('Enter');
    await app.tmux.waitForGone('Trust this folder');
    expect(isWorkspaceTrusted(home, cwd)).toBe(false);
    send(app, 'break the cart');
    const screen = await app.tmux.waitFor('edited it', { timeoutMs: 120_000 });
    // The user reads it once as a notice; the model reads it in the Edit's result.
    expect(screen).toMatch(/Language servers stay off for .*: that checkout is not trusted/);
    expect(JSON.stringify(app.server.requests.at(-1)!.body.messages)).toContain(
      '(Not checked by a language server: Language servers stay off for',
    );
  }, 180_000);
});
