// The terminal UI's answers to what the engine asks: each question becomes a panel in the input box's
// place (approval, plan review, questions), queued in the front-end-neutral QuestionQueue.
import type { Component } from '@mariozechner/pi-tui';
import type { ApprovalAnswer, ApprovalPort } from '../engine/policy/approvals';
import type { InteractionPort, PlanReviewAnswer, QuestionResponse } from '../engine/delegation/interactions';
import type { QuestionQueue } from '../engine/runtime/questionQueue';
import { displayPath } from '../store/paths';
import { ApprovalPanel } from './approvalPanel';
import { PlanReviewPanel } from './dialogs/planReview';
import { QuestionPanel } from './dialogs/questionDialog';
import type { Theme } from './theme';

export interface PanelEnv {
  theme(): Theme;
  cwd: string;
  rows(): number;
}

export function panelApprovalPort(queue: QuestionQueue<Component>, env: PanelEnv): ApprovalPort {
  return {
    ask: (request, signal) =>
      queue.ask<ApprovalAnswer>(signal, {
        label: 'Waiting for your approval',
        view: (finish) => new ApprovalPanel(request, env.theme(), env.cwd, finish),
        // A withdrawn approval is a rejection: the call does not run.
        onAbort: () => ({ decision: 'reject' }),
      }),
  };
}

export function panelInteractionPort(queue: QuestionQueue<Component>, env: PanelEnv): InteractionPort {
  const withdrawn = () => new Error('the turn was interrupted before the user answered');
  return {
    reviewPlan: (request, signal) =>
      queue.ask<PlanReviewAnswer>(signal, {
        label: 'Waiting for your plan review',
        view: (finish) => new PlanReviewPanel(env.theme(), request, finish, env.rows, displayPath(request.planPath)),
        onAbort: withdrawn,
      }),
    askQuestions: (request, signal) =>
      queue.ask<QuestionResponse>(signal, {
        label: 'Waiting for your answer',
        background: request.background,
        view: (finish) => new QuestionPanel(env.theme(), request, finish),
        onAbort: withdrawn,
      }),
  };
}
