// The terminal's questions shared with the web while `/remote` runs (src/ui/remote/remoteBridge.ts): the engine asks
// once, the terminal's panel and the server's real brokers wait together, and the first answer wins. Also the
// `/remote` arguments.
import { describe, expect, it } from 'vitest';
import type { ApprovalAnswer, ApprovalRequest } from '../../src/engine/policy/approvals';
import type { PlanReviewAnswer, QuestionResponse } from '../../src/engine/delegation/interactions';
import { ApprovalBroker } from '../../src/server/approvalBroker';
import { ApiError } from '../../src/server/envelope';
import { InteractionBroker } from '../../src/server/interactionBroker';
import { RemoteBridge } from '../../src/ui/remote/remoteBridge';
import { parseRemoteArgs } from '../../src/ui/remote/remoteControl';
import type { RemoteLink } from '../../src/ui/remote/remoteLink';
import type { EnginePorts } from '../../src/ui/sessionLifecycle';

const REQUEST = {
  toolName: 'Write',
  subject: 'Write(a.txt)',
  reason: 'writes a file',
  args: { path: 'a.txt', content: 'x' },
} as unknown as ApprovalRequest;

/** The terminal's panels: each wait is kept so a test can answer it, and closes as the real one does on abort. */
function panels() {
  const open: Array<{ kind: string; signal: AbortSignal; answer(v: unknown): void }> = [];
  const wait = <T>(kind: string, signal: AbortSignal, onAbort: () => T | Error) =>
    new Promise<T>((resolve, reject) => {
      const entry = { kind, signal, answer: (v: unknown) => resolve(v as T) };
      open.push(entry);
      signal.addEventListener('abort', () => {
        const v = onAbort();
        if (v instanceof Error) reject(v);
        else resolve(v);
      });
    });
  const ports: EnginePorts = {
    approvalPort: { ask: (_r, signal) => wait<ApprovalAnswer>('approval', signal, () => ({ decision: 'reject' })) },
    interactionPort: {
      askQuestions: (_r, signal) => wait<QuestionResponse>('questions', signal, () => new Error('withdrawn')),
      reviewPlan: (_r, signal) => wait<PlanReviewAnswer>('plan', signal, () => new Error('withdrawn')),
    },
    onEvent: () => undefined,
  };
  return { ports, open };
}

function linked() {
  const events: Array<{ type: string; payload: Record<string, unknown> }> = [];
  const emit = (type: string, payload: unknown) => events.push({ type, payload: payload as Record<string, unknown> });
  const approvals = new ApprovalBroker(60_000, emit);
  const questions = new InteractionBroker(60_000, emit);
  const link = {
    approval: (request, signal) => {
      const { id, done } = approvals.open(request, signal);
      return { id, done: done.then((d) => ({ value: d.answer, clientId: d.clientId })) };
    },
    settleApproval: (id, answer) => approvals.settleFrom(id, answer, 'tui'),
    questions: (request, signal) => {
      const { id, done } = questions.openQuestions(request, signal);
      return { id, done: done.then((d) => ({ value: d.value, clientId: d.clientId })) };
    },
    settleQuestions: (id, r) => questions.settleFrom(id, 'answers' in r ? { answers: r.answers } : 'dismiss', 'tui'),
    planReview: (request, signal) => {
      const { id, done } = questions.openPlanReview(request, signal);
      return { id, done: done.then((d) => ({ value: d.value, clientId: d.clientId })) };
    },
    settlePlanReview: (id, a) =>
      questions.settleFrom(
        id,
        { plan_decision: a.decision, ...('feedback' in a ? { feedback: a.feedback } : {}) },
        'tui',
      ),
    onEngineEvent: () => undefined,
  } as Partial<RemoteLink> as RemoteLink;
  return { link, approvals, questions, events };
}

