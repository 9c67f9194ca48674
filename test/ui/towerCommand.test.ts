// `/tower` in the TUI (docs/tower.md "In the terminal UI"), against a real runtime on a git repository.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TOWER_TOOL_NAMES } from '../../src/tools/tower';
import type { Runtime } from '../../src/engine/runtime/runtime';
import { findCommand, type CommandHost } from '../../src/ui/slashCommands';
import { builtinTools } from '../../src/tools/registry';
import { makeEngine } from '../helpers/engineHarness';
import { makeRepo } from '../engine/tower/towerRepo';

function hostFor(runtime: Runtime) {
  const seen = {
    notices: [] as string[],
    popups: [] as Array<{ title: string; lines: string[] }>,
    prompts: [] as Array<{ text: string; modelText: string }>,
  };
  const host = {
    busy: false,
    runtime,
    ensureRuntime: () => runtime,
    notice: (level: string, text: string, hint?: string) =>
      seen.notices.push(`${level}: ${text}${hint ? ` (${hint})` : ''}`),
    popup: (title: string, lines: string[]) => seen.popups.push({ title, lines }),
    sendCommandPrompt: (text: string, modelText: string) => seen.prompts.push({ text, modelText }),
  } as unknown as CommandHost;
  return { seen, run: (args: string) => findCommand('tower')!.run(host, args) };
}

describe('/tower', () => {
  it('without the experimental flag says how to enable it', async () => {
    const h = makeEngine({ tools: builtinTools(), responses: [] });
    const { seen, run } = hostFor(h.runtime);
    await run('status');
    expect(seen.notices).toEqual([
      expect.stringMatching(
        /^error: Tower mode is experimental and not enabled in this session\. \(Start jarvis with JARVIS_CODE_EXPERIMENTAL_TOWER=1/,
      ),
    ]);
  });

  it('on initialises the workspace and loads the coordinator tools; status opens the dashboard; <objective> sends the coordinator brief; off and teardown', async () => {
    const repo = makeRepo();
    const h = makeEngine({
      dirs: { home: join(repo, '..', 'home'), cwd: repo },
      tools: builtinTools(),
      tower: true,
      responses: [],
    });
    const { seen, run } = hostFor(h.runtime);
    await run('on');
    expect(seen.notices.at(-1)).toMatch(/^info: Tower mode on\. Tower initialised in .*Base branch: main/);
    expect(h.runtime.offered.list().map((t) => t.name)).toEqual(expect.arrayContaining(TOWER_TOOL_NAMES));
    expect(existsSync(join(repo, '.tower/comms/state.json'))).toBe(true);

    await run('');
    expect(seen.popups.at(-1)!.title).toBe('Tower');
    expect(seen.popups.at(-1)!.lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Tower active in /),
        'Missions (0):',
        'Review gate:',
        'Inbox: 0 unread for tower',
      ]),
    );

    await run('Add a health endpoint and a status page');
    expect(seen.notices.at(-1)).toMatch(/Tower is already active/);
    expect(seen.prompts).toEqual([
      {
        text: '/tower Add a health endpoint and a status page',
        modelText: expect.stringContaining(
          'Act as the Tower coordinator for this objective:\n\nAdd a health endpoint and a status page',
        ),
      },
    ]);

    await run('off');
    expect(seen.notices.at(-1)).toMatch(/^info: Tower mode off: its agents were stopped/);
    await run('teardown');
    expect(seen.popups.at(-1)).toMatchObject({
      title: 'Tower teardown',
      lines: expect.arrayContaining(['Tower torn down: 0 worktrees removed.']),
    });
    await run('status');
    expect(seen.popups.at(-1)!.lines[0]).toMatch(/^Tower torn down in /);
  });
});
