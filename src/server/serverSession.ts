// One session the server holds open (docs/server.md "Sessions"): its SessionHost, its event journal, the prompts
// submitted to it (one runs, the rest wait in order; a queued prompt can be steered into the running turn or
// aborted), its approvals, and the controls a browser needs (abort, undo, compact, mode, model).
import type { HeadlessRunOptions } from '../engine/runtime/headlessRun';
import type { Runtime, RuntimeOptions } from '../engine/runtime/runtime';
import type { PermissionMode } from '../engine/session/records';
import { rewind, RewindError } from '../engine/session/rewind';
import { listModelChoices, type ModelChoice } from '../store/modelChoices';
import { resolveModel } from '../store/modelResolution';
import type { HostMessage } from '../sdk/sessionHost';
import type { ResolvedModel } from '../llm/types';
import { ApprovalBroker } from './approvalBroker';
import { InteractionBroker } from './interactionBroker';
import { ApiError, Codes, ulid } from './envelope';
import { EventJournal } from './eventJournal';
import { launchHost } from './hostLaunch';
import { goalPayload, LiveFeed } from './liveFeed';
import { attachPromptInputs } from './promptAttachments';
import { listCommands, parsePrompt, runOptionsOf, type CommandSources, type ParsedPrompt } from './promptCommands';
import type { McpManager } from '../ext/mcp/mcpManager';

export type PromptStatus = 'queued' | 'running' | 'completed' | 'aborted' | 'steered';

export interface PromptView {
  prompt_id: string;
  text: string;
  status: PromptStatus;
  submitted_at: string;
  outcome?: string;
  /** `tui`: typed in the terminal that shares this session (`/remote`, docs/remote.md), not sent by a client. */
  source?: 'tui';
}

const KEPT_PROMPTS = 200;

/**
 * What a ServerSession drives: the SessionHost it launched (`open`), or the terminal UI's live session that `/remote`
 * lends it (`attach`, tuiSessionDriver.ts; docs/remote.md).
 */
export interface SessionDriver {
  readonly runtime: Runtime;
  readonly busy: boolean;
  /** One prompt's turn, to its end; the driver emits the turn's messages (and its `result`) as they come. */
  run(prompt: string, extra?: RunExtra): Promise<{ outcome: string }>;
  interrupt(): void;
  setPermissionMode(mode: PermissionMode, plan: boolean): void;
  /** Switches to the model an alias names (throws a message for the client when it cannot); returns its id. */
  switchModel(alias: string): string;
  /** The models the session can switch to, the current one marked (docs/server.md "Endpoints"). */
  models(): ModelChoice[];
  close(): Promise<void>;
}

/** What a prompt carries besides its text: a command's expansion, `@path` files and images, a flow (prepare()). */
export type RunExtra = Pick<HeadlessRunOptions, 'promptContent' | 'preApproved' | 'attachments' | 'flow'>;

/** The runtime options a session's prompts are read with: the plugins' commands, the permission rules. */
export type RunBase = Pick<RuntimeOptions, 'plugins' | 'rules'>;

interface Attached {
  driver: SessionDriver;
  /** `open`: the startup's runtime options; `/remote`: the terminal's. */
  base: RunBase;
  mcp: McpManager | undefined;
  /** Messages emitted before the session existed (`init`). */
  early: HostMessage[];
}

export class ServerSession {
  readonly journal: EventJournal;
  readonly approvals: ApprovalBroker;
  readonly questions: InteractionBroker;
  readonly live: LiveFeed;
  private host!: SessionDriver;
  /** The runtime options the session was opened with: its plugins' commands and its permission rules. */
  private base!: RunBase;
  private mcp: McpManager | undefined;
  private readonly prompts: PromptView[] = [];
  /** What a queued prompt carries besides its text, until its turn takes it. */
  private readonly inputs = new Map<string, { parsed: ParsedPrompt; images: Buffer[] }>();
  /** Stops a prompt's preparation (attachments, a command's `!`cmd` lines) when it is aborted before its turn. */
  private preparing: AbortController | undefined;
  private warn: (text: string) => void = () => undefined;
  private running: PromptView | undefined;
  /** A turn the terminal started (`/remote`) that runs now; it may run while a client's prompt waits in its queue. */
  private local: PromptView | undefined;
  private closed = false;
  /** The model id the session talks to (as `init` gives it). */
  private modelId = '';

