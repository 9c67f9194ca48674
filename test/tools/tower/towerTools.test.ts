// The Tower tools' argument checks and their answer when the calling agent is not a Tower agent
// (docs/tower.md "The tools"): malformed arguments get field-by-field errors and never reach the engine.
import { describe, expect, it } from 'vitest';
import { towerTools } from '../../../src/tools/tower';
import { makeToolHarness } from '../../helpers/toolHarness';

const tool = (name: string) => towerTools.find((t) => t.name === name)!;

describe('Tower tool arguments', () => {
  it.each([
    ['TowerPlan', { missions: [] }, /missions: a plan needs at least one mission/],
    [
      'TowerPlan',
      { missions: [{ id: 'Bad Id', title: 't', scope: ['a/**'] }] },
      /missions\.0\.id: a mission id is 1-40 lowercase letters/,
    ],
    [
      'TowerPlan',
      { missions: [{ id: 'a', title: 't', scope: [] }] },
      /missions\.0\.scope: a mission needs at least one scope glob/,
    ],
    ['TowerPlan', { missions: [{ id: 'a', title: 't', scope: ['a/**'], kind: 'deploy' }] }, /missions\.0\.kind/],
    ['TowerSpawn', { mission: 'a', role: 'boss' }, /role/],
    ['TowerReview', { mission: 'a', verdict: 'maybe', summary: 'x' }, /verdict/],
    ['TowerReview', { mission: 'a', verdict: 'approve', summary: '' }, /summary: say what you checked and found/],
    ['TowerFinding', { kind: 'rant', title: 't', detail: 'd' }, /kind/],
    ['TowerSend', { to: 'tower', text: '' }, /text: the message is empty/],
    ['TowerMission', { tick: [0] }, /tick\.0/],
    ['TowerInbox', { limit: 0 }, /limit/],
  ])('%s %j is refused with the field named', async (name, args, error) => {
    const r = await makeToolHarness().run(tool(name), args);
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(new RegExp(`Invalid arguments for ${name}`));
    expect(r.text).toMatch(error);
  });

  it('an agent that is neither the coordinator nor a Tower agent is told so', async () => {
    const r = await makeToolHarness().run(tool('TowerStatus'), {});
    expect(r).toMatchObject({
      isError: true,
      text: expect.stringMatching(/only for the Tower coordinator and the agents it spawns/),
    });
  });

  it('all eleven are deferred and only TowerSpawn, TowerMerge and TowerTeardown ask in manual mode', () => {
    expect(towerTools.map((t) => t.name)).toHaveLength(11);
    expect(towerTools.every((t) => t.deferred)).toBe(true);
    expect(towerTools.filter((t) => t.defaultApproval === 'ask').map((t) => t.name)).toEqual([
      'TowerSpawn',
      'TowerMerge',
      'TowerTeardown',
    ]);
  });
});
