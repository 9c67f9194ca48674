// Session approvals through `jarvis acp` in manual mode (docs/trust-boundary.md): a session approval given for a
// sandboxed command names the sandbox it was given for, and is asked again when the same command asks to leave the
// sandbox. The attack corpus's rows go through ACP in test/acp/acpAttackCorpus.test.ts.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockModelServer, type MockModelServer } from '../helpers/mockModelServer';
import { startAcpClient } from '../helpers/acpClient';
import { cliEnv, makeCliDirs, mockModelEnv } from '../helpers/cli';
import { sandboxAvailable } from '../helpers/sandboxAvailable';

const available = sandboxAvailable();
let server: MockModelServer;
beforeAll(async () => {
  server = await startMockModelServer();
});
afterAll(async () => {
  await server.close();
});

describe.skipIf(!available)('jarvis acp in manual mode: session approvals name their sandbox', () => {
  it('asks again when a command approved sandboxed for the session asks to leave the sandbox', async () => {
    const dirs = makeCliDirs();
    const editor = await startAcpClient({
      env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))),
      cwd: dirs.cwd,
    });
    try {
      const { sessionId } = await editor.connection.agent.request('session/new', { cwd: dirs.cwd, mcpServers: [] });
      editor.answerPermissions('allow_session');
      server.push({ toolCalls: [{ id: 'in', name: 'Bash', arguments: { command: 'ls -a' } }] }, { text: 'Listed.' });
      await editor.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'ls' }] });
      expect(editor.permissionRequests).toHaveLength(1);
      const options = editor.permissionRequests[0].options.map((o) => o.name);
      expect(options).toContain('Allow for this session (Bash(ls *) [sandboxed])');
      // The same command again, sandboxed: the session approval covers it, nothing is asked.
      server.push({ toolCalls: [{ id: 'again', name: 'Bash', arguments: { command: 'ls -l' } }] }, { text: 'Again.' });
      await editor.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'ls' }] });
      expect(editor.permissionRequests).toHaveLength(1);
      // Now outside the sandbox: asked again, and refused here.
      editor.answerPermissions('reject');
      const out = { command: 'ls -a', dangerously_unsandboxed: true };
      server.push({ toolCalls: [{ id: 'out', name: 'Bash', arguments: out }] }, { text: 'Stopped.' });
      await editor.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'ls' }] });
      expect(editor.permissionRequests).toHaveLength(2);
      expect(editor.permissionRequests[1].toolCall.rawInput).toMatchObject({ dangerously_unsandboxed: true });
      expect(editor.permissionRequests[1].options.map((o) => o.name)).toContain(
        'Allow for this session (Bash(ls *) [unsandboxed])',
      );
    } finally {
      await editor.close();
      rmSync(join(dirs.cwd, '..'), { recursive: true, force: true });
    }
  }, 120_000);
});
