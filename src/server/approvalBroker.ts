// Approvals of one session waiting for any client (docs/server.md "Approvals"): the first answer wins, later ones
// get 40902; an approval nobody answers expires (41001 afterwards) and the call is refused; one withdrawn by the
// engine (the turn was stopped) resolves as `withdrawn`. Every resolution is an event naming who answered.
import type { ApprovalAnswer, ApprovalRequest } from '../engine/policy/approvals';
import { ApiError, Codes } from './envelope';

export interface ApprovalView {
  approval_id: string;
  tool: string;
  subject: string;
  reason: string;
  args: unknown;
  commands?: string[];
  agent_id: string;
  requested_at: string;
  expires_at: string;
}

export type Resolution = 'approved' | 'approved_for_session' | 'rejected' | 'expired' | 'withdrawn';

/** How an approval ended: the engine's answer, and who gave it (null: expiry or a withdrawn call). */
export interface Settled {
  answer: ApprovalAnswer;
  resolution: Resolution;
  clientId: string | null;
}

interface Waiting {
  view: ApprovalView;
  settle(answer: ApprovalAnswer, resolution: Resolution, clientId: string | null): void;
}

export class ApprovalBroker {
  private readonly waiting = new Map<string, Waiting>();
  private readonly finished = new Map<string, Resolution>();
  private next = 1;

  constructor(
    private readonly expiryMs: number,
    private readonly emit: (type: string, payload: unknown) => void,
  ) {}

  ask(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer> {
    return this.open(request, signal).done.then((d) => d.answer);
  }

  /**
   * As `ask`, with the approval's id and who settled it: the terminal UI's `/remote` (docs/remote.md) waits on this
   * and on its own panel at once, and settles it with `settleFrom` when the panel answers first.
   */
  open(request: ApprovalRequest, signal: AbortSignal): { id: string; done: Promise<Settled> } {
    const id = `ap_${this.next++}`;
    const now = Date.now();
    const view: ApprovalView = {
      approval_id: id,
      tool: request.toolName,
      subject: request.subject,
      reason: request.reason,
      args: request.args,
      ...(request.commands ? { commands: request.commands } : {}),
      agent_id: request.agentId ?? 'main',
      requested_at: new Date(now).toISOString(),
      expires_at: new Date(now + this.expiryMs).toISOString(),
    };
    const done = new Promise<Settled>((resolve) => {
      const timer = setTimeout(
        () => settle({ decision: 'reject', feedback: 'No one answered the approval in time.' }, 'expired', null),
        this.expiryMs,
      );
      timer.unref();
      const withdraw = () => settle({ decision: 'reject' }, 'withdrawn', null);
      const settle = (answer: ApprovalAnswer, resolution: Resolution, clientId: string | null) => {
        if (!this.waiting.delete(id)) return;
        clearTimeout(timer);
        signal.removeEventListener('abort', withdraw);
        this.finished.set(id, resolution);
        this.emit('event.approval.resolved', { approval_id: id, resolution, client_id: clientId });
        resolve({ answer, resolution, clientId });
      };
      this.waiting.set(id, { view, settle });
      if (signal.aborted) return withdraw();
      signal.addEventListener('abort', withdraw, { once: true });
      this.emit('event.approval.requested', view);
    });
    return { id, done };
  }

  /** Settles a waiting approval with an answer given elsewhere (the terminal's panel); false when it already was. */
  settleFrom(id: string, answer: ApprovalAnswer, clientId: string): boolean {
    const w = this.waiting.get(id);
    if (!w) return false;
    const resolution: Resolution =
      answer.decision === 'approve_session'
        ? 'approved_for_session'
        : answer.decision === 'approve'
          ? 'approved'
          : 'rejected';
    w.settle(answer, resolution, clientId);
    return true;
  }

  pending(): ApprovalView[] {
    return [...this.waiting.values()].map((w) => w.view);
  }

  answer(
    id: string,
    body: {
      decision: 'approved' | 'rejected' | 'cancelled';
      scope?: 'once' | 'session';
      feedback?: string;
      updated_input?: Record<string, unknown>;
    },
    clientId: string,
  ): Resolution {
    const w = this.waiting.get(id);
    if (!w) {
      const done = this.finished.get(id);
      if (done === 'expired') throw new ApiError(Codes.approvalExpired, `approval ${id} expired`);
      if (done) throw new ApiError(Codes.alreadyResolved, `approval ${id} was already resolved (${done})`);
      throw new ApiError(Codes.approval, `no approval ${id} in this session`);
    }
    if (body.decision === 'approved') {
      // Arguments rewritten by the client are checked against the tool's schema and judged again (docs/sdk.md).
      if (body.updated_input) {
        w.settle({ decision: 'approve', updatedArgs: body.updated_input }, 'approved', clientId);
        return 'approved';
      }
      const session = body.scope === 'session';
      w.settle(
        session ? { decision: 'approve_session' } : { decision: 'approve' },
        session ? 'approved_for_session' : 'approved',
        clientId,
      );
      return session ? 'approved_for_session' : 'approved';
    }
    const feedback = body.feedback?.trim();
    w.settle(
      feedback ? { decision: 'reject', feedback, endTurn: body.decision === 'cancelled' } : { decision: 'reject' },
      'rejected',
      clientId,
    );
    return 'rejected';
  }

  /** Every waiting approval refused (the session closes). */
  withdrawAll(): void {
    for (const w of [...this.waiting.values()]) w.settle({ decision: 'reject' }, 'withdrawn', null);
  }
}
