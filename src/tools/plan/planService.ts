// Plan mode as the plan tools see it. The engine implements it (engine/policy/planMode.ts): the state
// lives in the session journal, the review goes to the front end's InteractionPort.
import { serviceKey } from '../defineTool';

/** An alternative approach the agent offers with its plan. */
export interface PlanOption {
  label: string;
  description: string;
}

/** Labels the review dialog uses for its own buttons; the agent's options may not take them. */
export const RESERVED_PLAN_LABELS = ['Approve', 'Reject', 'Reject and Exit', 'Revise'] as const;
export const MAX_PLAN_OPTIONS = 3;
export const MAX_PLAN_OPTION_LABEL_CHARS = 80;

export interface PlanReviewRequest {
  planPath: string;
  /** The plan file's text. */
  plan: string;
  /** The agent's 0–3 alternatives; approving may pick one of them. */
  options: PlanOption[];
}

export type PlanReviewAnswer =
  /** `option`: the label of the alternative the user picked, if any. */
  | { decision: 'approve'; option?: string }
  /** Stay in plan mode; the agent should stop and wait. */
  | { decision: 'reject' }
  /** Leave plan mode without implementing the plan. */
  | { decision: 'reject_and_exit' }
  | { decision: 'revise'; feedback: string };

export type PlanReviewOutcome =
  | { status: 'reviewed'; answer: PlanReviewAnswer; autoApproved: boolean }
  /** No one can review the plan in this session (no interactive front end). */
  | { status: 'unavailable'; reason: string };

export interface PlanModeService {
  readonly active: boolean;
  /** The current plan file (assigned the first time plan mode is entered). */
  readonly planPath: string | undefined;
  /** Turns plan mode on (no-op when on); returns the plan file path. Never creates the file. */
  enter(): { planPath: string; alreadyActive: boolean };
  /** Asks the user to approve the plan; applies the outcome (approve / reject and exit leave plan mode). */
  review(request: Omit<PlanReviewRequest, 'planPath'>, signal: AbortSignal): Promise<PlanReviewOutcome>;
}

export const PLAN_SERVICE = serviceKey<PlanModeService>()('planMode');
