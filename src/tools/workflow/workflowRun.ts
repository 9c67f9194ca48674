// Runs one workflow script (docs/workflows.md) in the QuickJS sandbox: the script is an ES module that
// exports `meta` and a default async function; an entry module built here hands that function the API
// {args, phase, agent, parallel, log}. Every API call reaches the host as a string through a host
// function, which validates it and enforces the run's limits (subagents in all, subagents at once);
// the wall time and memory are the sandbox's own deadline and memory limit.
import { z } from 'zod';
import type { SandboxResult } from '../../platform/sandbox/quickjsSandbox';

export interface WorkflowLimits {
  maxAgents: number;
  maxConcurrency: number;
  wallMs: number;
  memoryBytes: number;
}

export const WORKFLOW_LIMITS: WorkflowLimits = {
  maxAgents: 64,
  maxConcurrency: 8,
  wallMs: 60 * 60_000,
  memoryBytes: 64 * 1024 * 1024,
};

export interface WorkflowMeta {
  name: string;
  description: string;
  phases: string[];
}

export interface WorkflowAgentCall {
  prompt: string;
  /** Subagent type (default coder). */
  type?: string;
  description: string;
}

export interface WorkflowRunHooks {
  /** Runs one subagent to its final answer; rejects (with a message for the script) when it fails. */
  runAgent(call: WorkflowAgentCall, signal: AbortSignal): Promise<string>;
  /** A line of progress for the task output (phases, logs, subagents starting and ending). */
  progress(line: string): void;
}

export class WorkflowError extends Error {}

/** "60 min, 64 subagents (8 at once), 64 MB" — what a run may use, shown before it starts. */
export function describeLimits(limits: WorkflowLimits): string {
  const wall = limits.wallMs >= 60_000 ? `${Math.round(limits.wallMs / 60_000)} min` : `${limits.wallMs / 1000} s`;
  return `at most ${limits.maxAgents} subagents in all, ${limits.maxConcurrency} at once, ${wall} wall time, ${Math.round(limits.memoryBytes / (1024 * 1024))} MB script memory`;
}

const metaSchema = z.object({
  name: z.string().min(1),
  description: z.string().default(''),
  phases: z.array(z.string().min(1)).default([]),
});

const agentCallSchema = z.object({
  prompt: z.string().min(1, 'agent() needs a non-empty prompt'),
  type: z.string().min(1).optional(),
  description: z.string().optional(),
});

const META_ENTRY = `import * as wf from 'workflow.js';
export const result = wf.meta === undefined ? null : wf.meta;
`;

/** The API the script's default function receives, built inside the sandbox on top of the host functions. */
function runEntry(args: string, limits: WorkflowLimits): string {
  return `import * as wf from 'workflow.js';
const host = __host;
const call = (name, value) => host[name](JSON.stringify(value === undefined ? null : value)).then((text) => JSON.parse(text));
const MAX_CONCURRENCY = ${limits.maxConcurrency};
async function parallel(thunks, options) {
  if (!Array.isArray(thunks) || thunks.some((t) => typeof t !== 'function')) throw new TypeError('parallel() takes an array of functions, e.g. items.map((x) => () => agent({prompt: x}))');
  const concurrency = options && options.concurrency !== undefined ? options.concurrency : MAX_CONCURRENCY;
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new TypeError('parallel(): concurrency must be a positive integer');
  if (concurrency > MAX_CONCURRENCY) throw new RangeError('parallel(): concurrency ' + concurrency + ' is over the workflow limit of ' + MAX_CONCURRENCY + ' subagents at once');
  const results = new Array(thunks.length);
  let next = 0;
  const lane = async () => { while (next < thunks.length) { const i = next++; results[i] = await thunks[i](); } };
  await Promise.all(Array.from({ length: Math.min(concurrency, thunks.length) }, lane));
  return results;
}
const api = Object.freeze({
  args: ${JSON.stringify(args)},
  phase: (name) => call('phase', String(name)),
  log: (...parts) => { call('log', parts.map((p) => (typeof p === 'string' ? p : JSON.stringify(p))).join(' ')); },
  agent: (options) => call('agent', options && typeof options === 'object' ? { prompt: options.prompt, type: options.type, description: options.description } : options),
  parallel,
});
if (typeof wf.default !== 'function') throw new TypeError('A workflow script must export a default async function: export default async function ({ args, phase, agent, parallel, log }) { ... }');
export const result = await wf.default(api);
`;
}

async function sandbox() {
  return import('../../platform/sandbox/quickjsSandbox');
}

/** Reads `meta` by evaluating the module alone (no API, a short deadline). */
export async function readWorkflowMeta(source: string, signal?: AbortSignal): Promise<WorkflowMeta> {
  const { runInSandbox } = await sandbox();
  let out: SandboxResult;
  try {
    out = await runInSandbox(META_ENTRY, {
      modules: { 'workflow.js': source },
      timeoutMs: 10_000,
      signal,
      label: 'reading the workflow meta',
    });
  } catch (e) {
    throw new WorkflowError(`The workflow script does not load: ${(e as Error).message}`);
  }
  const parsed = metaSchema.safeParse(JSON.parse(out.json));
  if (!parsed.success) {
    throw new WorkflowError(
      'The workflow script must export `meta = { name: string, description: string, phases: string[] }` (a plain object literal).',
    );
  }
  return parsed.data;
}

