// The Tower dashboard as text (TowerStatus, `/tower status`) and one mission in full (TowerMission).
import type { ActivityRecord, Mission, Review, RosterEntry, TowerFindingRecord, TowerState } from './towerStore';

export interface TowerSnapshot {
  state: TowerState;
  /** Roster entries with the status this process sees (`lost` for agents of a dead coordinator). */
  roster: RosterEntry[];
  unread: number;
  findings: TowerFindingRecord[];
  activity: ActivityRecord[];
  concurrency: { limit: number; active: number; queued: number; ceiling: number };
}

export const ACTIVITY_SHOWN = 10;

function short(sha: string | undefined): string {
  return sha ? sha.slice(0, 8) : '-';
}

/** The latest review with a verdict, and the one still waiting for it, of a mission. */
export function reviewsOf(reviews: readonly Review[], mission: string): { latest?: Review; pending?: Review } {
  const mine = reviews.filter((r) => r.mission === mission);
  return { latest: [...mine].reverse().find((r) => r.verdict), pending: [...mine].reverse().find((r) => !r.verdict) };
}

function gateLine(m: Mission, reviews: readonly Review[]): string {
  if (m.kind !== 'build') return 'no merge (research)';
  if (m.status === 'merged') return `merged ${short(m.mergedCommit)}`;
  const { latest, pending } = reviewsOf(reviews, m.id);
  const parts = [
    latest
      ? `${latest.verdict === 'approve' ? 'approved' : 'changes requested'} at ${short(latest.tip)} by ${latest.reviewer}`
      : 'not reviewed',
  ];
  if (pending) parts.push(`review pending (${pending.reviewer})`);
  return parts.join('; ');
}

export function renderMission(m: Mission, reviews: readonly Review[], roster: readonly RosterEntry[]): string {
  const lines = [
    `Mission ${m.id}: ${m.title}`,
    `kind: ${m.kind}   status: ${m.status}   branch: ${m.branch}${m.worktree ? `   worktree: ${m.worktree}` : ''}`,
    `scope: ${m.scope.join(', ')}`,
    `depends on: ${m.dependsOn.length ? m.dependsOn.join(', ') : 'nothing'}`,
    `review gate: ${gateLine(m, reviews)}`,
    'tasks:',
    ...(m.tasks.length ? m.tasks.map((t, i) => `  ${i + 1}. [${t.done ? 'x' : ' '}] ${t.text}`) : ['  (none)']),
  ];
  if (m.notes.length) lines.push('notes:', ...m.notes.map((n) => `  - ${n.text} (${n.by}, ${n.at})`));
  if (m.blockers.length) lines.push('blockers:', ...m.blockers.map((b) => `  - ${b.text} (${b.by}, ${b.at})`));
  const agents = roster.filter((r) => r.mission === m.id);
  if (agents.length) lines.push('agents:', ...agents.map((r) => `  - ${r.agentId} ${r.role} ${r.status}`));
  return lines.join('\n');
}

export function renderStatus(s: TowerSnapshot): string {
  const { state } = s;
  const c = s.concurrency;
  const lines = [
    `Tower ${state.active ? 'active' : 'torn down'} in ${state.repoRoot}`,
    `base branch: ${state.baseBranch} (started at ${short(state.baseCommit)})${state.objective ? `\nobjective: ${state.objective}` : ''}`,
    `concurrency: ${c.active} running, ${c.queued} waiting, budget ${c.limit} (ceiling ${c.ceiling})`,
    '',
    `Missions (${state.missions.length}):`,
  ];
  for (const m of state.missions) {
    const done = m.tasks.filter((t) => t.done).length;
    const blockers = m.blockers.length ? `, ${m.blockers.length} blocker${m.blockers.length === 1 ? '' : 's'}` : '';
    lines.push(
      `  ${m.id} [${m.kind}] ${m.status} — tasks ${done}/${m.tasks.length}${blockers} — ${m.scope.join(', ')}`,
    );
  }
  if (!state.missions.length) lines.push('  (none yet: TowerPlan)');
  lines.push('', `Roster (${s.roster.length}):`);
  for (const r of s.roster)
    lines.push(`  ${r.agentId} ${r.role} of ${r.mission}: ${r.status}${r.error ? ` (${r.error})` : ''}`);
  if (!s.roster.length) lines.push('  (no agents yet: TowerSpawn)');
  lines.push('', 'Review gate:');
  const builds = state.missions.filter((m) => m.kind === 'build');
  for (const m of builds) lines.push(`  ${m.id}: ${gateLine(m, state.reviews)}`);
  if (!builds.length) lines.push('  (no build missions)');
  lines.push('', `Inbox: ${s.unread} unread for tower`);
  if (s.findings.length) {
    const byKind = new Map<string, number>();
    for (const f of s.findings) byKind.set(f.kind, (byKind.get(f.kind) ?? 0) + 1);
    lines.push(`Findings: ${[...byKind].map(([k, n]) => `${n} ${k}`).join(', ')}`);
    for (const f of s.findings.slice(-5))
      lines.push(`  #${f.id} ${f.kind} by ${f.by}: ${f.title}${f.path ? ` (${f.path})` : ''}`);
  }
  lines.push('', 'Activity (latest first):');
  const recent = s.activity.slice(-ACTIVITY_SHOWN).reverse();
  for (const a of recent) lines.push(`  ${a.at.slice(11, 19)} ${a.who}: ${a.text}`);
  if (!recent.length) lines.push('  (none)');
  return lines.join('\n');
}
