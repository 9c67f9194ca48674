// Kimi Code plugin tools (ext/plugins/kimiPlugin.ts): each `tools` entry is checked (a bad one is a diagnostic naming
// it, the others stay), and a run is bounded — output past 1 MiB and a cancelled call stop the program's whole group.
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { readKimiTools, runKimiTool, type KimiTool } from '../../../src/ext/plugins/kimiPlugin';

describe('readKimiTools', () => {
  it('keeps the good entries and names each bad one', () => {
    const diags: string[] = [];
    const tools = readKimiTools(
      [
        { name: 'ok', description: 'fine', command: ['python3', 'x.py'] },
        { name: 'no command', description: 'd', command: [] },
        { name: 'bare', description: 'd', command: 'python3 x.py' },
        { name: 'nodesc', command: ['x'] },
        { name: 'ok', description: 'again', command: ['y'] },
        { name: 'schema', description: 'd', command: ['z'], parameters: 'object' },
        'greet',
      ],
      (t) => diags.push(t),
    );
    expect(tools.map((t) => t.name)).toEqual(['ok']);
    expect(tools[0].parameters).toEqual({ type: 'object', properties: {} });
    expect(diags).toEqual([
      'tools[1] "no command": "name" must be 1-64 letters, digits, "_" or "-"; the tool is not offered',
      'tools[2] "bare": "command" must be a non-empty array of strings (the program and its arguments); the tool is not offered',
      'tools[3] "nodesc": "description" is required; the tool is not offered',
      'tools[4] "ok": the name is used by an earlier tool; the tool is not offered',
      'tools[5] "schema": "parameters" must be a JSON Schema object; the tool is not offered',
      'tools[6]: "name" must be 1-64 letters, digits, "_" or "-"; the tool is not offered',
    ]);
    expect(readKimiTools({ greet: {} }, (t) => diags.push(t))).toEqual([]);
    expect(diags.at(-1)).toContain('"tools" must be an array');
  });
});

const tool = (command: string[]): KimiTool => ({ name: 't', description: 'd', command, parameters: {} });

describe('runKimiTool', () => {
  it('stops a program that prints more than the limit', async () => {
    const r = await runKimiTool(tool(['sh', '-c', 'yes xxxxxxxxxxxxxxxx']), tmpdir(), {}, new AbortController().signal);
    expect(r).toEqual({
      ok: false,
      error: expect.stringMatching(/^Plugin tool t was stopped: it printed more than 1048576 bytes/),
    });
  });

  it('a cancelled call stops the program and everything it started', async () => {
    const stop = new AbortController();
    const run = runKimiTool(tool(['sh', '-c', 'sleep 300 & echo started; wait']), tmpdir(), {}, stop.signal);
    stop.abort();
    const r = await run;
    expect(r).toMatchObject({ ok: false, error: expect.stringContaining('was stopped: the call was cancelled') });
  });

  it('a program that does not exist is said with its name', async () => {
    const r = await runKimiTool(tool(['no-such-kimi-tool-xyz']), tmpdir(), {}, new AbortController().signal);
    expect(r).toMatchObject({
      ok: false,
      error: expect.stringContaining('could not be started (no-such-kimi-tool-xyz)'),
    });
  });
});

describe('the environment of a plugin tool', () => {
  it('has no secret-looking variables (an API key stays with Jarvis) and names the plugin folder', async () => {
    process.env.KIMI_TEST_API_KEY = 'sk-should-not-leak';
    try {
      const script = 'echo "key=${KIMI_TEST_API_KEY:-unset} root=$JARVIS_PLUGIN_ROOT"';
      const r = await runKimiTool(tool(['sh', '-c', script]), tmpdir(), {}, new AbortController().signal);
      expect(r).toEqual({ ok: true, output: `key=unset root=${tmpdir()}` });
    } finally {
      delete process.env.KIMI_TEST_API_KEY;
    }
  });
});
