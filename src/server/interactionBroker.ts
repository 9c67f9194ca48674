// Questions to the user (AskUserQuestion) and plan reviews (ExitPlanMode) of one session, waiting for any client
// (docs/server.md "Questions and plan reviews"): the engine's InteractionPort, answered over the API. As with
// approvals the first answer wins (40902 after), an unanswered one expires (41002 after; a question counts as
// dismissed, a plan as rejected), and the resolution event names the client.
import type { InteractionPort, PlanReviewAnswer, PlanReviewRequest } from '../engine/delegation/interactions';
import type { QuestionAnswer, QuestionRequest, QuestionResponse } from '../tools/question/questionService';
import { ApiError, Codes } from './envelope';

export interface InteractionView {
  question_id: string;
  kind: 'questions' | 'plan_review';
  questions?: QuestionRequest['questions'];
  background?: boolean;
  plan?: { path: string; text: string; options: PlanReviewRequest['options'] };
  requested_at: string;
  expires_at: string;
}

export type AnswerBody =
  | { answers: QuestionAnswer[] }
  | { plan_decision: 'approve' | 'reject' | 'reject_and_exit' | 'revise'; option?: string; feedback?: string };

/** How a question ended: the engine's answer and who gave it (null: expiry). A withdrawn one rejects instead. */
export interface InteractionSettled<T> {
  value: T;
  clientId: string | null;
  how: 'answered' | 'dismissed' | 'expired';
}

export interface Opened<T> {
  id: string;
  done: Promise<InteractionSettled<T>>;
}

interface Waiting {
  view: InteractionView;
  answer(body: AnswerBody | 'dismiss', clientId: string | null, how: 'answered' | 'dismissed' | 'expired'): void;
}

export class InteractionBroker implements InteractionPort {
  private readonly waiting = new Map<string, Waiting>();
  private readonly finished = new Map<string, string>();
  private next = 1;

  constructor(
    private readonly expiryMs: number,
    private readonly emit: (type: string, payload: unknown) => void,
  ) {}

  private wait<T>(
    view: Omit<InteractionView, 'question_id' | 'requested_at' | 'expires_at'>,
    signal: AbortSignal,
    settleWith: (body: AnswerBody | 'dismiss') => T,
  ): Opened<T> {
    const id = `q_${this.next++}`;
    const now = Date.now();
    const full: InteractionView = {
      question_id: id,
      ...view,
      requested_at: new Date(now).toISOString(),
      expires_at: new Date(now + this.expiryMs).toISOString(),
    };
    const done = new Promise<InteractionSettled<T>>((resolve, reject) => {
      const timer = setTimeout(() => finish('dismiss', null, 'expired'), this.expiryMs);
      timer.unref();
      const withdraw = () => {
        if (!this.waiting.delete(id)) return;
        clearTimeout(timer);
        this.finished.set(id, 'withdrawn');
        this.emit('event.question.dismissed', { question_id: id, resolution: 'withdrawn', client_id: null });
        reject(new Error('the question was withdrawn: the turn stopped'));
      };
      const finish = (
        body: AnswerBody | 'dismiss',
        clientId: string | null,
        how: 'answered' | 'dismissed' | 'expired',
      ) => {
        const value = settleWith(body);
        if (!this.waiting.delete(id)) return;
        clearTimeout(timer);
        signal.removeEventListener('abort', withdraw);
        this.finished.set(id, how);
        this.emit(how === 'answered' ? 'event.question.answered' : 'event.question.dismissed', {
          question_id: id,
          resolution: how,
          client_id: clientId,
          ...(how === 'answered' ? { answer: body } : {}),
        });
        resolve({ value, clientId, how });
      };
      this.waiting.set(id, { view: full, answer: finish });
      if (signal.aborted) return withdraw();
      signal.addEventListener('abort', withdraw, { once: true });
      this.emit('event.question.requested', full);
    });
    return { id, done };
  }

  askQuestions(request: QuestionRequest, signal: AbortSignal): Promise<QuestionResponse> {
    return this.openQuestions(request, signal).done.then((d) => d.value);
  }

  reviewPlan(request: PlanReviewRequest, signal: AbortSignal): Promise<PlanReviewAnswer> {
    return this.openPlanReview(request, signal).done.then((d) => d.value);
  }

  /** As askQuestions, with the id and who settled it (the terminal UI's `/remote`, docs/remote.md). */
  openQuestions(request: QuestionRequest, signal: AbortSignal): Opened<QuestionResponse> {
    return this.wait(
      { kind: 'questions', questions: request.questions, background: request.background },
      signal,
      (body): QuestionResponse =>
        body !== 'dismiss' && 'answers' in body ? { answers: body.answers } : { dismissed: true },
    );
  }

  /** As reviewPlan, with the id and who settled it. */
  openPlanReview(request: PlanReviewRequest, signal: AbortSignal): Opened<PlanReviewAnswer> {
    return this.wait(
      { kind: 'plan_review', plan: { path: request.planPath, text: request.plan, options: request.options } },
      signal,
      (body): PlanReviewAnswer => {
        if (body === 'dismiss' || !('plan_decision' in body)) return { decision: 'reject' };
        if (body.plan_decision === 'approve')
          return body.option ? { decision: 'approve', option: body.option } : { decision: 'approve' };
        if (body.plan_decision === 'revise') return { decision: 'revise', feedback: body.feedback ?? '' };
        return { decision: body.plan_decision };
      },
    );
  }

  pending(): InteractionView[] {
    return [...this.waiting.values()].map((w) => w.view);
  }

  private waitingOrThrow(id: string): Waiting {
    const w = this.waiting.get(id);
    if (w) return w;
    const done = this.finished.get(id);
    if (done === 'expired') throw new ApiError(41002, `question ${id} expired`);
    if (done) throw new ApiError(Codes.alreadyResolved, `question ${id} was already resolved (${done})`);
    throw new ApiError(40405, `no question ${id} in this session`);
  }

  answer(id: string, body: AnswerBody, clientId: string): void {
    const w = this.waitingOrThrow(id);
    const isPlan = w.view.kind === 'plan_review';
    if (isPlan !== 'plan_decision' in body)
      throw new ApiError(
        Codes.validation,
        isPlan ? 'a plan review is answered with plan_decision' : 'questions are answered with answers',
      );
    if ('plan_decision' in body && body.plan_decision === 'revise' && !body.feedback?.trim())
      throw new ApiError(Codes.validation, 'plan_decision "revise" needs feedback');
    if ('answers' in body) {
      const asked = new Set((w.view.questions ?? []).map((q) => q.question));
      for (const a of body.answers)
        if (!asked.has(a.question))
          throw new ApiError(Codes.validation, `no question ${JSON.stringify(a.question)} was asked`);
    }
    w.answer(body, clientId, 'answered');
  }

  dismiss(id: string, clientId: string): void {
    this.waitingOrThrow(id).answer('dismiss', clientId, 'dismissed');
  }

  /** Settles a waiting question with an answer given elsewhere (the terminal's panel); false when it already was. */
  settleFrom(id: string, body: AnswerBody | 'dismiss', clientId: string): boolean {
    const w = this.waiting.get(id);
    if (!w) return false;
    w.answer(body, clientId, body === 'dismiss' ? 'dismissed' : 'answered');
    return true;
  }

  withdrawAll(): void {
    for (const w of [...this.waiting.values()]) w.answer('dismiss', null, 'dismissed');
  }
}
