// A provider that accepts the request and never answers (docs/configuration.md, `[loop_control] wait_notice_s`):
// the user is told, while the run waits, that the model has not answered yet, how much longer this request waits
// and what follows — on stderr in print mode, as a message the editor shows in ACP — and the notice repeats until
// the time-out. The built binary against the loopback mock model server, which accepts and holds the request.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, afterAll, describe, expect, it } from 'vitest';
import { startMockModelServer, type MockModelServer } from '../helpers/mockModelServer';
import { cliEnv, makeCliDirs, mockModelEnv, runJarvis } from '../helpers/cli';
import { agentText, startAcpClient, type AcpTestClient } from '../helpers/acpClient';

let server: MockModelServer;
beforeAll(async () => {
  server = await startMockModelServer();
});
afterAll(async () => {
  await server.close();
});

const NOTICE =
  /The model has not answered yet \(\d+ s since the request was sent\)\. It waits up to \d+ s more \(\[loop_control\] idle_timeout_s = 8 s\), then the request fails\./g;

function homeWith(config: string) {
  const dirs = makeCliDirs();
  writeFileSync(join(dirs.home, 'config.toml'), `[loop_control]\n${config}\n[memory]\nextraction_enabled = false\n`);
  return dirs;
}

describe('a model that never answers, in print mode', () => {
  it('stderr says, again and again until the time-out, that the model has not answered and how long the run waits', async () => {
    const dirs = homeWith('wait_notice_s = 1\nidle_timeout_s = 8\nretry_budget_s = 1');
    server.push({ hang: true });
    const env = cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai')));
    const r = await runJarvis(['-p', 'hello'], { env, cwd: dirs.cwd, timeoutMs: 60_000 });
    expect(r.code).toBe(1);
    const notices = r.stderr.match(NOTICE) ?? [];
    // First after 1 s, then every 3 s: at 1, 4 and 7 s before the 8 s time-out.
    expect(notices.length, r.stderr).toBeGreaterThanOrEqual(2);
    expect(r.stderr).toMatch(/^warning: The model has not answered yet/m);
    expect(r.stderr.indexOf('has not answered yet')).toBeLessThan(r.stderr.indexOf('timed out'));
  });

  it('names the retry that follows when another attempt fits in the budget', async () => {
    const dirs = homeWith('wait_notice_s = 1\nidle_timeout_s = 3\nretry_budget_s = 60\nmax_attempts_per_step = 2');
    server.push({ hang: true }, { text: 'Here at last.' });
    const env = cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai')));
    const r = await runJarvis(['-p', 'hello'], { env, cwd: dirs.cwd, timeoutMs: 60_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Here at last.');
    expect(r.stderr).toMatch(/has not answered yet .*idle_timeout_s = 3 s\), then it is sent again\./);
  });

  it('wait_notice_s = 0 turns the notice off', async () => {
    const dirs = homeWith('wait_notice_s = 0\nidle_timeout_s = 3\nretry_budget_s = 1');
    server.push({ hang: true });
    const env = cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai')));
    const r = await runJarvis(['-p', 'hello'], { env, cwd: dirs.cwd, timeoutMs: 60_000 });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/timed out/);
    expect(r.stderr).not.toContain('has not answered yet');
  });
});

describe('a model that never answers, in ACP', () => {
  let editor: AcpTestClient | undefined;
  afterEach(async () => {
    await editor?.close();
    editor = undefined;
  });

  it('the editor is sent a message saying the model has not answered yet and how long the run waits', async () => {
    const dirs = homeWith('wait_notice_s = 1\nidle_timeout_s = 8\nretry_budget_s = 1');
    server.push({ hang: true });
    editor = await startAcpClient({ env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))), cwd: dirs.cwd });
    const { sessionId } = await editor.connection.agent.request('session/new', { cwd: dirs.cwd, mcpServers: [] });
    const failed = await editor.connection.agent
      .request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hello' }] })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(String(failed)).toMatch(/timed out waiting for a response \(nothing came for 8 s/);
    const shown = agentText(editor.updates, sessionId);
    expect((shown.match(NOTICE) ?? []).length, shown).toBeGreaterThanOrEqual(2);
    expect(shown).toContain('Warning: The model has not answered yet');
  });
});
