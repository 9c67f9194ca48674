// What the engine asks the human besides tool approvals, and the session features built on it.
// Front ends implement InteractionPort (the TUI with dialogs, ACP over the protocol); print mode
// has none, so plan reviews and questions there report that no one can answer.
import { randomBytes } from 'node:crypto';
import type { PlanReviewAnswer, PlanReviewRequest } from '../../tools/plan/planService';
import { PLAN_SERVICE } from '../../tools/plan/planService';
import {
  formatAnswers,
  QUESTION_SERVICE,
  type AskOutcome,
  type BackgroundAskOutcome,
  type QuestionRequest,
  type QuestionResponse,
  type QuestionService,
} from '../../tools/question/questionService';
import { GOAL_SERVICE } from '../../tools/goal/goalService';
import { TODO_SERVICE } from '../../tools/todo/todoService';
import type { EngineEventBody } from '../loop/events';
import { GoalDriver, type GoalSettings } from '../background/goalDriver';
import { GoalController } from '../background/goals';
import type { Agent, TurnExtension } from '../loop/loop';
import { PlanMode } from '../policy/planMode';
import type { Session } from '../session/session';
import { TodoStore } from '../background/todos';

export type { PlanOption, PlanReviewAnswer, PlanReviewRequest } from '../../tools/plan/planService';
export type {
  AnswerKind,
  Question,
  QuestionAnswer,
  QuestionOption,
  QuestionRequest,
  QuestionResponse,
} from '../../tools/question/questionService';

export interface InteractionPort {
  /**
   * ExitPlanMode: show the plan and the agent's options; the user approves (optionally picking an
   * option), rejects, rejects and leaves plan mode, or asks for a revision with feedback. Not called
   * in auto mode (auto-approved). Rejecting the promise (e.g. on `signal`) fails the tool call.
   */
  reviewPlan(request: PlanReviewRequest, signal: AbortSignal): Promise<PlanReviewAnswer>;
  /**
   * AskUserQuestion: each question's options already end with "Other". Resolve `{dismissed: true}`
   * when the user closes the dialog. `request.background` questions must not block the input box.
   */
  askQuestions(request: QuestionRequest, signal: AbortSignal): Promise<QuestionResponse>;
}

/** AskUserQuestion's service: denied in auto mode, unavailable without a user and a port. */
export class QuestionAsker implements QuestionService {
  private agent: Agent | undefined;
  private readonly pending = new Set<AbortController>();

  constructor(
    private readonly session: Session,
    private readonly port: InteractionPort | undefined,
    private readonly nonInteractive: boolean,
  ) {}

  bind(agent: Agent): void {
    this.agent = agent;
  }

  private refusal(): Exclude<AskOutcome, { status: 'answered' }> | undefined {
    if (this.session.state.mode === 'auto')
      return { status: 'denied', reason: 'the session runs in auto permission mode, where no one is asked.' };
    if (this.nonInteractive)
      return { status: 'unavailable', reason: 'this session has no user at a terminal (print mode or no TTY).' };
    if (!this.port) return { status: 'unavailable', reason: 'this front end cannot show questions.' };
    return undefined;
  }

  async ask(request: Omit<QuestionRequest, 'background' | 'taskId'>, signal: AbortSignal): Promise<AskOutcome> {
    const refused = this.refusal();
    if (refused) return refused;
    const response = await this.port!.askQuestions({ ...request, background: false }, signal);
    return { status: 'answered', response };
  }

  askInBackground(request: Omit<QuestionRequest, 'background' | 'taskId'>): BackgroundAskOutcome {
    const refused = this.refusal();
    if (refused) return refused;
    const taskId = `q${randomBytes(5).toString('hex')}`;
    const abort = new AbortController();
    this.pending.add(abort);
    void this.port!.askQuestions({ ...request, background: true, taskId }, abort.signal)
      .then((response) => `Background question task ${taskId} finished.\n${formatAnswers(response)}`)
      .catch(
        (e: unknown) =>
          `Background question task ${taskId} failed: ${e instanceof Error ? e.message : String(e)}. Ask in plain text if you still need the answer.`,
      )
      .then((text) => {
        if (!abort.signal.aborted) this.agent?.submit({ kind: 'notification', text });
      })
      .finally(() => this.pending.delete(abort));
    return { status: 'started', taskId };
  }

  /** Session close: withdraws unanswered background questions. */
  close(): void {
    for (const abort of this.pending) abort.abort();
    this.pending.clear();
  }
}

export interface AgentFeatures {
  plan: PlanMode;
  todos: TodoStore;
  goals: GoalController;
  questions: QuestionAsker;
  /** Tool services to register, by ServiceKey name. */
  services: Array<[string, unknown]>;
  extensions: TurnExtension[];
  bind(agent: Agent): void;
  close(): void;
}

export interface AgentFeatureOptions {
  session: Session;
  interactionPort?: InteractionPort;
  nonInteractive: boolean;
  emit(event: EngineEventBody): void;
  /** A resumed session: an active goal is paused (never continues by itself). */
  resumed: boolean;
  /** Turn plan mode on now (--plan, default_plan_mode). */
  planMode?: boolean;
  /** Clock for goal time budgets (tests). */
  now?: () => number;
  /** `[goal]` settings. */
  goal?: GoalSettings;
}

/** Plan mode, the todo list, questions and goals for one session, ready to plug into openRuntime. */
export function openAgentFeatures(opts: AgentFeatureOptions): AgentFeatures {
  const plan = new PlanMode(opts.session, { interactionPort: opts.interactionPort, emit: opts.emit });
  const todos = new TodoStore(opts.session, opts.emit);
  const goals = new GoalController(opts.session, opts.emit);
  const questions = new QuestionAsker(opts.session, opts.interactionPort, opts.nonInteractive);
  const driver = new GoalDriver(opts.session, goals, opts.now, opts.goal);
  if (opts.resumed) goals.pauseAfterResume();
  if (opts.planMode) plan.setPlanMode(true);
  return {
    plan,
    todos,
    goals,
    questions,
    services: [
      [PLAN_SERVICE.name, plan],
      [TODO_SERVICE.name, todos],
      [GOAL_SERVICE.name, goals],
      [QUESTION_SERVICE.name, questions],
    ],
    extensions: [plan.extension, driver.extension],
    bind(agent) {
      goals.bind(agent);
      questions.bind(agent);
    },
    close() {
      questions.close();
    },
  };
}
