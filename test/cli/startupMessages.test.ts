// Start-up problems get one clear line, not a stack trace.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliEnv, makeCliDirs, mockModelEnv, runJarvis } from '../helpers/cli';

describe('start-up messages', () => {
  it('an unusable JARVIS_CODE_HOME gives one line naming it, exit 1', async () => {
    const dirs = makeCliDirs();
    const blocker = join(dirs.cwd, 'not-a-folder');
    writeFileSync(blocker, 'a file where the data folder should be');
    const home = join(blocker, 'home');
    const env = { ...cliEnv(dirs, mockModelEnv('http://127.0.0.1:9/v1')), JARVIS_CODE_HOME: home };
    const r = await runJarvis(['-p', 'hello'], { env, cwd: dirs.cwd });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `jarvis: cannot use the data folder ${home} (JARVIS_CODE_HOME): it is not a writable directory (ENOTDIR). Set JARVIS_CODE_HOME to a folder you can write to.\n`,
    );
  });

  it('a key without JARVIS_MODEL_PROVIDER_TYPE or a base URL is sent nowhere: exit 1 naming the variable', async () => {
    const dirs = makeCliDirs();
    const env = mockModelEnv('http://127.0.0.1:9/v1');
    const { JARVIS_MODEL_PROVIDER_TYPE: _type, JARVIS_MODEL_BASE_URL: _url, ...rest } = env;
    const r = await runJarvis(['-p', 'hello'], { env: cliEnv(dirs, rest), cwd: dirs.cwd });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('JARVIS_MODEL_PROVIDER_TYPE is not set');
    expect(r.stderr).toContain('the key is only ever sent to the endpoint you name');
  });
});
