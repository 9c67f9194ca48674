// The terminal UI's live session driven by the server (docs/remote.md): what `/remote` lends a ServerSession in
// place of a SessionHost. A prompt from a web client is sent as if typed in the terminal and is that client's once
// its turn starts; every turn — the browser's, the terminal's, a background task's report — becomes the same
// messages a SessionHost emits (engine/runtime/streamJson.ts, one `result` per turn from runResult.ts), and the
// terminal's own turns show as prompts with `source: "tui"`.
import { EXIT_FAILURE, EXIT_INTERRUPTED, EXIT_SUCCESS } from '../engine/runtime/headlessRun';
import { RunResultRecorder } from '../engine/runtime/runResult';
import { streamJsonMessage } from '../engine/runtime/streamJson';
import { MAIN_AGENT_ID, type EngineEvent } from '../engine/loop/events';
import type { PermissionMode, TurnEndReason } from '../engine/session/records';
import type { Runtime } from '../engine/runtime/runtime';
import type { ModelChoice } from '../store/modelChoices';
import type { RemoteTarget } from '../ui/remote/remoteLink';
import { ApiError, Codes } from './envelope';
import type { RunExtra, SessionDriver, ServerSession } from './serverSession';

interface Turn {
  recorder: RunResultRecorder;
  /** A web client's prompt: its run() resolves at the turn's end. */
  client?: (outcome: { outcome: string }) => void;
  /** A turn the terminal started: the prompt the server lists for it. */
  local?: ReturnType<ServerSession['beginLocal']>;
}

function exitCodeOf(reason: TurnEndReason): number {
  if (reason === 'completed') return EXIT_SUCCESS;
  if (reason === 'cancelled') return EXIT_INTERRUPTED;
  return EXIT_FAILURE;
}

export class TuiSessionDriver implements SessionDriver {
  /** Web clients' prompts sent to the terminal, waiting for their turn to start. */
  private readonly sent: Array<{ text: string; done: (o: { outcome: string }) => void }> = [];
  /** A web client's `/flow:<name>` running its turns in the terminal's session. */
  private flows = 0;
  private turn: Turn | undefined;
  private session: ServerSession | undefined;
  private closed = false;

  constructor(private readonly target: RemoteTarget) {}

  /** The ServerSession this driver feeds (set once it exists). */
  bind(session: ServerSession): void {
    this.session = session;
  }

  get runtime(): Runtime {
    return this.target.runtime;
  }

  get busy(): boolean {
    return this.target.runtime.agent.busy || this.sent.length > 0 || this.flows > 0;
  }

  /**
   * A web client's prompt, with what the server prepared for it (a command's expansion and pre-approved tools, its
   * `@path` files and images): sent to the terminal as if typed there. A `/flow:<name>` runs its turns in the
   * terminal's session, each shown as the terminal's own turn; the prompt ends with the flow.
   */
  run(prompt: string, extra: RunExtra = {}): Promise<{ outcome: string }> {
    if (this.closed) return Promise.reject(new Error('the terminal session is no longer shared'));
    const { flow, ...content } = extra;
    if (flow) return this.runFlow(flow);
    return new Promise((done) => {
      this.sent.push({ text: prompt, done });
      // Nothing prepared (a plain prompt): the terminal reads it as typed there (its `@path` files, pasted images).
      this.target.send(prompt, Object.keys(content).length ? content : undefined);
    });
  }

  private async runFlow(flow: NonNullable<RunExtra['flow']>): Promise<{ outcome: string }> {
    this.flows++;
    try {
      const result = await flow();
      return { outcome: result.ok ? 'success' : 'error' };
    } finally {
      this.flows--;
    }
  }

  interrupt(): void {
    this.target.interrupt();
  }

  setPermissionMode(mode: PermissionMode, plan: boolean): void {
    this.target.setMode(mode, plan);
  }

  switchModel(alias: string): string {
    if (this.runtime.agent.busy)
      throw new ApiError(Codes.busy, 'cannot switch the model while a turn runs; abort it or wait');
    try {
      return this.target.switchModel(alias);
    } catch (e) {
      throw new ApiError(Codes.modelUnresolved, e instanceof Error ? e.message : String(e));
    }
  }

  models(): ModelChoice[] {
    return this.target.models();
  }

  /** An engine event of the terminal's session. */
  observe(event: EngineEvent): void {
    const session = this.session;
    if (!session || this.closed) return;
    this.turn?.recorder.observe(event);
    if (event.agentId !== MAIN_AGENT_ID) return session.live.observe(event);
    if (event.type === 'turn_start') this.startTurn(event.prompt, event.origin, event);
    // Deltas, to-dos, the goal and subagents for the watchers (liveFeed.ts), before the message that ends a stream.
    session.live.observe(event);
    const message = streamJsonMessage(event);
    if (message) session.record(message);
    if (event.type === 'turn_end') this.endTurn(event.reason);
  }

  private startTurn(prompt: string, origin: string, event: EngineEvent): void {
    const session = this.session!;
    const recorder = new RunResultRecorder();
    recorder.session(session.id, this.runtime.agent.model.model);
    recorder.observe(event);
    const i = origin === 'user' ? this.sent.findIndex((s) => s.text === prompt) : -1;
    if (i >= 0) this.turn = { recorder, client: this.sent.splice(i, 1)[0].done };
    else this.turn = { recorder, local: session.beginLocal(prompt, origin) };
  }

  private endTurn(reason: TurnEndReason): void {
    const turn = this.turn;
    if (!turn) return;
    this.turn = undefined;
    const result = turn.recorder.build(exitCodeOf(reason));
    this.session!.record(result);
    if (turn.client) turn.client({ outcome: result.outcome });
    else turn.local?.end(result.outcome);
  }

  /** `/remote off` or the terminal closing: the terminal keeps its session; web prompts still waiting end. */
  close(): Promise<void> {
    this.closed = true;
    for (const s of this.sent.splice(0)) s.done({ outcome: 'interrupted' });
    this.turn?.client?.({ outcome: 'interrupted' });
    this.turn = undefined;
    return Promise.resolve();
  }
}
