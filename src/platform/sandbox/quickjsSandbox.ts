// Runs untrusted JavaScript as pure computation: QuickJS (compiled to WebAssembly) inside a fresh
// worker thread. The code sees no host objects at all — no process, require, fetch, timers or file
// system exist in the QuickJS context. QuickJS's own interrupt handler stops loops at the deadline,
// and the worker is terminated at the deadline regardless, so nothing outlives its call.
//
// A caller may hand the script host functions (the workflow API, docs/workflows.md): each takes one
// string and returns a promise of a string, and only those strings cross between the script and the
// host — never an object, so nothing the script does to its own objects or prototypes reaches the host.
// Host functions are the trust boundary: they validate what they are given.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

export const SANDBOX_TIMEOUT_MS = 30_000;
export const SANDBOX_MEMORY_BYTES = 64 * 1024 * 1024;

export interface SandboxResult {
  /** The returned value as JSON text (`null` for undefined). */
  json: string;
  /** console.log lines, in order. */
  logs: string[];
}

export class SandboxError extends Error {}

/**
 * A host function: gets the string the script passed, answers with a string (or rejects with an Error).
 * `delivered` resolves once the script has received that answer and run everything it set off (its
 * reaction is known: it may have failed the whole run); it never resolves if the run ends first.
 */
export type HostFunction = (arg: string, delivered: Promise<void>) => Promise<string>;

export interface SandboxOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
  memoryBytes?: number;
  /** Callable in the script as `__host.<name>(string)`, returning a promise of a string. */
  host?: Record<string, HostFunction>;
  /**
   * Module mode: `code` is an ES module that may import exactly these modules by name (and nothing
   * else, statically or with import()); its export `result` is the result.
   */
  modules?: Record<string, string>;
  /** What the messages call the script ("execute_script", "the workflow"). */
  label?: string;
}

interface WorkerInput {
  coreUrl: string;
  variantUrl: string;
  code: string;
  deadline: number;
  memoryBytes: number;
  hostNames: string[];
  modules: Record<string, string> | null;
}
type WorkerOutput =
  | { type: 'done'; ok: true; json: string; logs: string[] }
  | { type: 'done'; ok: false; message: string; logs: string[] }
  | { type: 'call'; id: number; name: string; arg: string }
  | { type: 'delivered'; id: number };
type HostReply = { id: number; ok: true; value: string } | { id: number; ok: false; message: string };

/*
 * The worker body, kept as source text: it is evaluated in the worker (a CommonJS script), and a
 * function's own source would be rewritten by bundlers and test transforms (dynamic import()).
 * workerData: WorkerInput; it posts `call` messages for host functions, gets HostReply messages back,
 * and posts one `done`.
 */
const WORKER_SOURCE = `
const { parentPort, workerData: input } = require('node:worker_threads');
const logs = [];
let finished = false;
const send = (out) => { if (out.type === 'done') { if (finished) return; finished = true; } parentPort.postMessage(out); };
const message = (e) => (typeof e === 'object' && e !== null ? (e.name || 'Error') + ': ' + (e.message ?? String(e)) : String(e));
const ENTRY = 'main.js';
Promise.all([import(input.coreUrl), import(input.variantUrl)]).then(async ([quickjs, variant]) => {
  const runtime = (await quickjs.newQuickJSWASMModuleFromVariant(variant.default)).newRuntime();
  runtime.setMemoryLimit(input.memoryBytes);
  runtime.setMaxStackSize(1024 * 1024);
  runtime.setInterruptHandler(quickjs.shouldInterruptAfterDeadline(input.deadline));
  const modules = input.modules || {};
  // Only the entry may import, and only the given modules: a script cannot import itself, the entry or anything else.
  runtime.setModuleLoader(
    (name) => (Object.prototype.hasOwnProperty.call(modules, name) ? modules[name] : { error: new Error('import of "' + name + '" is not allowed') }),
    (base, name) => (base === ENTRY && Object.prototype.hasOwnProperty.call(modules, name) ? name : { error: new Error('import of "' + name + '" is not allowed') }),
  );
  const vm = runtime.newContext();
  const consoleObject = vm.newObject();
  const log = vm.newFunction('log', (...args) => { logs.push(args.map((a) => String(vm.dump(a))).join(' ')); });
  vm.setProp(consoleObject, 'log', log);
  vm.setProp(vm.global, 'console', consoleObject);
  log.dispose();
  consoleObject.dispose();
  const pending = new Map();
  let nextId = 0;
  const drain = () => {
    while (runtime.hasPendingJob()) {
      const ran = runtime.executePendingJobs();
      if (ran.error) { const m = message(vm.dump(ran.error)); ran.error.dispose(); send({ type: 'done', ok: false, message: m, logs }); return false; }
    }
    return true;
  };
  if (input.hostNames.length) {
    const hostObject = vm.newObject();
    for (const name of input.hostNames) {
      const fn = vm.newFunction(name, (arg) => {
        const deferred = vm.newPromise();
        const id = nextId++;
        pending.set(id, deferred);
        send({ type: 'call', id, name, arg: vm.typeof(arg) === 'string' ? vm.getString(arg) : '' });
        return deferred.handle;
      });
      vm.setProp(hostObject, name, fn);
      fn.dispose();
    }
    vm.setProp(vm.global, '__host', hostObject);
    hostObject.dispose();
  }
  parentPort.on('message', (reply) => {
    const deferred = pending.get(reply.id);
    if (!deferred || finished) return;
    pending.delete(reply.id);
    const value = reply.ok ? vm.newString(reply.value) : vm.newError(reply.message);
    if (reply.ok) deferred.resolve(value); else deferred.reject(value);
    value.dispose();
    deferred.dispose();
    if (!drain()) return;
    // After the script's reaction (a 'done' it caused is posted first): the host may act on it.
    const id = reply.id;
    setImmediate(() => { if (!finished) send({ type: 'delivered', id }); });
  });
  const source = input.modules ? input.code : '(async () => {\\n' + input.code + '\\n})().then((v) => { const j = JSON.stringify(v === undefined ? null : v); return j === undefined ? "null" : j; })';
  const started = input.modules ? vm.evalCode(source, ENTRY, { type: 'module' }) : vm.evalCode(source, 'sandbox.js');
  if (started.error) { send({ type: 'done', ok: false, message: message(vm.dump(started.error)), logs }); return; }
  const settled = vm.resolvePromise(started.value);
  started.value.dispose();
  if (!drain()) return;
  const outcome = await settled;
  if (outcome.error) { send({ type: 'done', ok: false, message: message(vm.dump(outcome.error)), logs }); return; }
  if (!input.modules) { send({ type: 'done', ok: true, json: vm.getString(outcome.value), logs }); return; }
  const stringify = vm.evalCode('(ns) => { const j = JSON.stringify(ns.result === undefined ? null : ns.result); return j === undefined ? "null" : j; }');
  const json = stringify.error ? stringify : vm.callFunction(stringify.value, vm.undefined, outcome.value);
  if (json.error) send({ type: 'done', ok: false, message: message(vm.dump(json.error)), logs });
  else send({ type: 'done', ok: true, json: vm.getString(json.value), logs });
}).catch((e) => send({ type: 'done', ok: false, message: String(e && e.message || e), logs }));
`;

