// The sandbox hardening through the built CLI in print mode (docs/sandbox.md#capabilities,
// #unix-sockets-and-seccomp): a scripted model sends the capability attack (remount /, unmount a mask, unshare -r)
// and the socket attack (the SSH agent Jarvis was started with, a D-Bus bus, docker.sock, a socket file outside, an
// abstract socket) through Bash. The socket attack is first shown to reach the fixtures in plain bash; through the
// CLI nothing is reached, no capability is held, canaries stay untouched. As root and as an unprivileged user.
import { expect, it } from 'vitest';
import { mockModelEnv, runJarvis } from '../helpers/cli';
import { describeHardeningEndToEnd, expectAttacksRefused, pushAttackTurn } from '../helpers/hardeningCli';

describeHardeningEndToEnd('hardening-print', 'jarvis -p against the sandbox hardening attacks', (ctx) => {
  it('refuses the capability and socket attacks a model sends through Bash', async () => {
    const [server, world] = [ctx.server(), ctx.world()];
    const hits = world.fixtures.hits();
    pushAttackTurn(server, world);
    const before = server.requests.length;
    const r = await runJarvis(['-p', 'go'], {
      env: world.env(mockModelEnv(server.baseUrlFor('openai'))),
      cwd: world.cwd,
      timeoutMs: 120_000,
      launcher: world.launcher,
    });
    expect(r.code, r.stderr).toBe(0);
    expectAttacksRefused(server, before + 1, world, hits);
  });
});
