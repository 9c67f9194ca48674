// The sandbox hardening through ACP in manual mode (docs/sandbox.md#capabilities, #unix-sockets-and-seccomp): the
// editor approves each Bash call the scripted model makes, as a user who trusts the sandbox would; the commands run
// sandboxed and the capability and socket attacks in them reach nothing — no capability held, no fixture reached
// (the socket attack is first shown to reach them in plain bash), canaries untouched. As root and as an unprivileged
// user.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAcpClient } from '../helpers/acpClient';
import { mockModelEnv } from '../helpers/cli';
import { makeHardeningCliWorld, type HardeningCliWorld } from '../helpers/hardeningCli';
import { startMockModelServer, type MockModelServer } from '../helpers/mockModelServer';
import { requireSystemPart } from '../helpers/requireAll';
import { sandboxAvailable } from '../helpers/sandboxAvailable';
import { sandboxTestUsers } from '../helpers/sandboxUsers';
import { ANY_MARKER, MARKERS } from '../helpers/socketFixtures';

const available =
  sandboxAvailable() &&
  requireSystemPart('ssh-agent', 'the SSH agent fixture') &&
  requireSystemPart('setpriv', 'runs the agent as an unprivileged user');
const users = available ? sandboxTestUsers('hardening-acp') : [];

let server: MockModelServer;
beforeAll(async () => {
  server = await startMockModelServer();
});
afterAll(async () => {
  await server?.close();
});

describe.skipIf(!available)('jarvis acp in manual mode against the sandbox hardening attacks', () => {
  describe.each(users.map((u) => [u.label, u] as const))('as %s', (_label, user) => {
    let world: HardeningCliWorld;
    beforeAll(async () => {
      world = await makeHardeningCliWorld(user);
    });
    afterAll(async () => {
      await world?.close();
    });

    it('runs the approved commands sandboxed, and their attacks reach nothing', async () => {
      expect(await world.plain(world.socketAttack)).toContain(MARKERS.agent);
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
        server.push(
          {
            toolCalls: [
              { id: 'caps', name: 'Bash', arguments: { command: world.capsAttack } },
              { id: 'sockets', name: 'Bash', arguments: { command: world.socketAttack } },
            ],
          },
          { text: 'Done.' },
        );
        const before = server.requests.length;
        const response = await editor.connection.agent.request('session/prompt', {
          sessionId,
          prompt: [{ type: 'text', text: 'go' }],
        });
        expect(response.stopReason).toBe('end_turn');
        expect(editor.permissionRequests.length, editor.stderr()).toBe(2);
        const results = new Map<string, string>();
        for (const m of server.requests[before + 1].body.messages)
          if (m.role === 'tool') results.set(m.tool_call_id, String(m.content));
        const caps = results.get('caps') ?? '';
        expect(caps).toContain(`uid=${user.uid}`);
        expect(caps).toMatch(/CapEff:\s+0000000000000000/);
        expect(caps).not.toMatch(/CapEff:\s+0*[1-9a-f]/);
        expect(caps).not.toContain('SSH-KEY-SECRET');
        const sockets = results.get('sockets') ?? '';
        expect(sockets).toContain('no-socket-variables');
        expect(sockets).not.toMatch(ANY_MARKER);
        expect(world.fixtures.hits()).toBe(hits);
        expect(world.canaryFiles()).toEqual([]);
      } finally {
        await editor.close();
      }
    });
  });
});