let moduleUrls: { coreUrl: string; variantUrl: string } | undefined;
function quickjsModuleUrls(): { coreUrl: string; variantUrl: string } {
  // Resolved here, in the main thread, so the worker (an eval'd script) can import them by absolute
  // URL. Only the core and the one build we run (release, synchronous) are installed: the all-variants
  // package would add 6 MB of debug and asyncify builds nobody loads.
  if (!moduleUrls) {
    const require = createRequire(import.meta.url);
    moduleUrls = {
      coreUrl: pathToFileURL(require.resolve('quickjs-emscripten-core')).href,
      variantUrl: pathToFileURL(require.resolve('@jitl/quickjs-wasmfile-release-sync')).href,
    };
  }
  return moduleUrls;
}

function describeTimeout(ms: number): string {
  return ms % 1000 === 0 && ms >= 60_000 ? `${ms / 60_000} min` : `${ms / 1000}s`;
}

/** Runs `code` (a function body: `return` gives the result; top-level `await` works; or a module, see `modules`). */
export function runInSandbox(code: string, opts: SandboxOptions = {}): Promise<SandboxResult> {
  const timeoutMs = opts.timeoutMs ?? SANDBOX_TIMEOUT_MS;
  const label = opts.label ?? 'execute_script';
  const host = opts.host ?? {};
  const input: WorkerInput = {
    ...quickjsModuleUrls(),
    code,
    deadline: Date.now() + timeoutMs,
    memoryBytes: opts.memoryBytes ?? SANDBOX_MEMORY_BYTES,
    hostNames: Object.keys(host),
    modules: opts.modules ?? null,
  };
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: input,
    resourceLimits: { maxOldGenerationSizeMb: 256 },
  });
  const timedOut = () =>
    new SandboxError(`${label} timed out after ${describeTimeout(timeoutMs)} (the script was stopped)`);
  return new Promise<SandboxResult>((resolve, reject) => {
    let done = false;
    const finish = (fn: () => void) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      void worker.terminate();
      fn();
    };
    const timer = setTimeout(() => finish(() => reject(timedOut())), timeoutMs);
    const onAbort = () =>
      finish(() =>
        reject(
          opts.signal?.reason instanceof SandboxError
            ? opts.signal.reason
            : new SandboxError(`${label} was cancelled (the script was stopped)`),
        ),
      );
    if (opts.signal?.aborted) return onAbort();
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    const deliveries = new Map<number, () => void>();
    worker.on('message', (out: WorkerOutput) => {
      if (out.type === 'delivered') {
        deliveries.get(out.id)?.();
        deliveries.delete(out.id);
        return;
      }
      if (out.type === 'call') {
        const fn = Object.prototype.hasOwnProperty.call(host, out.name) ? host[out.name] : undefined;
        const delivered = new Promise<void>((resolve) => deliveries.set(out.id, resolve));
        const answer = fn ? fn(out.arg, delivered) : Promise.reject(new Error(`no host function ${out.name}`));
        answer.then(
          (value) => !done && worker.postMessage({ id: out.id, ok: true, value } satisfies HostReply),
          (e: unknown) =>
            !done &&
            worker.postMessage({
              id: out.id,
              ok: false,
              message: e instanceof Error ? e.message : String(e),
            } satisfies HostReply),
        );
        return;
      }
      if (out.ok) finish(() => resolve({ json: out.json, logs: out.logs }));
      else if (/interrupted/i.test(out.message)) finish(() => reject(timedOut()));
      else finish(() => reject(new SandboxError(out.message)));
    });
    worker.once('error', (e) => finish(() => reject(new SandboxError(`the sandbox failed: ${e.message}`))));
  });
}
