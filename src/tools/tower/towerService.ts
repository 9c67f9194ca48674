// What the Tower tools need from their session (docs/tower.md): one TowerService per agent, bound to
// who is calling — the coordinator (`tower`), a mission's worker or a reviewer — because the protocol's
// rules depend on the caller. The engine implements it (engine/tower/).
import { envValue, parseBooleanWord } from '../../store/settings';
import { serviceKey } from '../defineTool';

export type TowerRole = 'tower' | 'worker' | 'reviewer';

export interface PlannedMission {
  id: string;
  title: string;
  kind: 'build' | 'research';
  scope: string[];
  tasks: string[];
  depends_on: string[];
}

export interface FindingInput {
  kind: 'bug' | 'improve' | 'vuln' | 'idea';
  title: string;
  detail: string;
  path?: string;
}

export interface MissionPatch {
  mission?: string;
  tick?: number[];
  untick?: number[];
  note?: string;
  blocker?: string;
}

export interface TowerService {
  readonly role: TowerRole;
  readonly agentId: string;
  init(objective: string | undefined): Promise<string>;
  plan(missions: PlannedMission[], objective: string | undefined): Promise<string>;
  spawn(
    target: { mission: string; role: 'worker' | 'reviewer'; instructions?: string },
    callId: string,
  ): Promise<string>;
  merge(mission: string): Promise<string>;
  teardown(force: boolean): Promise<string>;
  send(to: string, text: string): Promise<string>;
  inbox(limit: number): Promise<string>;
  finding(finding: FindingInput): Promise<string>;
  review(mission: string, verdict: 'approve' | 'request_changes', summary: string): Promise<string>;
  mission(patch: MissionPatch): Promise<string>;
  status(): Promise<string>;
}

/** A refusal or failure the model can act on; tools return it as an error result. */
export class TowerError extends Error {}

export const TOWER_SERVICE = serviceKey<TowerService>()('tower');

/** Tools only the coordinator calls. */
export const TOWER_COORDINATOR_TOOLS = ['TowerInit', 'TowerPlan', 'TowerSpawn', 'TowerMerge', 'TowerTeardown'];
/** Tools every Tower agent calls. */
export const TOWER_SHARED_TOOLS = [
  'TowerSend',
  'TowerInbox',
  'TowerFinding',
  'TowerReview',
  'TowerMission',
  'TowerStatus',
];
export const TOWER_TOOL_NAMES = [...TOWER_COORDINATOR_TOOLS, ...TOWER_SHARED_TOOLS];

/** Tower mode is experimental: JARVIS_CODE_EXPERIMENTAL_TOWER=1 or the master JARVIS_CODE_EXPERIMENTAL_FLAG=1. */
export function towerEnabled(env: NodeJS.ProcessEnv): boolean {
  return ['JARVIS_CODE_EXPERIMENTAL_TOWER', 'JARVIS_CODE_EXPERIMENTAL_FLAG'].some(
    (name) => parseBooleanWord(envValue(env, name) ?? '') === true,
  );
}
