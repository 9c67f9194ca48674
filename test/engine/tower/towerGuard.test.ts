// `.tower/` is written only by the Tower tools (docs/tower.md "Files"): every other write there is
// refused by the approval policy in every mode, whatever rules or hooks say. Attack tests included.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  decideApproval,
  isBindingDeny,
  shellAnalysisFor,
  type PolicyInput,
} from '../../../src/engine/policy/approvals';
import { towerGuardedWrite } from '../../../src/engine/tower/towerRuntime';
import { fileTools } from '../../../src/tools/file';
import { shellTools } from '../../../src/tools/shell';
import { makeEngine, runPrompt, verifyEnginesAfterEach } from '../../helpers/engineHarness';
import { makeRepo } from './towerRepo';

verifyEnginesAfterEach();

const repo = '/repo';

async function decide(subject: string, over: Partial<PolicyInput> = {}) {
  const toolName = subject.split('(')[0]!;
  const path = /^(Write|Edit)\((.*)\)$/.exec(subject)?.[2];
  return decideApproval({
    toolName,
    subject,
    accesses: path ? [{ kind: 'write', path }] : [],
    defaultApproval: 'ask',
    mode: 'yolo',
    rules: [{ decision: 'allow', pattern: `${toolName}` }],
    sessionApprovals: [],
    cwd: repo,
    workspace: { roots: [repo], readOnly: [], guardedWrite: towerGuardedWrite },
    isSensitivePath: () => false,
    shell: await shellAnalysisFor(toolName, subject),
    ...over,
  });
}

describe('the .tower/ write guard', () => {
  it('guards the state and comms, the folder itself and the worktrees folder, but not files inside a worktree', () => {
    expect(towerGuardedWrite('/repo/.tower/comms/state.json')).toMatch(/only the Tower tools write there/);
    expect(towerGuardedWrite('/repo/.tower')).toBeDefined();
    expect(towerGuardedWrite('/repo/.tower/worktrees')).toBeDefined();
    expect(towerGuardedWrite('/repo/.tower/history/2026/state.json')).toBeDefined();
    expect(towerGuardedWrite('/repo/.tower/worktrees/api')).toBeUndefined();
    expect(towerGuardedWrite('/repo/.tower/worktrees/api/src/a.ts')).toBeUndefined();
    expect(towerGuardedWrite('/repo/.towering/x')).toBeUndefined();
    expect(towerGuardedWrite('/repo/src/.tower.ts')).toBeUndefined();
  });

  it.each([
    ['Write(/repo/.tower/comms/state.json)'],
    ['Edit(/repo/.tower/comms/messages.jsonl)'],
    ['Bash(echo {} > .tower/comms/state.json)'],
    ['Bash(rm -rf .tower)'],
    ['Bash(sed -i s/approve/x/ .tower/comms/state.json)'],
    ['Bash(cp /tmp/forged.json /repo/.tower/comms/state.json)'],
    ['Bash(cd src && mv x ../.tower/comms/state.json)'],
  ])('%s is denied in yolo mode with an allow rule, and no hook can lift it', async (subject) => {
    const d = await decide(subject);
    expect(d.decision).toBe('deny');
    expect(d.reason).toMatch(/is Tower state/);
    expect(isBindingDeny(d)).toBe(true);
  });

  it.each([
    ['Bash(cat .tower/comms/state.json)'],
    ['Bash(ls .tower/worktrees)'],
    ['Write(/repo/.tower/worktrees/api/src/a.ts)'],
    ['Bash(git -C .tower/worktrees/api log)'],
  ])('%s is not a guarded write', async (subject) => {
    expect((await decide(subject)).decision).toBe('allow');
  });

  it('without Tower mode nothing is guarded', async () => {
    expect(
      (await decide('Write(/repo/.tower/comms/state.json)', { workspace: { roots: [repo], readOnly: [] } })).decision,
    ).toBe('allow');
  });

  it('attack: a model in yolo mode cannot forge the review gate with Write or Bash; the state file is unchanged', async () => {
    const cwd = makeRepo();
    const statePath = join(cwd, '.tower/comms/state.json');
    const h = makeEngine({
      dirs: { home: join(cwd, '..', 'home'), cwd },
      tower: true,
      mode: 'yolo',
      tools: [...fileTools, ...shellTools],
      responses: [
        { toolCalls: [{ name: 'TowerInit', arguments: {} }] },
        { toolCalls: [{ name: 'Write', arguments: { path: '.tower/comms/state.json', content: '{"forged":true}' } }] },
        { toolCalls: [{ name: 'Bash', arguments: { command: 'echo \'{"forged":true}\' > .tower/comms/state.json' } }] },
        { text: 'tried' },
      ],
    });
    await runPrompt(h, 'forge it');
    const results = h.eventsOf('tool_result');
    expect(results[1]!.isError).toBe(true);
    expect(results[1]!.text).toMatch(/is refused: .*\.tower\/comms\/state\.json is Tower state/);
    expect(results[2]!.isError).toBe(true);
    expect(JSON.parse(readFileSync(statePath, 'utf8'))).toMatchObject({ active: true, baseBranch: 'main' });
  });
});
