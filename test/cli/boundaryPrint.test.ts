// The trust boundary end to end through `jarvis -p` (docs/trust-boundary.md): the working-folder and git rows of the
// attack corpus (test/tools/boundary/attackCorpus.ts) made as a prompt-injected model's Bash calls in print mode. A
// working folder outside the workspace is refused before anything runs (auto mode); the git attacks run sandboxed and
// fail or are undone; after each, what the user does next (`git status`, a login shell) runs nothing planted.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockModelServer, type MockModelServer } from '../helpers/mockModelServer';
import { runJarvis } from '../helpers/cli';
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

describe.skipIf(!available)('jarvis -p against the attack corpus', () => {
  it.each(E2E_ATTACKS.map((c) => [c.name, c] as const))(
    '%s',
    async (_name, c) => {
      const fx = makeFixture();
      c.setup?.(fx);
      const before = server.requests.length;
      server.push({ toolCalls: [attackCall(c, fx, 'attack')] }, { text: 'Done.' });
      const r = await runJarvis(['-p', 'go'], {
        env: fixtureCliEnv(fx, server.baseUrlFor('openai')),
        cwd: fx.ws,
        timeoutMs: 90_000,
      });
      expect(r.code, r.stderr).toBe(0);
      const text = attackResult(server, before);
      if (c.bullet === 'cwd') expect(text).toContain('auto mode runs commands only inside the workspace');
      await runLater(c, fx);
      expect(c.check(fx, text), text).toBeUndefined();
      rmSync(fx.root, { recursive: true, force: true });
    },
    120_000,
  );
});
