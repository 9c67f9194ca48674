// The sandbox hardening through the built CLI in print mode (docs/sandbox.md#capabilities,
// #unix-sockets-and-seccomp): a scripted model sends the capability attack (remount /, unmount a mask, unshare -r)
// and the socket attack (the SSH agent Jarvis was started with, a D-Bus bus, docker.sock, a socket file outside, an
// abstract socket) through Bash. The socket attack is first shown to reach the fixtures in plain bash; through the
// CLI nothing is reached, no capability is held, canaries stay untouched. As root and as an unprivileged user.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mockModelEnv, runJarvis } from '../helpers/cli';
import { makeHardeningCliWorld, type HardeningCliWorld } from '../helpers/hardeningCli';
import { startMockModelServer, type MockModelServer } from '../helpers/mockModelServer';
import { requireSystemPart } from '../helpers/requireAll';
import { sandboxAvailable } from '../helpers/sandboxAvailable';
import { sandboxTestUsers } from '../helpers/sandboxUsers';
import { ANY_MARKER, MARKERS } from '../helpers/socketFixtures';

const available =
  sandboxAvailable() &&
  requireSystemPart('ssh-agent', 'the SSH agent fixture') &&
  requireSystemPart('setpriv', 'runs the CLI as an unprivileged user');
const users = available ? sandboxTestUsers('hardening-print') : [];

let server: MockModelServer;
beforeAll(async () => {
  server = await startMockModelServer();
});
afterAll(async () => {
  await server?.close();
});

describe.skipIf(!available)('jarvis -p against the sandbox hardening attacks', () => {
  describe.each(users.map((u) => [u.label, u] as const))('as %s', (_label, user) => {
    let world: HardeningCliWorld;
    beforeAll(async () => {
      world = await makeHardeningCliWorld(user);
    });
    afterAll(async () => {
      await world?.close();
    });

    it('refuses the capability and socket attacks a model sends through Bash', async () => {
      const proof = await world.plain(world.socketAttack);
      expect(proof).toMatch(ANY_MARKER);
      expect(proof).toContain(MARKERS.agent);
      const hits = world.fixtures.hits();
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
      const r = await runJarvis(['-p', 'go'], {
        env: world.env(mockModelEnv(server.baseUrlFor('openai'))),
        cwd: world.cwd,
        timeoutMs: 120_000,
        launcher: world.launcher,
      });
      expect(r.code, r.stderr).toBe(0);
      const results = new Map<string, string>();
      for (const m of server.requests[before + 1].body.messages)
        if (m.role === 'tool') results.set(m.tool_call_id, String(m.content));
      const caps = results.get('caps') ?? '';
      expect(caps).toContain(`uid=${user.uid}`);
      expect(caps).toMatch(/CapEff:\s+0000000000000000/);
      expect(caps).toMatch(/NoNewPrivs:\s+1/);
      expect(caps).not.toMatch(/CapEff:\s+0*[1-9a-f]/);
      expect(caps).not.toContain('SSH-KEY-SECRET');
      const sockets = results.get('sockets') ?? '';
      expect(sockets).toContain('no-socket-variables');
      expect(sockets).not.toMatch(ANY_MARKER);
      expect(world.fixtures.hits()).toBe(hits);
      expect(world.canaryFiles()).toEqual([]);
    });
  });
});
