// What a compaction carries over verbatim (docs/architecture.md; the compactor is compaction.ts): the todo list,
// the plan and the active goal, plus whatever an extension registers for its own state.
import { existsSync, readFileSync } from 'node:fs';
import type { SessionState } from '../session/records';

/** Returns the text to restore after a compaction, or undefined when there is nothing to restore. */
export type Reinjector = (state: SessionState) => string | undefined;

/**
 * The state a compaction must carry over verbatim (todo list, plan state, active goal), one set per
 * runtime: an extension registers its own without touching other sessions in the same process. The
 * text is captured into the compaction record, so replay never calls a reinjector.
 */
export class Reinjections {
  private readonly reinjectors = new Map<string, Reinjector>();

  /** Starts with the state every session has (todos, plan, goal). */
  constructor() {
    this.register('todos', reinjectTodos);
    this.register('plan', reinjectPlan);
    this.register('goal', reinjectGoal);
  }

  /** Adds (or replaces, by name) a reinjector; returns the function that removes it. */
  register(name: string, reinject: Reinjector): () => void {
    this.reinjectors.set(name, reinject);
    return () => {
      if (this.reinjectors.get(name) === reinject) this.reinjectors.delete(name);
    };
  }

  entries(): IterableIterator<[string, Reinjector]> {
    return this.reinjectors.entries();
  }
}

/** Plan files longer than this are re-injected cut short (the file itself stays whole). */
const PLAN_REINJECT_CHARS = 20_000;

function reinjectTodos(state: SessionState): string | undefined {
  return state.todos.length
    ? `Todo list:\n${state.todos.map((t) => `- [${t.status}] ${t.title}`).join('\n')}`
    : undefined;
}

function reinjectPlan(state: SessionState): string | undefined {
  const { active, planPath } = state.planMode;
  if (!planPath) return undefined;
  if (!active) return existsSync(planPath) ? `Plan mode is off. The latest plan is in ${planPath}.` : undefined;
  let plan = '';
  try {
    plan = readFileSync(planPath, 'utf8');
  } catch (e) {
    // Not written yet is the normal case; any other failure is said where the plan would be.
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') {
      const why = e instanceof Error ? e.message : String(e);
      return `Plan mode is on. Plan file: ${planPath} (it cannot be read: ${why})`;
    }
  }
  const body = plan.trim()
    ? `\n\n${plan.length > PLAN_REINJECT_CHARS ? `${plan.slice(0, PLAN_REINJECT_CHARS)}\n… (cut; read the file for the rest)` : plan.trim()}`
    : ' (empty so far)';
  return `Plan mode is on. Plan file: ${planPath}${body}`;
}

function reinjectGoal(state: SessionState): string | undefined {
  const goal = state.goal;
  if (!goal || goal.status === 'complete') return undefined;
  const criterion = goal.completionCriterion ? `\nDone when: ${goal.completionCriterion}` : '';
  return `Goal (${goal.status}): ${goal.objective}${criterion}`;
}
