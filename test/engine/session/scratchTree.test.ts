// The scratch folder is the part of a session sandboxed commands may write (docs/sessions.md, "The scratch folder"),
// so whatever Jarvis does there — save and sweep outputs, read a task's output back, copy it into a fork, keep a `!`
// command's output — follows no link and opens no special file a command left. Rows: {name, plant, act, check}.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { forkSession } from '../../../src/engine/session/fork';
import { sweepToolOutputs, TOOL_OUTPUT_RETENTION_MS } from '../../../src/store/toolOutputs';
import { runShellCommand } from '../../../src/ui/shellMode';
import {
  makeEngine,
  runPrompt,
  skipReplayCheck,
  verifyEnginesAfterEach,
  type EngineHarness,
} from '../../helpers/engineHarness';
import { tempDir } from '../../helpers/files';

verifyEnginesAfterEach();

const SECRET = 'SECRET-OF-THE-USER\n';
const longAgo = (Date.now() - TOOL_OUTPUT_RETENTION_MS - 60_000) / 1000;

interface World {
  h: EngineHarness;
  scratch: string;
  /** A folder outside everything, holding the user's secret and an old file. */
  outside: string;
}

interface Row {
  name: string;
  plant(w: World): void;
  act(w: World): Promise<unknown>;
  check(w: World, result: unknown): void;
}

const rows: Row[] = [
  {
    name: 'the sweep never deletes through a linked tool-outputs folder',
    plant: (w) => symlinkSync(w.outside, join(w.scratch, 'tool-outputs')),
    act: (w) => sweepToolOutputs(dirname(w.h.runtime.session.dir)),
    check: (w) => expect(readdirSync(w.outside).sort()).toEqual(['old.txt', 'secret.txt']),
  },
  {
    name: 'the sweep removes an old link in tool-outputs, never its target',
    plant: (w) => {
      mkdirSync(join(w.scratch, 'tool-outputs'));
      symlinkSync(join(w.outside, 'old.txt'), join(w.scratch, 'tool-outputs', 'main-1-0-1.txt'));
    },
    act: (w) => sweepToolOutputs(dirname(w.h.runtime.session.dir)),
    check: (w) => expect(readFileSync(join(w.outside, 'old.txt'), 'utf8')).toBe('old\n'),
  },
  {
    name: "a task's output swapped for a link to a secret is refused, not read",
    plant: () => undefined,
    act: async (w) => {
      const task = w.h.runtime.tasks.startProcess({
        command: 'echo done',
        cwd: w.h.cwd,
        description: 'x',
        timeoutMs: null,
      });
      await w.h.runtime.tasks.waitFor({ taskId: task.id, timeoutMs: 10_000 });
      const output = join(w.scratch, 'tasks', task.id, 'output.log');
      spawnSync('ln', ['-sf', join(w.outside, 'secret.txt'), output]);
      return w.h.runtime.tasks.readOutputTail(task.id, 1000).then(
        (tail) => tail.text,
        (e: Error) => e.message,
      );
    },
    check: (_w, result) => {
      expect(String(result)).toMatch(/output\.log is a symbolic link/);
      expect(String(result)).not.toContain('SECRET');
    },
  },
  {
    name: 'a fork copies the folders and plain files of the scratch folder, never a link or a FIFO',
    plant: (w) => {
      mkdirSync(join(w.scratch, 'plans', 'main'), { recursive: true });
      writeFileSync(join(w.scratch, 'plans', 'main', 'plan-00000001.md'), '# plan\n');
      symlinkSync(join(w.outside, 'secret.txt'), join(w.scratch, 'plans', 'main', 'plan-00000002.md'));
      expect(spawnSync('mkfifo', [join(w.scratch, 'pipe')]).status).toBe(0);
    },
    act: async (w) => forkSession(w.h.runtime, { home: w.h.home }),
    check: (_w, fork) => {
      const copy = join((fork as { sessionDir: string }).sessionDir, 'scratch');
      expect(readdirSync(copy)).toEqual(['plans']);
      expect(readdirSync(join(copy, 'plans', 'main'))).toEqual(['plan-00000001.md']);
    },
  },
  {
    name: "a `!` command's output is not written through a linked shell-outputs folder",
    plant: (w) => symlinkSync(w.outside, join(w.scratch, 'shell-outputs')),
    act: (w) => runShellCommand('echo hello', { cwd: w.h.cwd, scratchDir: w.scratch }, () => undefined).done,
    check: (w, result) => {
      expect(result).toMatchObject({ output: 'hello\n', savedTo: undefined });
      expect(readdirSync(w.outside).sort()).toEqual(['old.txt', 'secret.txt']);
    },
  },
];

describe('what Jarvis does in the scratch folder', () => {
  it.each(rows.map((r): [string, Row] => [r.name, r]))('%s', async (_name, row) => {
    const h = makeEngine({ responses: [{ text: 'ok' }] });
    skipReplayCheck(h);
    await runPrompt(h, 'hello');
    const outside = tempDir();
    writeFileSync(join(outside, 'secret.txt'), SECRET);
    writeFileSync(join(outside, 'old.txt'), 'old\n');
    utimesSync(join(outside, 'old.txt'), longAgo, longAgo);
    const w = { h, scratch: h.runtime.session.scratchDir, outside };
    row.plant(w);
    row.check(w, await row.act(w));
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe(SECRET);
  });
});
