// The Tower tools every Tower agent has (docs/tower.md): TowerSend, TowerInbox, TowerFinding,
// TowerReview, TowerMission and TowerStatus. Who may do what is decided by the caller's TowerService.
import { z } from 'zod';
import { defineTool, type Tool } from '../defineTool';
import { callTower, MISSION_ID } from './coordinatorTools';
import { TOWER_SERVICE } from './towerService';
import sendDescription from './towerSend.md';
import inboxDescription from './towerInbox.md';
import findingDescription from './towerFinding.md';
import reviewDescription from './towerReview.md';
import missionDescription from './towerMission.md';
import statusDescription from './towerStatus.md';

export const INBOX_DEFAULT_LIMIT = 20;

export const towerSendTool = defineTool({
  name: 'TowerSend',
  optionalServices: [TOWER_SERVICE],
  description: sendDescription,
  deferred: true,
  schema: z.object({
    to: z.string().min(1).describe('A roster agent id, "tower" or "all".'),
    text: z.string().min(1, 'the message is empty'),
  }),
  readOnly: false,
  defaultApproval: 'auto',
  execute: (a, ctx) => callTower(ctx, (t) => t.send(a.to, a.text), `to ${a.to}`),
});

export const towerInboxTool = defineTool({
  name: 'TowerInbox',
  optionalServices: [TOWER_SERVICE],
  description: inboxDescription,
  deferred: true,
  schema: z.object({ limit: z.number().int().min(1).max(200).default(INBOX_DEFAULT_LIMIT) }),
  readOnly: true,
  defaultApproval: 'auto',
  execute: (a, ctx) => callTower(ctx, (t) => t.inbox(a.limit)),
});

export const towerFindingTool = defineTool({
  name: 'TowerFinding',
  optionalServices: [TOWER_SERVICE],
  description: findingDescription,
  deferred: true,
  schema: z.object({
    kind: z.enum(['bug', 'improve', 'vuln', 'idea']),
    title: z.string().min(1),
    detail: z.string().min(1),
    path: z.string().optional().describe('The file the finding is about, relative to the repository root.'),
  }),
  readOnly: false,
  defaultApproval: 'auto',
  execute: (a, ctx) => callTower(ctx, (t) => t.finding(a), `${a.kind} filed`),
});

export const towerReviewTool = defineTool({
  name: 'TowerReview',
  optionalServices: [TOWER_SERVICE],
  description: reviewDescription,
  deferred: true,
  schema: z.object({
    mission: MISSION_ID,
    verdict: z.enum(['approve', 'request_changes']),
    summary: z.string().min(1, 'say what you checked and found'),
  }),
  readOnly: false,
  defaultApproval: 'auto',
  execute: (a, ctx) => callTower(ctx, (t) => t.review(a.mission, a.verdict, a.summary), `${a.verdict} ${a.mission}`),
});

export const towerMissionTool = defineTool({
  name: 'TowerMission',
  optionalServices: [TOWER_SERVICE],
  description: missionDescription,
  deferred: true,
  schema: z.object({
    mission: MISSION_ID.optional(),
    tick: z.array(z.number().int().min(1)).optional().describe('Task numbers (from 1) to mark done.'),
    untick: z.array(z.number().int().min(1)).optional(),
    note: z.string().min(1).optional(),
    blocker: z.string().min(1).optional(),
  }),
  readOnly: false,
  defaultApproval: 'auto',
  execute: (a, ctx) => callTower(ctx, (t) => t.mission(a)),
});

export const towerStatusTool = defineTool({
  name: 'TowerStatus',
  optionalServices: [TOWER_SERVICE],
  description: statusDescription,
  deferred: true,
  schema: z.object({}),
  readOnly: true,
  defaultApproval: 'auto',
  execute: (_a, ctx) => callTower(ctx, (t) => t.status()),
});

export const towerSharedTools: Tool[] = [
  towerSendTool,
  towerInboxTool,
  towerFindingTool,
  towerReviewTool,
  towerMissionTool,
  towerStatusTool,
];
