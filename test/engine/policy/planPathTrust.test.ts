// The plan file a resumed session uses comes from its journal, which is read back as untrusted input (docs/sessions.md,
// "What a resume trusts"): only a plan path of this session's scratch folder is kept; a record pointing anywhere else
// gets a fresh plan file, so plan mode never lets a Write (or `/plan clear` a removal) reach another file. A plan of a
// session made before the scratch folder existed is carried over.
import { appendFileSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeEngine, runPrompt, skipReplayCheck, verifyEnginesAfterEach } from '../../helpers/engineHarness';
import { tempDir } from '../../helpers/files';

verifyEnginesAfterEach();

const line = (body: Record<string, unknown>) => `${JSON.stringify({ v: 1, ts: 1, ...body })}\n`;

async function resumedWith(planPath: (sessionDir: string) => string, before?: (sessionDir: string) => void) {
  const first = makeEngine({ responses: [{ text: 'ok' }] });
  await runPrompt(first, 'hello');
  const dir = first.runtime.session.dir;
  before?.(dir);
  appendFileSync(first.runtime.session.journalPath, line({ type: 'plan_mode', active: true, planPath: planPath(dir) }));
  await first.runtime.close();
  skipReplayCheck(first);
  const resumed = makeEngine({
    resume: first.runtime.session.location,
    dirs: { home: first.home, cwd: first.cwd },
    responses: [],
  });
  return resumed;
}

describe('a plan path read back from the journal', () => {
  it('pointing outside the scratch folder is replaced; /plan clear removes nothing there', async () => {
    const outside = join(tempDir(), '.bashrc');
    writeFileSync(outside, 'the user\n');
    const resumed = await resumedWith(() => outside);
    const plan = resumed.runtime.plan;
    expect(plan.active).toBe(true);
    expect(plan.planPath).toMatch(
      new RegExp(`^${resumed.runtime.session.scratchDir}/plans/main/plan-[0-9a-f]{8}\\.md$`),
    );
    expect(resumed.runtime.session.state.sessionApprovals).not.toContain(`Write(${outside})`);
    plan.clearPlan();
    expect(readFileSync(outside, 'utf8')).toBe('the user\n');
  });

  it('inside the scratch folder, behind a link a command planted there: nothing is removed through it', async () => {
    const elsewhere = tempDir();
    const resumed = await resumedWith(
      (dir) => join(dir, 'scratch', 'plans', 'main', 'plan-0badf00d.md'),
      (dir) => {
        mkdirSync(join(dir, 'scratch', 'plans'), { recursive: true });
        symlinkSync(elsewhere, join(dir, 'scratch', 'plans', 'main'));
      },
    );
    // The recorded path is kept as a string (it names this session's plans folder), but the file tools judge the
    // canonical path: a write through the link lands outside the workspace and is refused there.
    expect(resumed.runtime.plan.planPath).toBe(
      join(resumed.runtime.session.dir, 'scratch', 'plans', 'main', 'plan-0badf00d.md'),
    );
    writeFileSync(join(elsewhere, 'plan-0badf00d.md'), 'not a plan of ours\n');
    resumed.runtime.plan.clearPlan();
    expect(readFileSync(join(elsewhere, 'plan-0badf00d.md'), 'utf8')).toBe('not a plan of ours\n');
    const warned = resumed.eventsOf('notice').map((n) => n.text);
    expect(warned.join('\n')).toMatch(/was not removed: .*main is a symbolic link/);
  });

  it('of a session made before the scratch folder existed: the plan is carried over', async () => {
    const resumed = await resumedWith(
      (dir) => join(dir, 'agents', 'main', 'plans', 'plan-1234abcd.md'),
      (dir) => {
        mkdirSync(join(dir, 'agents', 'main', 'plans'), { recursive: true });
        writeFileSync(join(dir, 'agents', 'main', 'plans', 'plan-1234abcd.md'), '# The old plan\n');
      },
    );
    const planPath = resumed.runtime.plan.planPath!;
    expect(planPath.startsWith(join(resumed.runtime.session.scratchDir, 'plans', 'main'))).toBe(true);
    expect(readFileSync(planPath, 'utf8')).toBe('# The old plan\n');
    expect(resumed.runtime.session.state.sessionApprovals).toContain(`Write(${planPath})`);
  });
});