  private constructor(
    readonly id: string,
    readonly cwd: string,
    epoch: string,
    approvalExpiryMs: number,
  ) {
    this.journal = new EventJournal(id, epoch);
    this.approvals = new ApprovalBroker(approvalExpiryMs, (type, payload) => this.journal.emit(type, payload));
    this.questions = new InteractionBroker(approvalExpiryMs, (type, payload) => this.journal.emit(type, payload));
    this.live = new LiveFeed(this.journal, () => (this.local ?? this.running)?.prompt_id ?? null);
  }

  /** Opens a new session (no `resume`) or an existing one in `cwd`. */
  static async open(opts: {
    cwd: string;
    env: NodeJS.ProcessEnv;
    epoch: string;
    approvalExpiryMs: number;
    resume?: string;
    model?: string;
    warn(text: string): void;
  }): Promise<ServerSession> {
    const early: HostMessage[] = [];
    const ref: { session?: ServerSession } = {};
    const launched = await launchHost({
      cwd: opts.cwd,
      env: opts.env,
      resume: opts.resume,
      model: opts.model,
      decide: (request, signal) => ref.session!.approvals.ask(request, signal),
      interactions: {
        askQuestions: (request, signal) => ref.session!.questions.askQuestions(request, signal),
        reviewPlan: (request, signal) => ref.session!.questions.reviewPlan(request, signal),
      },
      onMessage: (m) => (ref.session ? ref.session.record(m) : early.push(m)),
      onEngineEvent: (e) => ref.session?.live.observe(e),
      warn: opts.warn,
    });
    const { host, startup } = launched;
    const driver: SessionDriver = Object.assign(host, {
      switchModel(alias: string): string {
        if (host.busy) throw new ApiError(Codes.busy, 'cannot switch the model while a turn runs; abort it or wait');
        let model: ResolvedModel;
        try {
          model = resolveModel({
            config: startup.config,
            env: process.env,
            cliModel: alias,
            configPath: startup.configPath,
          });
        } catch (e) {
          throw new ApiError(Codes.modelUnresolved, e instanceof Error ? e.message : String(e));
        }
        host.setModel(model);
        return model.model;
      },
      models: () =>
        listModelChoices(
          { config: startup.config, env: process.env, configPath: startup.configPath },
          host.runtime.agent.model,
        ),
    });
    return ServerSession.attach(host.sessionId, opts, { driver, base: startup.runtime, mcp: launched.mcp, early }, ref);
  }

  /**
   * A session around a driver already open: the terminal UI's live one for `/remote` (docs/remote.md). `ref` gets
   * the session as soon as it exists, for the driver's callbacks that reach it.
   */
  static attach(
    id: string,
    opts: { cwd: string; epoch: string; approvalExpiryMs: number; warn(text: string): void },
    attached: Attached,
    ref: { session?: ServerSession } = {},
  ): ServerSession {
    const session = new ServerSession(id, opts.cwd, opts.epoch, opts.approvalExpiryMs);
    ref.session = session;
    session.host = attached.driver;
    session.base = attached.base;
    session.mcp = attached.mcp;
    session.warn = opts.warn;
    for (const m of attached.early) session.record(m);
    return session;
  }

  /**
   * A message of the session's stream (docs/server.md "Events") becomes a kept `message` event; an assistant message
   * or a retry names the message streamed (`message_id`, as its `message.delta` events do).
   */
  record(m: HostMessage): void {
    if ('type' in m && m.type === 'init') this.modelId = m.model;
    const streamed = ('role' in m && m.role === 'assistant') || ('type' in m && m.type === 'retry');
    const id = streamed ? this.live.currentMessageId : null;
    this.journal.emit('message', id ? { ...m, message_id: id } : m);
  }

  get runtime(): Runtime {
    return this.host.runtime;
  }

  get busy(): boolean {
    return this.host.busy || this.prompts.some((p) => p.status === 'queued');
  }

  status() {
    const state = this.runtime.session.state;
    return {
      session_id: this.id,
      cwd: this.cwd,
      busy: this.busy,
      running_prompt_id: this.running?.prompt_id ?? null,
      model: this.runtime.session.state.modelAlias ?? null,
      model_id: this.modelId,
      permission_mode: state.mode,
      plan_mode: this.runtime.plan.active,
      title: state.title ?? null,
      last_seq: this.journal.lastSeq,
      epoch: this.journal.epoch,
    };
  }

  /** What a browser shows beside the conversation: the to-do list, the goal, the subagents (docs/server.md). */
  liveState() {
    return {
      todos: this.runtime.todos.list(),
      goal: goalPayload(this.runtime.goals.current()),
      subagents: this.live.subagentList(),
    };
  }

