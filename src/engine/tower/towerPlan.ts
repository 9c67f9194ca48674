// TowerPlan's checks (docs/tower.md): a plan is taken whole or not at all — unique ids, valid scopes, no replacing
// a mission that has started, dependencies that exist and form no cycle, build scopes that do not overlap.
import type { PlannedMission } from '../../tools/tower/towerService';
import { normaliseScope, scopeOverlaps } from './towerScopes';
import type { Mission, TowerState } from './towerStore';

/** The missions a plan would add, and every problem with it (empty: it may be stored). */
export function checkPlan(
  missions: readonly PlannedMission[],
  state: TowerState,
  tracked: readonly string[],
): { planned: Mission[]; problems: string[] } {
  const problems: string[] = [];
  const ids = missions.map((m) => m.id);
  for (const id of new Set(ids))
    if (ids.filter((x) => x === id).length > 1) problems.push(`mission "${id}" is given twice`);
  const planned: Mission[] = missions.map((m) => {
    const scope: string[] = [];
    for (const glob of m.scope) {
      try {
        scope.push(normaliseScope(glob));
      } catch (e) {
        problems.push(`mission "${m.id}": ${(e as Error).message}`);
      }
    }
    return {
      id: m.id,
      title: m.title,
      kind: m.kind,
      scope,
      tasks: m.tasks.map((text) => ({ text, done: false })),
      dependsOn: [...new Set(m.depends_on)],
      notes: [],
      blockers: [],
      status: 'planned',
      branch: `tower/${m.id}`,
    };
  });
  for (const m of planned) {
    const old = state.missions.find((x) => x.id === m.id);
    if (old && old.status !== 'planned')
      problems.push(`mission "${m.id}" is ${old.status} and cannot be replaced; plan new work under a new id`);
  }
  const kept = state.missions.filter((m) => !ids.includes(m.id));
  const all = [...kept, ...planned];
  for (const m of planned) {
    for (const dep of m.dependsOn) {
      if (dep === m.id) problems.push(`mission "${m.id}" depends on itself`);
      else if (!all.some((x) => x.id === dep))
        problems.push(`mission "${m.id}" depends on "${dep}", which is not in the plan`);
    }
  }
  const cycle = findCycle(all);
  if (cycle) problems.push(`the dependencies form a cycle: ${cycle.join(' → ')}`);
  const open = all.filter((m) => m.status !== 'merged');
  problems.push(...scopeOverlaps(open, tracked).map((p) => `build missions overlap: ${p}`));
  return { planned, problems };
}

/** A dependency cycle among the missions, as the ids along it, or undefined. */
function findCycle(missions: readonly Mission[]): string[] | undefined {
  const byId = new Map(missions.map((m) => [m.id, m]));
  const state = new Map<string, 'visiting' | 'done'>();
  const path: string[] = [];
  const visit = (id: string): string[] | undefined => {
    if (state.get(id) === 'done') return undefined;
    if (state.get(id) === 'visiting') return [...path.slice(path.indexOf(id)), id];
    state.set(id, 'visiting');
    path.push(id);
    for (const dep of byId.get(id)?.dependsOn ?? []) {
      const found = visit(dep);
      if (found) return found;
    }
    path.pop();
    state.set(id, 'done');
    return undefined;
  };
  for (const m of missions) {
    const found = visit(m.id);
    if (found) return found;
  }
  return undefined;
}
