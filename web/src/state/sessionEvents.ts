// A session's events (docs/server.md "Events") reduced into its view: messages, prompts, approvals, questions and
// status. Events at or before the view's cursor were already applied (a snapshot or a replay) and are skipped.
import { applyLive } from './live';
import { applyDelta, applyStreamMessage, type StreamMessage } from './messages';
import type { Approval, Interaction, ServerEvent, SessionView, Status } from './types';

function who(clientId: unknown, own: string): string {
  if (clientId === own) return 'this tab';
  if (clientId === 'tui') return 'the terminal';
  return typeof clientId === 'string' ? clientId : 'nobody (it ended)';
}

export function applyEvent(view: SessionView, e: ServerEvent, ownClient: string): SessionView {
  const p = e.payload;
  // Volatile events (seq 0) are live only; numbered ones are applied once, in order.
  if (e.seq > 0) {
    if (e.seq <= view.lastSeq && e.epoch === view.epoch) return view;
    view = { ...view, lastSeq: e.seq, epoch: e.epoch ?? view.epoch };
  }
  switch (e.type) {
    case 'message.delta':
      return { ...view, items: applyDelta(view.items, p) };
    case 'message':
      return { ...view, items: applyStreamMessage(view.items, p as StreamMessage, e.seq) };
    case 'prompt.queued': {
      const id = `u:${String(p.prompt_id)}`;
      if (view.items.some((it) => it.id === id)) return view;
      return { ...view, items: [...view.items, { kind: 'user', id, text: String(p.text ?? ''), queued: true }] };
    }
    case 'prompt.started':
      return {
        ...view,
        busy: true,
        items: view.items.map((it) =>
          it.kind === 'user' && it.id === `u:${String(p.prompt_id)}` ? { ...it, queued: false } : it,
        ),
      };
    case 'prompt.completed':
      return {
        ...view,
        busy: false,
        items: view.items.filter(
          (it) => !(it.kind === 'user' && it.queued && it.id === `u:${String(p.prompt_id)}` && p.status === 'aborted'),
        ),
      };
    case 'event.approval.requested':
      return {
        ...view,
        resolvedElsewhere: undefined,
        approvals: [...view.approvals.filter((a) => a.approval_id !== p.approval_id), p as unknown as Approval],
      };
    case 'event.approval.resolved': {
      const had = view.approvals.find((a) => a.approval_id === p.approval_id);
      return {
        ...view,
        approvals: view.approvals.filter((a) => a.approval_id !== p.approval_id),
        resolvedElsewhere:
          had && p.client_id !== ownClient
            ? `${had.tool}: ${String(p.resolution).replace(/_/g, ' ')} by ${who(p.client_id, ownClient)}.`
            : view.resolvedElsewhere,
      };
    }
    case 'event.question.requested':
      return {
        ...view,
        resolvedElsewhere: undefined,
        questions: [...view.questions.filter((q) => q.question_id !== p.question_id), p as unknown as Interaction],
      };
    case 'event.question.answered':
    case 'event.question.dismissed': {
      const had = view.questions.find((q) => q.question_id === p.question_id);
      return {
        ...view,
        questions: view.questions.filter((q) => q.question_id !== p.question_id),
        resolvedElsewhere:
          had && p.client_id !== ownClient
            ? `${had.kind === 'plan_review' ? 'Plan review' : 'Question'}: ${String(p.resolution ?? 'answered')} by ${who(p.client_id, ownClient)}.`
            : view.resolvedElsewhere,
      };
    }
    case 'session.status_changed':
      return { ...view, status: { ...(view.status as Status), ...(p as unknown as Status) } };
    case 'session.rewound':
    case 'compaction.completed':
      // The conversation changed under the items: the caller reloads the snapshot.
      return { ...view, stale: true };
    case 'error':
      return {
        ...view,
        items: [
          ...view.items,
          { kind: 'notice', id: `e:${e.seq}`, text: String(p.message ?? 'error'), level: 'error' },
        ],
      };
    default: {
      const live = applyLive(view.live, e);
      return live === view.live ? view : { ...view, live };
    }
  }
}
