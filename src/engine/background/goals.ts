// Goal mode: one durable objective per session, pursued over automatically continuing turns.
// GoalController holds the rules (one goal, budgets, the blocker streak, the upcoming queue) and is
// both the goal tools' service and the front ends' `/goal` API. The goal lives in the journal as
// `goal` records carrying the whole goal after each change; goalDriver.ts runs the turns.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, renameSync } from 'node:fs';
import { writePrivateFileSync } from '../../store/privateFiles';
import { join } from 'node:path';
import {
  BLOCKED_AFTER_TURNS,
  MAX_OBJECTIVE_CHARS,
  spentBudget,
  type BlockReason,
  type BudgetKind,
  type Goal,
  type GoalChange,
  type GoalResult,
  type GoalService,
} from '../../tools/goal/goalService';
import type { EngineEventBody } from '../loop/events';
import type { Agent } from '../loop/loop';
import type { Session } from '../session/session';
import { continuationPrompt, describeUsage, parseGoalCommand, type GoalCommand } from './goalDriver';
import { noteSurvivedFailure } from '../../store/crashLog';

export { parseGoalCommand, type GoalCommand };

/** Queued goals (`/goal next`), in the session folder; invisible to the agent. */
export const UPCOMING_GOALS_FILE = 'upcoming-goals.json';

export type GoalCommandResult = { ok: boolean; message: string };

export interface GoalStatusReport {
  goal: Goal | null;
  upcoming: string[];
  /** One human paragraph: objective, status, elapsed, turns, tokens. */
  text: string;
}

function checkObjective(objective: string): string | undefined {
  if (!objective.trim()) return 'The goal objective is empty.';
  if (objective.length > MAX_OBJECTIVE_CHARS)
    return `The goal objective is ${objective.length} characters; the limit is ${MAX_OBJECTIVE_CHARS}.`;
  return undefined;
}

const sameBlocker = (text: string) => text.trim().toLowerCase().replace(/\s+/g, ' ');

export class GoalController implements GoalService {
  private agent: Agent | undefined;

  constructor(
    private readonly session: Session,
    private readonly emit: (event: EngineEventBody) => void,
  ) {}

  bind(agent: Agent): void {
    this.agent = agent;
  }

  current(): Goal | undefined {
    const goal = this.session.state.goal;
    return goal ? structuredClone(goal) : undefined;
  }

  /** A goal that is not complete (active, paused or blocked). */
  private unfinished(): Goal | undefined {
    const goal = this.current();
    return goal && goal.status !== 'complete' ? goal : undefined;
  }

  /** Journals the goal after a change and tells front ends. */
  commit(change: GoalChange, goal: Goal | null): void {
    this.session.commit({ type: 'goal', change, goal });
    this.emit({ type: 'goal', change, goal: this.current() ?? null });
  }

  private newGoal(objective: string, completionCriterion?: string): Goal {
    return {
      id: `g_${randomBytes(5).toString('hex')}`,
      objective: objective.trim(),
      ...(completionCriterion ? { completionCriterion } : {}),
      status: 'active',
      createdAt: new Date().toISOString(),
      budget: {},
      used: { turns: 0, tokens: 0, timeMs: 0 },
      // Created by the agent inside a turn: that turn counts toward the turn budget.
      ...(this.session.state.openTurn ? { startTurnId: this.session.state.openTurn.turnId } : {}),
    };
  }

  // ── The goal tools' service ──────────────────────────────────────────────────────────────────

  create(input: { objective: string; completionCriterion?: string; replace: boolean }): GoalResult {
    const problem = checkObjective(input.objective);
    if (problem) return { ok: false, error: problem };
    const existing = this.unfinished();
    if (existing && !input.replace) {
      return {
        ok: false,
        error: `A goal already exists (${existing.status}): "${existing.objective}". Keep working on it, or pass replace: true to abandon it and start the new one.`,
      };
    }
    const goal = this.newGoal(input.objective, input.completionCriterion);
    this.commit(existing ? 'replaced' : 'created', goal);
    return {
      ok: true,
      goal,
      message: existing ? 'The previous goal was abandoned; the new goal is active.' : 'Goal created and active.',
    };
  }

  setBudget(kind: BudgetKind, value: number): GoalResult {
    const goal = this.unfinished();
    if (!goal)
      return { ok: false, error: 'There is no unfinished goal to set a budget for. Create one with CreateGoal first.' };
    goal.budget[kind] = value;
    this.commit('budget', goal);
    const spent = spentBudget(goal);
    return {
      ok: true,
      goal,
      message: spent
        ? `Budget set, but it is already used up (${spent}): the goal will be blocked when this turn ends.`
        : 'Budget set.',
    };
  }