function setUp(withLink = true) {
  const told: string[] = [];
  const bridge = new RemoteBridge((t) => told.push(t));
  const panel = panels();
  const remote = linked();
  if (withLink) bridge.link = remote.link;
  return { told, ports: bridge.wrap(panel.ports), panel, remote, bridge };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('RemoteBridge', () => {
  it('without /remote only the panel is asked', async () => {
    const { ports, panel, remote } = setUp(false);
    const answer = ports.approvalPort.ask(REQUEST, new AbortController().signal);
    expect(panel.open).toHaveLength(1);
    panel.open[0].answer({ decision: 'approve' });
    expect(await answer).toEqual({ decision: 'approve' });
    expect(remote.events).toEqual([]);
  });

  it("a client's answer wins: the panel closes and the terminal names the client", async () => {
    const { ports, panel, remote, told } = setUp();
    const answer = ports.approvalPort.ask(REQUEST, new AbortController().signal);
    const [pending] = remote.approvals.pending();
    remote.approvals.answer(pending.approval_id, { decision: 'approved', scope: 'session' }, 'web:phone');
    expect(await answer).toEqual({ decision: 'approve_session' });
    expect(panel.open[0].signal.aborted).toBe(true);
    expect(told).toEqual(['Write(a.txt) approved for the session from the browser (client web:phone).']);
  });

  it("the panel's answer wins: web clients see client tui, and a late answer is refused", async () => {
    const { ports, panel, remote, told } = setUp();
    const answer = ports.approvalPort.ask(REQUEST, new AbortController().signal);
    const [pending] = remote.approvals.pending();
    panel.open[0].answer({ decision: 'reject', feedback: 'not that file' });
    expect(await answer).toEqual({ decision: 'reject', feedback: 'not that file' });
    expect(remote.events.at(-1)).toEqual({
      type: 'event.approval.resolved',
      payload: { approval_id: pending.approval_id, resolution: 'rejected', client_id: 'tui' },
    });
    expect(() => remote.approvals.answer(pending.approval_id, { decision: 'approved' }, 'web:late')).toThrow(ApiError);
    expect(told).toEqual([]);
  });

  it('/remote off while an approval waits leaves it to the panel (a withdrawal on the server decides nothing)', async () => {
    const { ports, panel, remote, told, bridge } = setUp();
    const answer = ports.approvalPort.ask(REQUEST, new AbortController().signal);
    bridge.link = undefined;
    remote.approvals.withdrawAll();
    await tick();
    expect(panel.open[0].signal.aborted).toBe(false);
    panel.open[0].answer({ decision: 'approve' });
    expect(await answer).toEqual({ decision: 'approve' });
    expect(told).toEqual([]);
  });

  it('a turn stopped while both wait withdraws both: the call is refused', async () => {
    const { ports, remote } = setUp();
    const stop = new AbortController();
    const answer = ports.approvalPort.ask(REQUEST, stop.signal);
    stop.abort();
    expect(await answer).toEqual({ decision: 'reject' });
    expect(remote.events.at(-1)!.payload).toMatchObject({ resolution: 'withdrawn', client_id: null });
  });

  it('questions: a client answers, the panel closes without an unhandled rejection', async () => {
    const { ports, panel, remote, told } = setUp();
    const request = {
      questions: [{ question: 'Which colour?', header: 'Colour', options: [{ label: 'Blue', description: '' }] }],
    } as Parameters<EnginePorts['interactionPort']['askQuestions']>[0];
    const answer = ports.interactionPort.askQuestions(request, new AbortController().signal);
    const [q] = remote.questions.pending();
    const answers = [{ question: 'Which colour?', kind: 'single' as const, selected: ['Blue'] }];
    remote.questions.answer(q.question_id, { answers }, 'web:tab');
    expect(await answer).toEqual({ answers });
    expect(panel.open[0].signal.aborted).toBe(true);
    expect(told).toEqual(['The questions were answered from the browser (client web:tab).']);
  });

  it('a plan review answered in the panel is answered for web clients by client tui', async () => {
    const { ports, panel, remote } = setUp();
    const answer = ports.interactionPort.reviewPlan(
      { plan: '# Plan', planPath: '/p/plan.md', options: [] } as unknown as Parameters<
        EnginePorts['interactionPort']['reviewPlan']
      >[0],
      new AbortController().signal,
    );
    panel.open[0].answer({ decision: 'revise', feedback: 'smaller steps' });
    expect(await answer).toEqual({ decision: 'revise', feedback: 'smaller steps' });
    expect(remote.events.at(-1)).toMatchObject({
      type: 'event.question.answered',
      payload: {
        resolution: 'answered',
        client_id: 'tui',
        answer: { plan_decision: 'revise', feedback: 'smaller steps' },
      },
    });
  });
});

describe('parseRemoteArgs', () => {
  it.each([
    ['', { action: 'on', settings: {} }],
    ['on --port 0', { action: 'on', settings: { port: 0 } }],
    ['--host 100.64.0.7 --port 9000', { action: 'on', settings: { host: '100.64.0.7', port: 9000 } }],
    ['off', { action: 'off', settings: {} }],
    ['status', { action: 'status', settings: {} }],
  ])('%j', (args, expected) => expect(parseRemoteArgs(args)).toEqual(expected));

  it.each([
    ['--port', '--port needs a value'],
    ['--port 80a', '--port 80a: give a port number'],
    ['--bind 0.0.0.0', 'Not understood: "--bind"'],
    ['off --port 1', 'Not understood: "--port"'],
  ])('refuses %j, saying what', (args, message) => expect(parseRemoteArgs(args)).toContain(message));
});
