// `query({ prompt, options })` (docs/sdk.md): the options checked before anything runs, the launch built from them
// (no configuration by default), one SessionHost, and its messages handed out as an async iterable whose end — the
// last `result`, an early `break`, `close()` or the abort controller — frees everything the query started.
import { resolve } from 'node:path';
import type { ApprovalAnswer, ApprovalRequest } from '../engine/policy/approvals';
import { OutputSchemaError, RunControls } from '../engine/runtime/runControls';
import { loadExtensions, loadStartup, StartupError, type Startup } from '../engine/runtime/startup/startup';
import { RunResultRecorder } from '../engine/runtime/runResult';
import { EXIT_FAILURE } from '../engine/runtime/headlessRun';
import { forkSession } from '../engine/session/fork';
import { Session } from '../engine/session/session';
import { acquireSessionLock, SessionLockedError } from '../store/sessionLock';
import { mcpFailureText, startMcpServers } from '../ext/mcp/mcpSession';
import { mcpToolDeferral } from '../engine/loop/deferredTools';
import type { Dispatcher } from 'undici';
import type { Options, PermissionMode, Query, QueryArgs, SDKMessage, UserMessage } from './api';
import { checkOptions, launchEnv, modelFor } from './sdkOptions';
import { sdkHookSpecs } from './sdkHooks';
import { cronDisabled } from '../tools/cron';
import { towerEnabled } from '../tools/tower/towerService';
import { engineToolsOf } from './sdkTool';
import { SessionHost } from './sessionHost';
import { MessageQueue } from './messageQueue';
import { remoteQuery } from './remoteQuery';

declare const __JARVIS_VERSION__: string;

