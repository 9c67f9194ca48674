// The coordinator's Tower tools (docs/tower.md): TowerInit, TowerPlan, TowerSpawn, TowerMerge and
// TowerTeardown. Every rule of the protocol is checked by the engine's TowerService, not here.
import { z } from 'zod';
import { defineTool, type Tool, type ToolContext, type ToolResult } from '../defineTool';
import { TOWER_MAX_CONCURRENCY } from './towerLimits';
import { TOWER_SERVICE, TowerError, type TowerService } from './towerService';
import initDescription from './towerInit.md';
import planDescription from './towerPlan.md';
import spawnDescription from './towerSpawn.md';
import mergeDescription from './towerMerge.md';
import teardownDescription from './towerTeardown.md';

/** Runs a Tower operation for the calling agent; a refusal becomes an error result the model can act on. */
export async function callTower(
  ctx: ToolContext<typeof TOWER_SERVICE>,
  op: (tower: TowerService) => Promise<string>,
  summary?: string,
): Promise<ToolResult> {
  const tower = ctx.services.find(TOWER_SERVICE);
  if (!tower)
    return {
      content: 'Tower tools work only for the Tower coordinator and the agents it spawns; this agent is neither.',
      isError: true,
    };
  try {
    const content = await op(tower);
    return { content, ...(summary ? { summary } : {}) };
  } catch (e) {
    if (e instanceof TowerError) return { content: e.message, isError: true };
    return { content: `Tower operation failed: ${(e as Error).message}`, isError: true };
  }
}

export const MISSION_ID = z
  .string()
  .regex(
    /^[a-z0-9][a-z0-9-]{0,39}$/,
    'a mission id is 1-40 lowercase letters, digits or "-", starting with a letter or digit',
  );

export const towerInitTool = defineTool({
  name: 'TowerInit',
  optionalServices: [TOWER_SERVICE],
  description: initDescription,
  deferred: true,
  schema: z.object({
    objective: z.string().optional().describe('What the tower is to achieve, recorded in the state.'),
  }),
  readOnly: false,
  defaultApproval: 'auto',
  execute: (a, ctx) => callTower(ctx, (t) => t.init(a.objective), 'tower initialised'),
});

const plannedMission = z.object({
  id: MISSION_ID,
  title: z.string().min(1),
  kind: z.enum(['build', 'research']).default('build'),
  scope: z
    .array(z.string().min(1))
    .min(1, 'a mission needs at least one scope glob')
    .describe('Globs relative to the repository root, e.g. "src/api/**".'),
  tasks: z.array(z.string().min(1)).default([]),
  depends_on: z.array(MISSION_ID).default([]).describe('Ids of missions that must be merged before this one starts.'),
});

export const towerPlanTool = defineTool({
  name: 'TowerPlan',
  optionalServices: [TOWER_SERVICE],
  description: planDescription,
  deferred: true,
  schema: z.object({
    objective: z.string().optional(),
    missions: z.array(plannedMission).min(1, 'a plan needs at least one mission'),
  }),
  readOnly: false,
  defaultApproval: 'auto',
  execute: (a, ctx) => callTower(ctx, (t) => t.plan(a.missions, a.objective), `${a.missions.length} missions planned`),
});

export const towerSpawnTool = defineTool({
  name: 'TowerSpawn',
  optionalServices: [TOWER_SERVICE],
  description: spawnDescription,
  constants: { MAX_CONCURRENCY: TOWER_MAX_CONCURRENCY },
  deferred: true,
  schema: z.object({
    mission: MISSION_ID,
    role: z.enum(['worker', 'reviewer']),
    instructions: z.string().optional().describe('Extra instructions for this agent, added to its brief.'),
  }),
  readOnly: false,
  defaultApproval: 'ask',
  subject: (a) => `TowerSpawn(${a.role} ${a.mission})`,
  accesses: (_a, ctx) => [{ kind: 'exec', cwd: ctx.cwd }],
  execute: (a, ctx) => callTower(ctx, (t) => t.spawn(a, ctx.callId), `${a.role} for ${a.mission}`),
});

export const towerMergeTool = defineTool({
  name: 'TowerMerge',
  optionalServices: [TOWER_SERVICE],
  description: mergeDescription,
  deferred: true,
  schema: z.object({ mission: MISSION_ID }),
  readOnly: false,
  defaultApproval: 'ask',
  subject: (a) => `TowerMerge(${a.mission})`,
  accesses: (_a, ctx) => [{ kind: 'exec', cwd: ctx.cwd }],
  execute: (a, ctx) => callTower(ctx, (t) => t.merge(a.mission)),
});

export const towerTeardownTool = defineTool({
  name: 'TowerTeardown',
  optionalServices: [TOWER_SERVICE],
  description: teardownDescription,
  deferred: true,
  schema: z.object({ force: z.boolean().default(false).describe('Clean up even when the state file cannot be read.') }),
  readOnly: false,
  defaultApproval: 'ask',
  accesses: (_a, ctx) => [{ kind: 'exec', cwd: ctx.cwd }],
  execute: (a, ctx) => callTower(ctx, (t) => t.teardown(a.force), 'tower torn down'),
});

export const towerCoordinatorTools: Tool[] = [
  towerInitTool,
  towerPlanTool,
  towerSpawnTool,
  towerMergeTool,
  towerTeardownTool,
];
