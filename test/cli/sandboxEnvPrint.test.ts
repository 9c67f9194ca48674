// Secrets in the environment end to end through `jarvis -p` (docs/sandbox.md "Secrets in the environment"): a
// model's sandboxed `Bash(printenv)` sees neither the model's API key nor a `*_TOKEN` canary, a name in
// `[sandbox] env_pass` does pass, a bad env_pass is a config error, and with the sandbox off the environment is unchanged.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockModelServer, type MockModelServer } from '../helpers/mockModelServer';
import { cliEnv, makeCliDirs, mockModelEnv, runJarvis, type CliDirs } from '../helpers/cli';
import { sandboxAvailable } from '../helpers/sandboxAvailable';

const available = sandboxAvailable();
const MODEL_KEY = 'sk-print-model-key-canary';
const CANARIES = { DEPLOY_TOKEN: 'deploy-token-canary', NPM_TOKEN: 'npm-token-canary', DB_PASSWORD: 'db-pw-canary' };
let server: MockModelServer;
beforeAll(async () => {
  server = await startMockModelServer();
});
afterAll(async () => {
  await server.close();
});

async function printenvResult(dirs: CliDirs, command = 'printenv'): Promise<string> {
  const before = server.requests.length;
  server.push({ toolCalls: [{ id: 'e', name: 'Bash', arguments: { command } }] }, { text: 'Done.' });
  const env = { ...cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))), JARVIS_MODEL_API_KEY: MODEL_KEY };
  const r = await runJarvis(['-p', 'go'], { env: { ...env, ...CANARIES }, cwd: dirs.cwd, timeoutMs: 90_000 });
  expect(r.code, r.stderr).toBe(0);
  const tool = server.requests[before + 1].body.messages.find((m: { role: string }) => m.role === 'tool');
  return String(tool?.content ?? '');
}

describe.skipIf(!available)('jarvis -p: secrets in the environment and the sandbox', () => {
  it("Bash(printenv) sees neither the model's key nor a token or password canary", async () => {
    const out = await printenvResult(makeCliDirs());
    expect(out).toContain('Exit code: 0');
    expect(out).toContain('JARVIS_CODE_HOME=');
    for (const secret of [MODEL_KEY, ...Object.values(CANARIES)]) expect(out).not.toContain(secret);
  });

  it('passes the names listed in [sandbox] env_pass, and only those', async () => {
    const dirs = makeCliDirs();
    writeFileSync(join(dirs.home, 'config.toml'), '[sandbox]\nenv_pass = ["NPM_TOKEN"]\n');
    const out = await printenvResult(dirs);
    expect(out).toContain(`NPM_TOKEN=${CANARIES.NPM_TOKEN}`);
    for (const secret of [MODEL_KEY, CANARIES.DEPLOY_TOKEN, CANARIES.DB_PASSWORD]) expect(out).not.toContain(secret);
  });

  it('refuses a bad env_pass as a config error naming the key', async () => {
    const dirs = makeCliDirs();
    writeFileSync(join(dirs.home, 'config.toml'), '[sandbox]\nenv_pass = "NPM_TOKEN"\n');
    const r = await runJarvis(['-p', 'go'], {
      env: cliEnv(dirs, mockModelEnv(server.baseUrlFor('openai'))),
      cwd: dirs.cwd,
      timeoutMs: 60_000,
    });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('sandbox.env_pass');
    expect(r.stderr).toContain('environment variable names');
  });
});

describe('jarvis -p: the environment without the sandbox', () => {
  it('passes unchanged when the sandbox is off', async () => {
    const dirs = makeCliDirs();
    writeFileSync(join(dirs.home, 'config.toml'), '[sandbox]\nenabled = false\n');
    const out = await printenvResult(dirs, 'printenv DEPLOY_TOKEN');
    expect(out).toContain(CANARIES.DEPLOY_TOKEN);
  });
});
