// Shell mode (`!cmd`) is bounded like Bash: capped output with the whole of it saved, an interrupt that
// stops the whole process group (SIGTERM, grace, SIGKILL), nothing left running.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { groupMembers } from '../../src/platform/processes';
import { runShellCommand, shellContext, SHELL_CONTEXT_MAX_CHARS } from '../../src/ui/shellMode';

const dirs = () => {
  const root = mkdtempSync(join(tmpdir(), 'jarvis-shell-'));
  return { cwd: root, scratchDir: root };
};

describe('shell mode', () => {
  it('keeps the start and the end of a long output, saves the whole of it, and says where', async () => {
    const streamed: string[] = [];
    const run = runShellCommand('for i in $(seq 1 30000); do echo "line $i"; done', dirs(), (t) => streamed.push(t));
    const result = await run.done;
    expect(result.exitCode).toBe(0);
    expect(result.output.length).toBeLessThan(SHELL_CONTEXT_MAX_CHARS + 200);
    expect(result.output).toMatch(/^line 1\n/);
    expect(result.output).toMatch(/line 30000\n$/);
    expect(result.omittedChars).toBeGreaterThan(200_000);
    const whole = readFileSync(result.savedTo!, 'utf8');
    expect(whole.split('\n')).toHaveLength(30_001);
    expect(streamed.join('')).toBe(whole);
    const context = shellContext('print lines', result);
    expect(context).toContain(`the whole of it is saved at ${result.savedTo}`);
    expect(context.length).toBeLessThan(SHELL_CONTEXT_MAX_CHARS + 500);
  });

  it('an interrupt stops the whole process group, escalating to SIGKILL when SIGTERM is ignored', async () => {
    let started = '';
    // bash is the group's leader, so $$ is the group id.
    const run = runShellCommand(
      'trap "" TERM; sleep 300 & sleep 301 & echo "group $$"; wait',
      { ...dirs(), graceMs: 300 },
      (t) => (started += t),
    );
    while (!/group \d+\n/.test(started)) await new Promise((r) => setTimeout(r, 10));
    const pgid = Number(/group (\d+)/.exec(started)![1]);
    expect(groupMembers(pgid).length).toBe(3);
    await run.interrupt();
    expect(groupMembers(pgid)).toEqual([]);
    const result = await run.done;
    expect(result.interrupted).toBe(true);
    expect(result.exitCode).toBeNull();
    expect(shellContext('sleepers', result)).toContain('[The user interrupted the command.]');
  });

  it('a command that cannot start reports it as output', async () => {
    const d = dirs();
    const result = await runShellCommand('true', { ...d, cwd: join(d.cwd, 'missing') }, () => {}).done;
    expect(result.output).toMatch(/could not start the shell/);
  });
});
