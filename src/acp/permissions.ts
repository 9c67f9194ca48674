// What the engine asks a human, asked through the editor: tool approvals, AskUserQuestion and plan
// reviews all become `session/request_permission` requests (docs/acp.md). They go through the engine's
// QuestionQueue, so the editor gets one at a time, oldest first, background questions only while the
// agent is idle, and an interrupted turn withdraws its questions (the editor's request is cancelled).
import type { PermissionOption, ToolCallContent, ToolCallUpdate } from '@agentclientprotocol/sdk';
import type { ApprovalAnswer, ApprovalPort, ApprovalRequest } from '../engine/policy/approvals';
import type {
  InteractionPort,
  PlanReviewAnswer,
  PlanReviewRequest,
  Question,
  QuestionAnswer,
  QuestionResponse,
} from '../engine/delegation/interactions';
import type { QuestionQueue } from '../engine/runtime/questionQueue';
import { OTHER_LABEL } from '../tools/question/questionService';
import {
  agentTitle,
  editorCallId,
  parseToolArgs,
  resultContent,
  toolKind,
  toolLocations,
  toolTitle,
} from './toolCalls';

/** Sends one `session/request_permission`; resolves to the chosen option id, or undefined when cancelled. */
export type PermissionRequester = (
  toolCall: ToolCallUpdate,
  options: PermissionOption[],
  signal: AbortSignal,
) => Promise<string | undefined>;

/** A question waiting in the queue; `start` sends it to the editor (once it is its turn). */
export interface PendingPermission {
  started: boolean;
  start(): void;
}

/** Sends the question now due, if it has not gone out yet: the queue's `onChange`. */
export function startDue(queue: QuestionQueue<PendingPermission>, agentBusy: boolean): void {
  const due = queue.current(agentBusy);
  if (due && !due.started) due.start();
}

/** `onFailure`: the answer when the editor could not be asked (the connection closed, an error reply). */
function pending<T>(finish: (value: T) => void, send: () => Promise<T>, onFailure: () => T): PendingPermission {
  const view: PendingPermission = {
    started: false,
    start() {
      view.started = true;
      send().then(finish, () => finish(onFailure()));
    },
  };
  return view;
}

