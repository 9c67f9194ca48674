// The terminal's questions shared with the web (docs/remote.md "Two places, one answer"): while `/remote` runs, the
// engine asks once, and the terminal's panel and the server's broker both wait on that one question. The first
// answer wins: a client's answer closes the panel and the terminal says who answered; the panel's answer settles the
// broker as client `tui`, so web clients see who did. Expiry or a withdrawal on the server's side never decides for
// the terminal: only a client's answer competes with the panel.
import type { ApprovalAnswer, ApprovalPort } from '../../engine/policy/approvals';
import type { InteractionPort, PlanReviewAnswer, QuestionResponse } from '../../engine/delegation/interactions';
import type { EnginePorts } from '../sessionLifecycle';
import type { RemoteLink, RemoteSettled, RemoteWait } from './remoteLink';

const never = new Promise<never>(() => undefined);

interface Shared<T> {
  /** The panel's wait, stopped by its signal when a client answers first. */
  local(signal: AbortSignal): Promise<T>;
  remote(link: RemoteLink): RemoteWait<T>;
  settle(link: RemoteLink, id: string, value: T): boolean;
  /** What the terminal says when a client answered: "Write(a.txt) approved". */
  told(value: T): string;
}

export function approvalWords(answer: ApprovalAnswer): string {
  if (answer.decision === 'approve') return 'approved';
  if (answer.decision === 'approve_session') return 'approved for the session';
  return answer.feedback ? `rejected with feedback: ${answer.feedback}` : 'rejected';
}

function planWords(answer: PlanReviewAnswer): string {
  if (answer.decision === 'approve') return `approved${answer.option ? ` (${answer.option})` : ''}`;
  if (answer.decision === 'revise') return `sent back for revision: ${answer.feedback}`;
  return answer.decision === 'reject' ? 'rejected' : 'rejected, leaving plan mode';
}

export class RemoteBridge {
  private current: RemoteLink | undefined;

  constructor(private readonly tell: (text: string) => void) {}

  get link(): RemoteLink | undefined {
    return this.current;
  }

  set link(link: RemoteLink | undefined) {
    this.current = link;
  }

  /** The engine's ports as the terminal gives them, made to wait in both places while a link is up. */
  wrap(ports: EnginePorts): EnginePorts {
    const panel: ApprovalPort = ports.approvalPort;
    const panels: InteractionPort = ports.interactionPort;
    return {
      approvalPort: {
        ask: (request, signal) =>
          this.both(signal, {
            local: (s) => panel.ask(request, s),
            remote: (link) => link.approval(request, signal),
            settle: (link, id, answer) => link.settleApproval(id, answer),
            told: (answer) => `${request.subject} ${approvalWords(answer)}`,
          }),
      },
      interactionPort: {
        askQuestions: (request, signal) =>
          this.both<QuestionResponse>(signal, {
            local: (s) => panels.askQuestions(request, s),
            remote: (link) => link.questions(request, signal),
            settle: (link, id, response) => link.settleQuestions(id, response),
            told: (response) =>
              'answers' in response ? 'The questions were answered' : 'The questions were dismissed',
          }),
        reviewPlan: (request, signal) =>
          this.both<PlanReviewAnswer>(signal, {
            local: (s) => panels.reviewPlan(request, s),
            remote: (link) => link.planReview(request, signal),
            settle: (link, id, answer) => link.settlePlanReview(id, answer),
            told: (answer) => `The plan was ${planWords(answer)}`,
          }),
      },
      onEvent: (event) => {
        ports.onEvent(event);
        this.current?.onEngineEvent(event);
      },
    };
  }

  private async both<T>(signal: AbortSignal, shared: Shared<T>): Promise<T> {
    const link = this.current;
    if (!link) return shared.local(signal);
    // The engine's signal withdraws both; the panel's own one also closes it when a client answers first.
    const panelStop = new AbortController();
    const remote = shared.remote(link);
    const fromClient = remote.done.then(
      (s): Promise<RemoteSettled<T>> | RemoteSettled<T> => (s.clientId === null ? never : s),
      () => never,
    );
    const fromPanel = shared.local(AbortSignal.any([signal, panelStop.signal])).then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    );
    const first = await Promise.race([fromPanel, fromClient.then((client) => ({ client }))]);
    if ('client' in first) {
      panelStop.abort();
      this.tell(`${shared.told(first.client.value)} from the browser (client ${first.client.clientId}).`);
      return first.client.value;
    }
    if ('error' in first) throw first.error;
    if (!signal.aborted && !shared.settle(link, remote.id, first.value)) {
      // A client's answer reached the server in the same moment and went out as the winner: it is the one that counts.
      const settled = await remote.done.catch(() => undefined);
      if (settled && settled.clientId !== null) {
        this.tell(`${shared.told(settled.value)} from the browser (client ${settled.clientId}).`);
        return settled.value;
      }
    }
    return first.value;
  }
}
