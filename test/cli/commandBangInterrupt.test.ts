// Ctrl-C in print mode while a command's !`cmd` line hangs (docs/plugins.md, "Claude Code plugins"): the running
// line is stopped, the lines after it do not run, nothing is sent to the model, and jarvis exits as interrupted
// rather than waiting out the Bash time-out.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, collect, makeCliDirs, mockModelEnv, runJarvis, spawnJarvis, waitUntil } from '../helpers/cli';
import { tempDir } from '../helpers/files';
import { startMockModelServer, type MockModelServer } from '../helpers/mockModelServer';
import { sandboxAvailable } from '../helpers/sandboxAvailable';

let model: MockModelServer;
beforeAll(async () => {
  model = await startMockModelServer();
});
afterAll(async () => {
  await model.close();
});

const WAIT = `---
allowed-tools: Bash(touch:*), Bash(sleep:*)
description: Waits
---
A: !\`touch started.txt\`
B: !\`sleep 300\`
C: !\`touch after.txt\`
`;

describe.skipIf(!sandboxAvailable())('Ctrl-C while a !`cmd` line of jarvis -p hangs', () => {
  it('stops it, runs no later line, sends nothing and exits 130', async () => {
    const dirs = makeCliDirs();
    const root = join(tempDir(), 'hang');
    mkdirSync(join(root, '.claude-plugin'), { recursive: true });
    mkdirSync(join(root, 'commands'), { recursive: true });
    writeFileSync(join(root, '.claude-plugin/plugin.json'), JSON.stringify({ name: 'hang', version: '1.0.0' }));
    writeFileSync(join(root, 'commands/wait.md'), WAIT);
    const env = cliEnv(dirs, mockModelEnv(model.baseUrlFor('openai')));
    const installed = await runJarvis(['plugin', 'install', root], { env, cwd: dirs.cwd });
    expect(installed.code, installed.stderr).toBe(0);
    const before = model.requests.length;
    const child = spawnJarvis(['-p', '/hang:wait'], { env, cwd: dirs.cwd });
    // Far below the 300 s of the line and the 60 s Bash time-out: only a stopped line ends this soon.
    const done = collect(child, 40_000);
    await waitUntil(() => existsSync(join(dirs.cwd, 'started.txt')), 30_000, 'the first line to run');
    child.kill('SIGINT');
    const r = await done;
    expect(r.code, r.stderr).toBe(130);
    expect(existsSync(join(dirs.cwd, 'after.txt'))).toBe(false);
    expect(model.requests.length).toBe(before);
  }, 90_000);
});
