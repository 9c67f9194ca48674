// The trust boundary end to end through `jarvis acp` in manual mode (docs/trust-boundary.md): the working-folder and
// git rows of the attack corpus (test/tools/boundary/attackCorpus.ts) made as Bash calls the editor's user approves
// once. Each is asked first (a working folder outside the workspace says so); approved, it still runs inside the
// sandbox with that folder read-only, and what git would run later is refused or undone. A session approval given
// for a sandboxed command is asked again when the same command asks to leave the sandbox.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockModelServer, type MockModelServer } from '../helpers/mockModelServer';
import { startAcpClient } from '../helpers/acpClient';
import { sandboxAvailable } from '../helpers/sandboxAvailable';
import { attackCall, attackResult, E2E_ATTACKS, fixtureCliEnv, runLater } from '../helpers/boundaryE2e';
import { makeFixture } from '../tools/boundary/attackRunner';

const available = sandboxAvailable();
let server: MockModelServer;
beforeAll(async () => {
  server = await startMockModelServer();
});
afterAll(async () => {
  await server.close();
});

/** The text of a permission request: the subject and why it is asked. */
function askedText(request: { toolCall: { content?: unknown } }): string {
  return JSON.stringify(request.toolCall.content ?? '');
}

describe.skipIf(!available)('jarvis acp in manual mode against the attack corpus', () => {
  it.each(E2E_ATTACKS.map((c) => [c.name, c] as const))(
    '%s',
    async (_name, c) => {
      const fx = makeFixture();
      c.setup?.(fx);
      const editor = await startAcpClient({ env: fixtureCliEnv(fx, server.baseUrlFor('openai')), cwd: fx.ws });
      try {
        const { sessionId } = await editor.connection.agent.request('session/new', { cwd: fx.ws, mcpServers: [] });
        editor.answerPermissions('allow_once');
        const before = server.requests.length;
        server.push({ toolCalls: [attackCall(c, fx, 'attack')] }, { text: 'Done.' });
        const response = await editor.connection.agent.request('session/prompt', {
          sessionId,
          prompt: [{ type: 'text', text: 'go' }],
        });
        expect(response.stopReason).toBe('end_turn');
        expect(editor.permissionRequests).toHaveLength(1);
        if (c.bullet === 'cwd') expect(askedText(editor.permissionRequests[0])).toContain('outside the workspace');
        const text = attackResult(server, before);
        await runLater(c, fx);
        expect(c.check(fx, text), text).toBeUndefined();
      } finally {
        await editor.close();
        rmSync(fx.root, { recursive: true, force: true });
      }
    },
    120_000,
  );

  it('asks again when a command approved sandboxed for the session asks to leave the sandbox', async () => {
    const fx = makeFixture();
    const editor = await startAcpClient({ env: fixtureCliEnv(fx, server.baseUrlFor('openai')), cwd: fx.ws });
    try {
      const { sessionId } = await editor.connection.agent.request('session/new', { cwd: fx.ws, mcpServers: [] });
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
      rmSync(fx.root, { recursive: true, force: true });
    }
  }, 120_000);
});