  update(input: {
    status: 'active' | 'complete' | 'blocked';
    summary?: string;
    blocker?: string;
    reason?: BlockReason;
  }): GoalResult {
    const goal = this.current();
    if (!goal) return { ok: false, error: 'There is no goal to update.' };
    if (goal.status === 'complete')
      return { ok: false, error: 'The goal is already complete. Create a new goal for further work.' };
    if (input.status === 'complete') {
      Object.assign(goal, { status: 'complete', reason: input.summary });
      delete goal.blocker;
      this.commit('status', goal);
      return { ok: true, goal, message: 'Goal complete. Give the user a short summary of the result in your reply.' };
    }
    if (input.status === 'active') {
      if (goal.status === 'active') return { ok: true, goal, message: 'The goal is already active.' };
      const spent = spentBudget(goal);
      if (spent) return { ok: false, error: `The goal cannot resume: ${spent}. Only the user can raise the budget.` };
      goal.status = 'active';
      delete goal.reason;
      this.commit('status', goal);
      return { ok: true, goal, message: 'The goal is active again.' };
    }
    const blocker = input.blocker ?? '';
    if (input.reason) {
      Object.assign(goal, { status: 'blocked', reason: `${input.reason}: ${blocker}` });
      this.commit('status', goal);
      return { ok: true, goal, message: 'The goal is blocked. Explain the problem to the user.' };
    }
    const turn = goal.used.turns + 1;
    const prev = goal.blocker;
    let turns = 1;
    if (prev && prev.text === sameBlocker(blocker)) {
      if (prev.lastTurn === turn) turns = prev.turns;
      else if (prev.lastTurn === turn - 1) turns = prev.turns + 1;
    }
    goal.blocker = { text: sameBlocker(blocker), turns, lastTurn: turn };
    if (turns < BLOCKED_AFTER_TURNS) {
      this.commit('blocker', goal);
      return {
        ok: false,
        error: `Not blocked yet: this blocker has stopped you on ${turns} of ${BLOCKED_AFTER_TURNS} consecutive goal turns. Try a different approach. If the same blocker still stops you on the next goal turn, report it again with the same wording (or pass reason if the objective itself is impossible, unsafe or contradictory).`,
      };
    }
    Object.assign(goal, { status: 'blocked', reason: blocker });
    this.commit('status', goal);
    return {
      ok: true,
      goal,
      message: 'The goal is blocked. Explain the blocker to the user and what you need from them.',
    };
  }

  // ── The `/goal` API for front ends ───────────────────────────────────────────────────────────

  /** Runs a parsed `/goal …` command (see parseGoalCommand). `next manage` only lists the queue. */
  run(command: GoalCommand): GoalCommandResult {
    switch (command.kind) {
      case 'status':
        return { ok: true, message: this.status().text };
      case 'pause':
        return this.pause();
      case 'resume':
        return this.resume();
      case 'cancel':
        return this.cancel();
      case 'create':
        return this.start(command.objective);
      case 'replace':
        return this.replace(command.objective);
      case 'next':
        return this.next(command.objective);
      case 'next_manage': {
        const queue = this.upcoming();
        const list = queue.length ? queue.map((g, i) => `${i + 1}. ${g}`).join('\n') : 'No upcoming goals.';
        return { ok: true, message: list + this.takeQueueProblem() };
      }
      case 'invalid':
        return { ok: false, message: command.message };
    }
  }

  status(): GoalStatusReport {
    const goal = this.current() ?? null;
    const upcoming = this.upcoming();
    const queued = upcoming.length ? ` ${upcoming.length} upcoming goal(s) queued.` : '';
    if (!goal) return { goal, upcoming, text: `No goal.${queued}` };
    const why = goal.reason && goal.status !== 'active' ? ` (${goal.reason})` : '';
    return {
      goal,
      upcoming,
      text: `Goal ${goal.status}${why}: ${goal.objective}\nUsed: ${describeUsage(goal)}.${queued}`,
    };
  }

  /** `/goal <objective>` (and `jarvis -p "/goal …"`): creates the goal and starts its first turn. */
  start(objective: string): GoalCommandResult {
    const problem = checkObjective(objective);
    if (problem) return { ok: false, message: problem };
    const existing = this.unfinished();
    if (existing)
      return {
        ok: false,
        message: `A goal is already ${existing.status}: "${existing.objective}". Use /goal replace <objective>, or /goal cancel first.`,
      };
    this.begin(objective, 'created');
    return { ok: true, message: 'Goal started.' };
  }

  /** `/goal pause` (any time): the driver stops continuing after the running turn. */
  pause(reason = 'paused by the user'): GoalCommandResult {
    const goal = this.current();
    if (!goal || goal.status !== 'active') return { ok: false, message: 'There is no active goal to pause.' };
    Object.assign(goal, { status: 'paused', reason });
    this.commit('status', goal);
    return { ok: true, message: 'Goal paused. /goal resume continues it.' };
  }