  mcpStatus() {
    return (this.mcp?.status() ?? []).map((s) => ({
      name: s.name,
      scope: s.scope,
      transport: s.transport,
      status: s.state,
      error: s.error ?? null,
      tools: s.tools ?? [],
    }));
  }

  /** The texts of the prompts kept, oldest first. */
  recentPromptTexts(): string[] {
    return this.prompts.map((p) => p.text);
  }

  listPrompts(): PromptView[] {
    return this.prompts.filter((p) => p.status === 'queued' || p.status === 'running');
  }

  private commandSources(): CommandSources {
    return { runtime: this.runtime, plugins: this.base.plugins, mcp: this.mcp, warn: this.warn };
  }

  /** The `/name` prompts this session offers (docs/server.md "Commands and skills"). */
  commands() {
    return listCommands(this.commandSources());
  }

  /** Parses a prompt's `/name` (refused when it names nothing here), then queues it with its images. */
  async submitInput(text: string, images: Buffer[], promptId?: string): Promise<PromptView> {
    this.checkOpen();
    const known = promptId ? this.prompts.find((p) => p.prompt_id === promptId) : undefined;
    if (known) return known;
    const parsed = await parsePrompt(text, this.commandSources());
    return this.submit(text, promptId, { parsed, images });
  }

  submit(text: string, promptId?: string, input?: { parsed: ParsedPrompt; images: Buffer[] }): PromptView {
    this.checkOpen();
    if (promptId) {
      const known = this.prompts.find((p) => p.prompt_id === promptId);
      if (known) return known;
    }
    const prompt: PromptView = {
      prompt_id: promptId ?? `pr_${ulid()}`,
      text,
      status: 'queued',
      submitted_at: new Date().toISOString(),
    };
    this.prompts.push(prompt);
    if (input) this.inputs.set(prompt.prompt_id, input);
    while (this.prompts.length > KEPT_PROMPTS && this.prompts[0].status !== 'queued') this.prompts.shift();
    this.journal.emit('prompt.queued', { prompt_id: prompt.prompt_id, text });
    void this.pump();
    return prompt;
  }

  private async pump(): Promise<void> {
    if (this.running || this.closed) return;
    const next = this.prompts.find((p) => p.status === 'queued');
    if (!next) return;
    next.status = 'running';
    this.running = next;
    this.journal.emit('prompt.started', { prompt_id: next.prompt_id });
    let outcome: string;
    try {
      const extra = await this.prepare(next);
      outcome = extra ? (await this.host.run(next.text, extra)).outcome : 'interrupted';
    } catch (e) {
      outcome = 'error';
      this.journal.emit('error', { message: e instanceof Error ? e.message : String(e) });
    }
    if (next.status === 'running') next.status = 'completed';
    next.outcome = outcome;
    this.running = undefined;
    this.journal.emit('prompt.completed', { prompt_id: next.prompt_id, outcome, status: next.status });
    void this.pump();
  }

  /**
   * A turn the terminal started itself (`/remote`): listed and announced like a client's prompt, with
   * `source: "tui"` (and the turn's origin: `user`, or `notification` for a background task's report).
   */
  beginLocal(text: string, origin: string): { end(outcome: string): void } {
    const prompt: PromptView = {
      prompt_id: `pr_${ulid()}`,
      text,
      status: 'running',
      submitted_at: new Date().toISOString(),
      source: 'tui',
    };
    this.prompts.push(prompt);
    this.local = prompt;
    // Announced as a client's prompt is (queued, then started), so a client shows it the same way.
    this.journal.emit('prompt.queued', { prompt_id: prompt.prompt_id, text, source: 'tui' });
    this.journal.emit('prompt.started', { prompt_id: prompt.prompt_id, text, source: 'tui', origin });
    return {
      end: (outcome) => {
        if (this.local === prompt) this.local = undefined;
        if (prompt.status === 'running') prompt.status = 'completed';
        prompt.outcome = outcome;
        this.journal.emit('prompt.completed', { prompt_id: prompt.prompt_id, outcome, status: prompt.status });
      },
    };
  }

