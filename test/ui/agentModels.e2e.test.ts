// `/usage` splits the session's usage by model, subagents included (docs/ui.md), in the interactive UI with two
// configured models: the main agent on one, a subagent whose file says `model: haiku` on the other.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { putFile } from '../helpers/files';
import { twoModelsConfig } from '../helpers/twoModels';
import { startMockModelServer, type MockModelServer, type RecordedRequest } from '../helpers/mockModelServer';
import { requireSystemPart } from '../helpers/requireAll';
import { appsClosedAfterEach, send, tempDir, waitForRequests } from './e2eHarness';

const hasTmux = requireSystemPart('tmux', 'the terminal UI is tested inside tmux');
const start = appsClosedAfterEach();
let server: MockModelServer;

const isSubagent = (req: RecordedRequest) => JSON.stringify(req.body.messages[1]).includes('Count the files.');
beforeAll(async () => {
  server = await startMockModelServer({
    script: (req) => {
      if (isSubagent(req)) return { text: 'Three files.', usage: { input: 700, output: 7 } };
      const delegated = req.body.messages.some((m: { role: string }) => m.role === 'tool');
      return delegated
        ? { text: 'The scout says three.', usage: { input: 3000, output: 30 } }
        : {
            toolCalls: [
              {
                name: 'Agent',
                arguments: { description: 'count', prompt: 'Count the files.', subagent_type: 'scout' },
              },
            ],
            usage: { input: 2000, output: 20 },
          };
    },
  });
});
afterAll(async () => {
  await server.close();
});

describe.skipIf(!hasTmux)('/usage by model (tmux)', { timeout: 90_000 }, () => {
  it("lists each model's tokens and requests, the subagent's model included", async () => {
    const home = tempDir('jarvis-ui-models-');
    writeFileSync(join(home, 'config.toml'), twoModelsConfig(server.baseUrlFor('openai')));
    putFile(
      join(home, 'agents/scout.md'),
      '---\nname: scout\ndescription: Looks around.\nmodel: haiku\n---\nYou look around.\n',
    );
    const app = await start({ home, server, args: ['-m', 'main'] });
    send(app, 'how many files?');
    await app.tmux.waitFor('The scout says three.', { timeoutMs: 30_000 });
    await waitForRequests(app, 3);
    expect(app.server.requests.map((q) => q.body.model).sort()).toEqual(['fast-model', 'main-model', 'main-model']);
    send(app, '/usage');
    const screen = await app.tmux.waitFor('By model (subagents included)');
    expect(screen).toMatch(/fast-model\s+700 in\s+7 out\s+1 request\b/);
    expect(screen).toMatch(/main-model\s+5,000 in\s+50 out\s+2 requests/);
  });
});