/** Runs the script to its end; resolves to its return value as text (a string as is, anything else as JSON). */
export async function runWorkflowScript(
  source: string,
  opts: { args: string; limits: WorkflowLimits; hooks: WorkflowRunHooks; signal: AbortSignal; meta: WorkflowMeta },
): Promise<string> {
  const { runInSandbox, SandboxError } = await sandbox();
  const { limits, hooks } = opts;
  // Aborted on the user's stop or when a limit is exceeded (its reason is the message).
  const run = new AbortController();
  const onAbort = () => run.abort();
  opts.signal.addEventListener('abort', onAbort, { once: true });
  if (opts.signal.aborted) run.abort();
  let started = 0;
  let running = 0;
  const slotWaiters: Array<() => void> = [];
  // Subagent runs still going: when the run settles (done, failed, timed out, stopped) they are
  // aborted and awaited, so nothing of a finished workflow keeps running (docs/workflows.md, "Limits").
  const inFlight = new Set<Promise<string>>();
  const refuseWhenStopped = () => {
    if (run.signal.aborted) throw new Error('the workflow was stopped; no new subagent is started');
  };
  const stopped = new Promise<void>((resolve) => run.signal.addEventListener('abort', () => resolve(), { once: true }));
  // Set while a failed agent() call's error is on its way to the script: a failure the script does not
  // catch ends the run, so no new subagent starts until the script's reaction is known.
  let failureUndelivered: Promise<void> | undefined;
  const stopWith = (message: string): never => {
    const error = new SandboxError(message);
    run.abort(error);
    throw error;
  };
  const host = {
    async phase(json: string) {
      const name = String(JSON.parse(json));
      const index = opts.meta.phases.indexOf(name);
      hooks.progress(index >= 0 ? `== phase ${index + 1}/${opts.meta.phases.length}: ${name}` : `== phase: ${name}`);
      return 'null';
    },
    async log(json: string) {
      hooks.progress(String(JSON.parse(json)));
      return 'null';
    },
    async agent(json: string, delivered: Promise<void>) {
      refuseWhenStopped();
      const parsed = agentCallSchema.safeParse(JSON.parse(json));
      if (!parsed.success)
        throw new TypeError(
          `agent(): ${parsed.error.issues.map((i) => `${i.path.join('.') || 'options'}: ${i.message}`).join('; ')} — call agent({ prompt, type?, description? })`,
        );
      if (started >= limits.maxAgents) {
        stopWith(
          `Workflow limit exceeded: the script asked for subagent number ${started + 1}, and a run may start at most ${limits.maxAgents}. The run was stopped.`,
        );
      }
      started++;
      const number = started;
      // Calls beyond the concurrency limit wait for a slot, however the script issues them.
      while (running >= limits.maxConcurrency && !run.signal.aborted) {
        await new Promise<void>((resolve) => slotWaiters.push(resolve));
      }
      while (failureUndelivered && !run.signal.aborted) await failureUndelivered;
      refuseWhenStopped();
      running++;
      const call = {
        prompt: parsed.data.prompt,
        type: parsed.data.type,
        description: parsed.data.description ?? parsed.data.prompt.slice(0, 60),
      };
      hooks.progress(`subagent ${number} started (${call.type ?? 'coder'}): ${call.description}`);
      const agentRun = hooks.runAgent(call, run.signal);
      inFlight.add(agentRun);
      try {
        const text = await agentRun;
        hooks.progress(`subagent ${number} finished`);
        return JSON.stringify(text);
      } catch (e) {
        hooks.progress(`subagent ${number} failed: ${(e as Error).message}`);
        const pending = Promise.race([delivered, stopped]).then(() => {
          if (failureUndelivered === pending) failureUndelivered = undefined;
        });
        failureUndelivered = pending;
        throw e;
      } finally {
        inFlight.delete(agentRun);
        running--;
        // The slot passes on only once the script has seen this answer: a failure it does not catch
        // ends the run, and then no queued call may start in between.
        void delivered.then(() => {
          if (!run.signal.aborted) slotWaiters.shift()?.();
        });
      }
    },
  };
  try {
    const out = await runInSandbox(runEntry(opts.args, limits), {
      modules: { 'workflow.js': source },
      host,
      timeoutMs: limits.wallMs,
      memoryBytes: limits.memoryBytes,
      signal: run.signal,
      label: 'the workflow',
    });
    const value = JSON.parse(out.json) as unknown;
    return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
  } catch (e) {
    const message = (e as Error).message;
    if (/out of memory/i.test(message))
      throw new WorkflowError(
        `Workflow limit exceeded: the script used more than ${Math.round(limits.memoryBytes / (1024 * 1024))} MB of memory. The run was stopped.`,
      );
    throw new WorkflowError(message);
  } finally {
    opts.signal.removeEventListener('abort', onAbort);
    if (!run.signal.aborted) run.abort(new SandboxError('the workflow ended'));
    for (const wake of slotWaiters.splice(0)) wake();
    await stopSubagents(inFlight, hooks);
  }
}

/** How long a settled run waits for its aborted subagents to end before it reports anyway. */
export const SUBAGENT_STOP_WAIT_MS = 10_000;

/** Waits (bounded) for the subagents of a settled run, which were just aborted, to end. */
async function stopSubagents(inFlight: ReadonlySet<Promise<string>>, hooks: WorkflowRunHooks): Promise<void> {
  if (!inFlight.size) return;
  const count = inFlight.size;
  hooks.progress(`stopping ${count} subagent${count === 1 ? '' : 's'} still running`);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), SUBAGENT_STOP_WAIT_MS)));
  const ended = await Promise.race([Promise.allSettled(inFlight).then(() => 'stopped' as const), late]);
  clearTimeout(timer);
  if (ended === 'late') {
    const seconds = SUBAGENT_STOP_WAIT_MS / 1000;
    hooks.progress(`${inFlight.size} subagent(s) had not stopped ${seconds} s after the run ended`);
  }
}
