// The sandbox hardening through ACP in manual mode (docs/sandbox.md#capabilities, #unix-sockets-and-seccomp): the
// editor approves each Bash call the scripted model makes, as a user who trusts the sandbox would; the commands run
// sandboxed and the capability and socket attacks in them reach nothing — no capability held, no fixture reached
// (the socket attack is first shown to reach them in plain bash), canaries untouched. As root and as an unprivileged
// user.
import { expect, it } from 'vitest';
import { startAcpClient } from '../helpers/acpClient';
import { mockModelEnv } from '../helpers/cli';
import { describeHardeningEndToEnd, expectAttacksRefused, pushAttackTurn } from '../helpers/hardeningCli';

describeHardeningEndToEnd('hardening-acp', 'jarvis acp in manual mode against the sandbox hardening attacks', (ctx) => {
  it('runs the approved commands sandboxed, and their attacks reach nothing', async () => {
    const [server, world] = [ctx.server(), ctx.world()];
    const hits = world.fixtures.hits();
    const editor = await startAcpClient({
      env: world.env(mockModelEnv(server.baseUrlFor('openai'))),
      cwd: world.cwd,
      launcher: world.launcher,
    });
    try {
      const { sessionId } = await editor.connection.agent.request('session/new', { cwd: world.cwd, mcpServers: [] });
      await editor.connection.agent.request('session/set_mode', { sessionId, modeId: 'manual' });
      editor.answerPermissions('allow_once');
      pushAttackTurn(server, world);
      const before = server.requests.length;
      const response = await editor.connection.agent.request('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: 'go' }],
      });
      expect(response.stopReason).toBe('end_turn');
      expect(editor.permissionRequests.length, editor.stderr()).toBe(2);
      expectAttacksRefused(server, before + 1, world, hits);
    } finally {
      await editor.close();
    }
  });
});