/** The engine's permission mode and plan mode of an SDK mode; `plan` asks (manual) when someone can answer. */
function modeOf(mode: PermissionMode, canAsk: boolean) {
  if (mode === 'plan') return { mode: canAsk ? ('manual' as const) : ('auto' as const), plan: true };
  return { mode, plan: false };
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

class SdkQuery implements Query {
  private readonly queue = new MessageQueue<SDKMessage>();
  private host: SessionHost | undefined;
  private started = false;
  private finished: Promise<void> | undefined;
  private closed = false;
  private readonly closedSignal = new AbortController();
  private readonly tools;

  constructor(
    private readonly prompt: QueryArgs['prompt'],
    private readonly options: Options,
  ) {
    checkOptions(prompt, options);
    this.tools = engineToolsOf(options.tools);
    const abort = options.abortController?.signal;
    if (abort) {
      if (abort.aborted) this.closed = true;
      else abort.addEventListener('abort', () => void this.close(), { once: true, signal: this.closedSignal.signal });
    }
  }

  [Symbol.asyncIterator](): AsyncIterator<SDKMessage> {
    this.start();
    return {
      next: () => this.queue.next(),
      return: async () => {
        await this.close();
        return { done: true, value: undefined };
      },
    };
  }

  private start(): void {
    if (this.started) return;
    this.started = true;
    if (this.closed) {
      this.queue.end();
      return;
    }
    // Never rejects: whatever fails becomes an error message and a result (docs/sdk.md "Errors").
    this.finished = this.main()
      .then(
        () => undefined,
        (e: unknown) => this.failed(`the query failed: ${messageOf(e)}`),
      )
      .finally(() => this.queue.end());
  }

  private failed(message: string): void {
    this.queue.push({ type: 'error', message });
    const recorder = new RunResultRecorder();
    if (this.host) recorder.session(this.host.sessionId, this.options.model ?? '');
    recorder.error(message);
    this.queue.push(recorder.build(EXIT_FAILURE));
  }

  private async main(): Promise<void> {
    const { options } = this;
    // undici is a large chunk: its loading overlaps the launch instead of following it (bench/sdk.bench.mjs).
    const undici = loadUndici();
    const env = launchEnv(options);
    // What the session's processes start from: the query's own env as given (never `provider`'s key), a copy.
    const childEnv = Object.freeze({ ...(options.env ?? process.env) });
    const cwd = resolve(options.cwd ?? process.cwd());
    const permission = modeOf(options.permissionMode ?? 'auto', !!options.canUseTool);
    let controls: RunControls;
    try {
      controls = await RunControls.open({
        maxTurns: options.maxTurns,
        maxBudgetUsd: options.maxBudgetUsd,
        timeoutMs: options.timeoutMs,
        ...(options.outputSchema ? { outputSchema: { schema: options.outputSchema } } : {}),
      });
    } catch (e) {
      if (e instanceof OutputSchemaError) return this.failed(`options.outputSchema: ${e.message}`);
      throw e;
    }
    let startup: Startup;
    try {
      startup = loadStartup(
        { model: options.provider ? undefined : options.model, session: options.resume },
        { nonInteractive: !options.canUseTool, env, cwd, withoutSettings: !options.settingSources?.length },
      );
      if (options.settingSources?.length) await loadExtensions(startup, {}, env);
    } catch (e) {
      controls.close();
      if (e instanceof StartupError) return this.failed(e.message);
      throw e;
    }
    if (this.closed) return controls.close();
    for (const w of startup.warnings) options.stderr?.(`warning: ${w}`);
    if (options.forkSession && startup.runtime.resume) startup.runtime.resume = forkedCopy(startup);
    const mcp = startMcpServers(startup.mcp.servers, {
      home: startup.home,
      clientName: startup.settings.identity.slug,
      version: typeof __JARVIS_VERSION__ === 'string' ? __JARVIS_VERSION__ : '0.0.0',
      onFailure: (server, error) => options.stderr?.(`warning: ${mcpFailureText(server, error)}`),
      onWarning: (text) => options.stderr?.(`warning: ${text}`),
      deferred: mcpToolDeferral(startup.runtime.deferral),
      env: childEnv,
      cwd: startup.cwd,
    });
    const plugins = startup.runtime.plugins ?? { ids: [], commands: [], promptSections: '', sessionStartSkills: [] };
    const append = options.appendSystemPrompt?.trim();
    const bg = startup.settings.background;
    // This query's own connection pool: closed with it, so no idle connection to the provider outlives it.
    const dispatcher = connectionPool(await undici);
    try {
      this.host = new SessionHost({
        base: {
          ...startup.runtime,
          env: childEnv,
          modelClient: { env, dispatcher },
          mcp,
          mode: permission.mode,
          modeOverride: true,
          planMode: permission.plan,
          plugins: append
            ? { ...plugins, promptSections: [plugins.promptSections, append].filter(Boolean).join('\n\n') }
            : startup.runtime.plugins,
          // The switches the runtime would read from process.env, read from this query's environment instead.
          tower: startup.runtime.tower ?? towerEnabled(env),
          cron: { ...startup.runtime.cron, disabled: startup.runtime.cron?.disabled ?? cronDisabled(env) },
          hooks: [
            ...(startup.runtime.hooks ?? []),
            ...sdkHookSpecs(options.hooks, (text) => this.host?.reportError(text)),
          ],
          mainAgent: { tools: [...controls.mainAgent.tools, ...this.tools], extensions: controls.mainAgent.extensions },
        },
        controls,
        mcp,
        nonInteractive: !options.canUseTool,
        decide: options.canUseTool ? (request, signal) => this.decide(request, signal) : undefined,
        background: {
          mode: bg.printBackgroundMode,
          waitCeilingMs: bg.printWaitCeilingS * 1000,
          maxTurns: bg.printMaxTurns,
        },
        onMessage: (m) => this.queue.push(m as SDKMessage),
      });
    } catch (e) {
      await mcp?.close();
      await dispatcher.close();
      controls.close();
      if (e instanceof SessionLockedError) return this.failed(`jarvis: ${e.message}`);
      throw e;
    }
    try {
      for (const w of this.host.runtime.warnings) options.stderr?.(`warning: ${w}`);
      if (typeof this.prompt === 'string') await this.host.run(this.prompt);
      else await this.feed(this.prompt, this.host);
    } finally {
      await this.host.close();
      await dispatcher.close();
    }
  }

  /** A conversation: each user message is one run with its own result; ends with the input or at close(). */
  private async feed(input: AsyncIterable<UserMessage>, host: SessionHost): Promise<void> {
    const iterator = input[Symbol.asyncIterator]();
    const closed = new Promise<'closed'>((done) => {
      if (this.closedSignal.signal.aborted) done('closed');
      this.closedSignal.signal.addEventListener('abort', () => done('closed'), { once: true });
    });
    try {
      while (!this.closed) {
        const next = await Promise.race([iterator.next(), closed]);
        if (next === 'closed' || next.done) break;
        const message = next.value as UserMessage | undefined;
        if (message?.type !== 'user' || typeof message.content !== 'string') {
          host.reportError('a prompt message must be { type: "user", content: string }; this one was skipped');
          continue;
        }
        await host.run(message.content);
      }
    } finally {
      if (this.closed) void Promise.resolve(iterator.return?.()).catch(() => undefined);
    }
  }

  /** canUseTool, asked where the terminal UI would ask; a throw denies the call and ends the turn. */
  private async decide(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer> {
    const input = (request.args && typeof request.args === 'object' ? request.args : {}) as Record<string, unknown>;
    let answer;
    try {
      answer = await this.options.canUseTool!(request.toolName, structuredClone(input), {
        signal,
        subject: request.subject,
        reason: request.reason,
      });
    } catch (e) {
      this.host?.reportError(`canUseTool threw for ${request.subject}: ${messageOf(e)}`);
      return { decision: 'reject', feedback: 'The approval check failed, so the call did not run.', endTurn: true };
    }
    if (answer?.behavior === 'allow') {
      const updated = answer.updatedInput;
      return updated && typeof updated === 'object'
        ? { decision: 'approve', updatedArgs: updated }
        : { decision: 'approve' };
    }
    if (answer?.behavior === 'deny') {
      const feedback = typeof answer.message === 'string' && answer.message ? answer.message : 'Denied.';
      return { decision: 'reject', feedback, ...(answer.interrupt ? { endTurn: true } : {}) };
    }
    this.host?.reportError(
      `canUseTool returned neither { behavior: 'allow' } nor { behavior: 'deny' } for ${request.subject}`,
    );
    return {
      decision: 'reject',
      feedback: 'The approval check gave no answer, so the call did not run.',
      endTurn: true,
    };
  }

  async interrupt(): Promise<void> {
    this.host?.interrupt();
  }

  async setPermissionMode(mode: PermissionMode): Promise<void> {
    if (!['manual', 'auto', 'yolo', 'plan'].includes(mode))
      throw new TypeError(`setPermissionMode: expected manual, auto, yolo or plan, got ${String(mode)}`);
    if (mode === 'manual' && !this.options.canUseTool)
      throw new TypeError('setPermissionMode("manual") needs options.canUseTool: no one else can answer approvals');
    const m = modeOf(mode, !!this.options.canUseTool);
    if (!this.host) throw new Error('the session has not started yet: iterate the query first');
    this.host.setPermissionMode(m.mode, m.plan);
  }

  async setModel(model: string): Promise<void> {
    if (typeof model !== 'string' || !model) throw new TypeError('setModel: give a model alias or id');
    if (!this.host) throw new Error('the session has not started yet: iterate the query first');
    this.host.setModel(modelFor(this.options, model));
  }

  close(): Promise<void> {
    if (!this.closed) {
      this.closed = true;
      this.closedSignal.abort();
      this.host?.interrupt();
    }
    const done = (this.finished ?? Promise.resolve()).then(() => this.queue.end());
    if (!this.started) this.queue.end();
    return done;
  }
}

/** undici (bundled, as the proxy support loads it: llm/network.ts); a failed load is reported where it is awaited. */
function loadUndici(): Promise<typeof import('undici')> {
  const loading = import('undici');
  loading.catch(() => undefined);
  return loading;
}

/** A connection pool of undici, this query's own. */
function connectionPool(undici: typeof import('undici')): Dispatcher {
  const Agent = undici.Agent ?? (undici.default as unknown as typeof undici).Agent;
  return new Agent();
}

/** `forkSession`: the resumed session is copied first, and the query continues in the copy. */
function forkedCopy(startup: Startup) {
  const from = startup.runtime.resume!;
  const lock = acquireSessionLock(from.sessionDir);
  let copy;
  try {
    copy = forkSession({ session: Session.open(from) }, { home: startup.home });
  } finally {
    lock.release();
  }
  const location = Session.findById(startup.home, copy.sessionId, startup.cwd);
  if (!location) throw new Error(`the forked session ${copy.sessionId} was not found after copying`);
  return location;
}

export function query(args: QueryArgs): Query {
  if (!args || typeof args !== 'object') throw new TypeError('query() takes { prompt, options }');
  // A remote `jarvis serve` runs the session (docs/server.md "From the SDK").
  if (args.options?.server) return remoteQuery(args);
  return new SdkQuery(args.prompt, args.options ?? {});
}
