// A Kimi Code plugin as its users write it (test/fixtures/foreign/kimi-plugin-greeter: a root plugin.json with
// `tools`, `config_file` + `inject`, and the `runtime` block Kimi Code writes at install), installed and used through
// the built CLI (docs/compatibility.md "Kimi plugins"): the manifest is read, credentials injection is reported once,
// `jarvis plugin info` names each tool and the program it runs, and the model calls `greeter__py_greet` and
// `greeter__sh_sum` — the programs run in the plugin folder with the arguments as JSON on stdin and their stdout is
// the result; arguments against the schema are refused before anything runs; a failing program is the call's error
// with its stderr.
import { resolve } from 'node:path';
import { beforeAll, afterAll, describe, expect, it } from 'vitest';
import { cliEnv, makeCliDirs, mockModelEnv, runJarvis, type CliDirs } from '../helpers/cli';
import { startMockModelServer, toolResultIn, type MockModelServer } from '../helpers/mockModelServer';

const FIXTURE = resolve(__dirname, '../fixtures/foreign/kimi-plugin-greeter');

let model: MockModelServer;
let dirs: CliDirs;
beforeAll(async () => {
  model = await startMockModelServer();
  dirs = makeCliDirs();
});
afterAll(async () => {
  await model.close();
});

const toolMessage = (id: string): string => toolResultIn(model.requests, id);

describe('a Kimi Code plugin (root plugin.json with tools)', () => {
  it('installs, says once what it does not take, and lists its tools with the programs they run', async () => {
    const installed = await runJarvis(['plugin', 'install', FIXTURE], { env: cliEnv(dirs), cwd: dirs.cwd });
    expect(installed.code, installed.stderr).toBe(0);
    expect(installed.stdout).toContain('Installed greeter 1.0.0');
    const notices = installed.stdout.split('\n').filter((l) => l.includes('credentials injection'));
    expect(notices).toEqual([
      '  - "config_file", "inject": credentials injection is not supported (Jarvis gives plugins no API key or endpoint); ignored',
    ]);
    expect(installed.stdout).not.toMatch(/"runtime"|"tools"|no plugin manifest/);
    const info = await runJarvis(['plugin', 'info', 'greeter'], { env: cliEnv(dirs), cwd: dirs.cwd });
    expect(info.stdout).toContain('Manifest: plugin.json');
    expect(info.stdout).toContain('  greeter__py_greet — python3 scripts/greet.py');
    expect(info.stdout).toContain('  greeter__sh_sum — sh scripts/sum.sh');
  }, 60_000);

  it('the model calls its tools: JSON on stdin, stdout back; bad arguments and a failing program are errors', async () => {
    model.push(
      {
        toolCalls: [
          { id: 'call_greet', name: 'greeter__py_greet', arguments: { name: 'Ada', lang: 'ja' } },
          { id: 'call_sum', name: 'greeter__sh_sum', arguments: { numbers: [1, 2, 39] } },
          { id: 'call_bad', name: 'greeter__py_greet', arguments: { lang: 'fr' } },
          { id: 'call_fail', name: 'greeter__py_greet', arguments: { name: 'nobody' } },
        ],
      },
      { text: 'Done.' },
    );
    const r = await runJarvis(['-p', 'greet Ada and add up 1 2 39'], {
      env: cliEnv(dirs, mockModelEnv(model.baseUrlFor('openai'))),
      cwd: dirs.cwd,
      timeoutMs: 60_000,
    });
    expect(r.code, r.stderr).toBe(0);
    const offered = JSON.stringify(model.requests[0].body.tools);
    expect(offered).toContain('greeter__py_greet');
    expect(offered).toContain('Generate a greeting message (Python tool)');
    expect(toolMessage('call_greet')).toContain('{"content": "こんにちは, Ada! (from greeter)"}');
    expect(toolMessage('call_sum')).toContain('{"content": "42"}');
    expect(toolMessage('call_bad')).toContain(
      'Invalid arguments for greeter__py_greet:\n- name: is required but missing',
    );
    expect(toolMessage('call_fail')).toContain('Plugin tool py_greet exited with 3: refusing to greet nobody');
  }, 90_000);
});