  /** A prompt's attachments and command expansion, as its turn starts; undefined when it was aborted meanwhile. */
  private async prepare(prompt: PromptView): Promise<RunExtra | undefined> {
    const input = this.inputs.get(prompt.prompt_id);
    this.inputs.delete(prompt.prompt_id);
    if (!input) return {};
    const stop = new AbortController();
    this.preparing = stop;
    try {
      const notice = (text: string) =>
        this.journal.emit('prompt.notice', { prompt_id: prompt.prompt_id, level: 'warning', text });
      const attached = await attachPromptInputs(prompt.text, input.images, {
        runtime: this.runtime,
        rules: this.base.rules,
        cwd: this.cwd,
        signal: stop.signal,
      });
      for (const n of attached.notices) notice(n);
      const options = await runOptionsOf(input.parsed, this.runtime, stop.signal, notice);
      if (stop.signal.aborted) return undefined;
      return { ...options, ...(attached.parts.length ? { attachments: attached.parts } : {}) };
    } finally {
      this.preparing = undefined;
    }
  }

  /** Queued prompts (all, or the ones named) join the running turn as steers; without a running turn they wait. */
  steer(ids?: string[]): string[] {
    this.checkOpen();
    if (!this.host.busy) throw new ApiError(Codes.busy, 'no turn is running to steer into; the prompts stay queued');
    const chosen = this.prompts.filter((p) => p.status === 'queued' && (!ids || ids.includes(p.prompt_id)));
    if (ids) for (const id of ids) if (!chosen.some((p) => p.prompt_id === id)) this.promptOrThrow(id);
    for (const p of chosen) {
      p.status = 'steered';
      // A steer joins the running turn as text: a command's expansion and images are not applied (docs/server.md).
      this.inputs.delete(p.prompt_id);
      this.runtime.agent.submit({ kind: 'steer', text: p.text });
      this.journal.emit('prompt.steered', { prompt_id: p.prompt_id });
    }
    return chosen.map((p) => p.prompt_id);
  }

  private promptOrThrow(id: string): PromptView {
    const p = this.prompts.find((x) => x.prompt_id === id);
    if (!p) throw new ApiError(Codes.prompt, `no prompt ${id} in this session`);
    if (p.status !== 'queued' && p.status !== 'running')
      throw new ApiError(40903, `prompt ${id} is already ${p.status}`);
    return p;
  }

  abortPrompt(id: string): PromptView {
    const p = this.promptOrThrow(id);
    if (p.status === 'running') {
      p.status = 'aborted';
      this.preparing?.abort();
      this.host.interrupt();
    } else {
      p.status = 'aborted';
      this.inputs.delete(p.prompt_id);
      this.journal.emit('prompt.completed', { prompt_id: p.prompt_id, outcome: 'interrupted', status: 'aborted' });
    }
    return p;
  }

  /** Stops the running turn (its result says `interrupted`); queued prompts stay. */
  abort(): boolean {
    if (this.preparing) {
      this.preparing.abort();
      return true;
    }
    if (!this.host.busy) return false;
    this.host.interrupt();
    return true;
  }

  setMode(mode: PermissionMode | undefined, plan: boolean | undefined): void {
    this.host.setPermissionMode(mode ?? this.runtime.session.state.mode, plan ?? this.runtime.plan.active);
  }

  setModel(alias: string): void {
    this.modelId = this.host.switchModel(alias);
  }

  models(): ModelChoice[] {
    return this.host.models();
  }

  afterProfileChange(): void {
    this.journal.emit('session.status_changed', this.status());
  }

  async undo(count: number) {
    if (this.host.busy) throw new ApiError(Codes.busy, 'cannot undo while a turn runs; abort it first');
    try {
      const result = await rewind(this.runtime, { turns: count, scope: 'both' });
      this.journal.emit('session.rewound', { withdrawn: result.withdrawn, restored: result.restored.length });
      // The rewind restored the to-do list as it was (the goal is not rewound): watchers redraw it.
      this.journal.emit('session.todos_changed', { todos: this.runtime.todos.list() });
      return { withdrawn: result.withdrawn, restored: result.restored, skipped: result.skipped };
    } catch (e) {
      if (e instanceof RewindError) throw new ApiError(Codes.undoImpossible, e.message);
      throw e;
    }
  }

  async compact(instruction?: string) {
    if (this.host.busy) throw new ApiError(40910, 'cannot compact while a turn runs');
    const result = await this.runtime.compaction.compact({ instruction });
    this.journal.emit('compaction.completed', { result });
    return result;
  }

  private checkOpen(): void {
    if (this.closed) throw new ApiError(Codes.session, `session ${this.id} is closed`);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const p of this.prompts) if (p.status === 'queued') p.status = 'aborted';
    this.approvals.withdrawAll();
    this.questions.withdrawAll();
    await this.host.close();
    this.journal.emit('session.closed', { session_id: this.id });
  }
}