  /** `/goal resume` (idle only): reactivates a paused or blocked goal and starts a turn. */
  resume(): GoalCommandResult {
    if (this.agent?.busy)
      return { ok: false, message: 'Wait for the current turn to finish (or interrupt it) before resuming the goal.' };
    const goal = this.current();
    if (!goal || (goal.status !== 'paused' && goal.status !== 'blocked'))
      return { ok: false, message: 'There is no paused or blocked goal to resume.' };
    const spent = spentBudget(goal);
    if (spent)
      return {
        ok: false,
        message: `The goal cannot resume: ${spent}. Ask the agent to raise the budget, or /goal replace it.`,
      };
    goal.status = 'active';
    delete goal.reason;
    this.commit('status', goal);
    this.agent?.submit({ kind: 'continuation', text: continuationPrompt(goal) });
    return { ok: true, message: 'Goal resumed.' };
  }

  /** `/goal cancel` (any time): drops the goal; the queue is kept and does not start. */
  cancel(): GoalCommandResult {
    if (!this.current()) return { ok: false, message: 'There is no goal to cancel.' };
    this.commit('cancelled', null);
    return { ok: true, message: 'Goal cancelled.' };
  }

  /** `/goal replace <objective>` (idle only). */
  replace(objective: string): GoalCommandResult {
    if (this.agent?.busy)
      return { ok: false, message: 'Wait for the current turn to finish (or interrupt it) before replacing the goal.' };
    const problem = checkObjective(objective);
    if (problem) return { ok: false, message: problem };
    this.begin(objective, this.unfinished() ? 'replaced' : 'created');
    return { ok: true, message: 'Goal replaced.' };
  }

  /** `/goal next <objective>` (any time): starts it now when no goal is unfinished, else queues it. */
  next(objective: string): GoalCommandResult {
    const problem = checkObjective(objective);
    if (problem) return { ok: false, message: problem };
    if (!this.unfinished()) return this.start(objective);
    const queue = this.upcoming();
    queue.push(objective.trim());
    this.writeUpcoming(queue);
    const queued = `Queued as upcoming goal ${queue.length}; it starts when the current goal completes.`;
    return { ok: true, message: queued + this.takeQueueProblem() };
  }

  /**
   * The queued goals, first to start first (`/goal next manage` shows and edits them). A file that
   * cannot be read or is not a list of objectives is moved aside, never overwritten by the next queue
   * change, which says where it went (`queueProblem`); the log has it too.
   */
  upcoming(): string[] {
    const path = join(this.session.dir, UPCOMING_GOALS_FILE);
    if (!existsSync(path)) return [];
    try {
      const data: unknown = JSON.parse(readFileSync(path, 'utf8'));
      const isList = Array.isArray(data) && data.every((g) => typeof g === 'string');
      if (!isList) throw new Error('it is not a list of objectives');
      return data as string[];
    } catch (e) {
      const aside = `${path}.unreadable-${Date.now()}`;
      renameSync(path, aside);
      const why = (e as Error).message;
      this.queueProblem = `the earlier queue in ${path} could not be read (${why}); it was kept as ${aside}`;
      noteSurvivedFailure(`${UPCOMING_GOALS_FILE} could not be read`, e);
      return [];
    }
  }

  /** Why the queue read last started empty, said once by the next queue change. */
  private queueProblem: string | undefined;

  private takeQueueProblem(): string {
    const problem = this.queueProblem;
    this.queueProblem = undefined;
    return problem ? ` Note: ${problem}.` : '';
  }

  /** Saves the queue as edited in `/goal next manage` (reordered, edited, deleted). */
  setUpcoming(goals: string[]): GoalCommandResult {
    for (const g of goals) {
      const problem = checkObjective(g);
      if (problem) return { ok: false, message: problem };
    }
    this.writeUpcoming(goals.map((g) => g.trim()));
    return { ok: true, message: `${goals.length} upcoming goal(s).` };
  }

  /** The driver calls this when a goal completes: the first queued goal starts. */
  startNextQueued(): boolean {
    const [first, ...rest] = this.upcoming();
    if (first === undefined) return false;
    this.writeUpcoming(rest);
    this.begin(first, 'created');
    return true;
  }

  /** A resumed session never continues a goal by itself. */
  pauseAfterResume(): void {
    if (this.current()?.status === 'active') this.pause('the session was resumed');
  }

  private begin(objective: string, change: GoalChange): void {
    const goal = this.newGoal(objective);
    delete goal.startTurnId;
    this.commit(change, goal);
    this.agent?.submit({ kind: 'prompt', text: goal.objective });
  }

  private writeUpcoming(goals: string[]): void {
    const path = join(this.session.dir, UPCOMING_GOALS_FILE);
    writePrivateFileSync(`${path}.tmp`, `${JSON.stringify(goals, null, 2)}\n`);
    renameSync(`${path}.tmp`, path);
  }
}