/** The options of an approval: those the request offers (docs/approvals.md), then Reject. */
const APPROVAL_OPTIONS = (request: ApprovalRequest): PermissionOption[] => {
  const offers = request.offers ?? ['once', 'session'];
  return [
    ...(offers.includes('once') ? [{ optionId: 'allow_once', name: 'Allow once', kind: 'allow_once' } as const] : []),
    ...(offers.includes('session')
      ? [
          {
            optionId: 'allow_session',
            name: `Allow for this session (${request.sessionPattern})`,
            kind: 'allow_always',
          } as const,
        ]
      : []),
    { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
  ];
};

function approvalToolCall(request: ApprovalRequest, cwd: string): ToolCallUpdate {
  const args =
    request.args && typeof request.args === 'object'
      ? (request.args as Record<string, unknown>)
      : parseToolArgs(String(request.args ?? ''));
  // A Bash line is also shown as bash reads it (continuations joined): `r\⏎m` is `rm` (docs/approvals.md).
  const reads = request.normalised !== undefined ? `\nBash reads it as: ${request.normalised}` : '';
  const runs = request.commands?.length ? `\nRuns: ${request.commands.join('; ')}` : '';
  const text = `${request.subject}: ${request.reason}${reads}${runs}`;
  const why: ToolCallContent = { type: 'content', content: { type: 'text', text } };
  const preview = request.preview ? resultContent('', request.preview) : [];
  return {
    toolCallId: editorCallId(request.agentId, request.callId),
    title: agentTitle(request.agentId, toolTitle(request.toolName, args, cwd)),
    kind: toolKind(request.toolName),
    status: 'pending',
    rawInput: args,
    locations: toolLocations(args, cwd),
    content: [...preview, why],
  };
}

export function acpApprovalPort(
  queue: QuestionQueue<PendingPermission>,
  requestPermission: PermissionRequester,
  cwd: string,
): ApprovalPort {
  return {
    ask: (request, signal) =>
      queue.ask<ApprovalAnswer>(signal, {
        label: 'Waiting for your approval',
        view: (finish) =>
          pending<ApprovalAnswer>(
            finish,
            async () => {
              const choice = await requestPermission(approvalToolCall(request, cwd), APPROVAL_OPTIONS(request), signal);
              if (choice === 'allow_once') return { decision: 'approve' };
              if (choice === 'allow_session') return { decision: 'approve_session' };
              return { decision: 'reject' };
            },
            () => ({ decision: 'reject' }),
          ),
        // A withdrawn approval is a rejection: the call does not run.
        onAbort: () => ({ decision: 'reject' }),
      }),
  };
}

let askCounter = 0;

async function askOne(
  question: Question,
  requestPermission: PermissionRequester,
  signal: AbortSignal,
): Promise<QuestionAnswer | undefined> {
  // The editor shows options, not a text box: "Other" (free text) cannot be answered there.
  const choices = question.options.filter((o) => o.label !== OTHER_LABEL);
  const options: PermissionOption[] = [
    ...choices.map((o, i) => ({
      optionId: `option-${i}`,
      name: o.description ? `${o.label} — ${o.description}` : o.label,
      kind: 'allow_once' as const,
    })),
    { optionId: 'skip', name: 'Skip this question', kind: 'reject_once' },
  ];
  const toolCall: ToolCallUpdate = {
    toolCallId: `question-${++askCounter}`,
    title: question.header ? `${question.header}: ${question.question}` : question.question,
    kind: 'other',
    status: 'pending',
    content: [{ type: 'content', content: { type: 'text', text: question.question } }],
  };
  const choice = await requestPermission(toolCall, options, signal);
  if (choice === undefined) return undefined;
  const picked = /^option-(\d+)$/.exec(choice);
  const label = picked ? choices[Number(picked[1])]?.label : undefined;
  return label
    ? { question: question.question, kind: 'single', selected: [label] }
    : { question: question.question, kind: 'skipped', selected: [] };
}

const PLAN_APPROVE = 'approve';
const PLAN_REJECT = 'reject';
const PLAN_REJECT_AND_EXIT = 'reject_and_exit';

async function reviewPlan(
  request: PlanReviewRequest,
  requestPermission: PermissionRequester,
  signal: AbortSignal,
): Promise<PlanReviewAnswer> {
  const options: PermissionOption[] = [
    { optionId: PLAN_APPROVE, name: 'Approve the plan', kind: 'allow_once' },
    ...request.options.map((o, i) => ({
      optionId: `${PLAN_APPROVE}-${i}`,
      name: `Approve: ${o.label}`,
      kind: 'allow_once' as const,
    })),
    { optionId: PLAN_REJECT, name: 'Reject (stay in plan mode)', kind: 'reject_once' },
    { optionId: PLAN_REJECT_AND_EXIT, name: 'Reject and leave plan mode', kind: 'reject_always' },
  ];
  const toolCall: ToolCallUpdate = {
    toolCallId: `plan-review-${++askCounter}`,
    title: 'Review the plan',
    kind: 'switch_mode',
    status: 'pending',
    locations: [{ path: request.planPath }],
    content: [{ type: 'content', content: { type: 'text', text: request.plan } }],
  };
  const choice = await requestPermission(toolCall, options, signal);
  if (choice === PLAN_APPROVE) return { decision: 'approve' };
  const picked = choice && new RegExp(`^${PLAN_APPROVE}-(\\d+)$`).exec(choice);
  if (picked) return { decision: 'approve', option: request.options[Number(picked[1])]?.label };
  if (choice === PLAN_REJECT_AND_EXIT) return { decision: 'reject_and_exit' };
  return { decision: 'reject' };
}

export function acpInteractionPort(
  queue: QuestionQueue<PendingPermission>,
  requestPermission: PermissionRequester,
): InteractionPort {
  return {
    reviewPlan: (request, signal) =>
      queue.ask<PlanReviewAnswer>(signal, {
        label: 'Waiting for your plan review',
        view: (finish) =>
          pending<PlanReviewAnswer>(
            finish,
            () => reviewPlan(request, requestPermission, signal),
            () => ({ decision: 'reject' }),
          ),
        onAbort: () => new Error('the turn was interrupted before the plan was reviewed'),
      }),
    askQuestions: (request, signal) =>
      queue.ask<QuestionResponse>(signal, {
        label: 'Waiting for your answer',
        background: request.background,
        view: (finish) =>
          pending<QuestionResponse>(
            finish,
            async () => {
              const answers: QuestionAnswer[] = [];
              for (const question of request.questions) {
                const answer = await askOne(question, requestPermission, signal);
                if (!answer) return { dismissed: true };
                answers.push(answer);
              }
              return { answers };
            },
            () => ({ dismissed: true }),
          ),
        onAbort: () => new Error('the turn was interrupted before the user answered'),
      }),
  };
}
