// Runs untrusted JavaScript as pure computation: QuickJS (compiled to WebAssembly) inside a fresh
// worker thread. The code sees no host objects at all — no process, require, fetch, timers or file
// system exist in the QuickJS context. QuickJS's own interrupt handler stops loops at the deadline,
// and the worker is terminated at the deadline regardless, so nothing outlives its call.
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

interface WorkerInput {
  coreUrl: string;
  variantUrl: string;
  code: string;
  deadline: number;
  memoryBytes: number;
}
type WorkerOutput = { ok: true; json: string; logs: string[] } | { ok: false; message: string; logs: string[] };

/*
 * The worker body, kept as source text: it is evaluated in the worker (a CommonJS script), and a
 * function's own source would be rewritten by bundlers and test transforms (dynamic import()).
 * workerData: WorkerInput; it posts one WorkerOutput.
 */
const WORKER_SOURCE = `
const { parentPort, workerData: input } = require('node:worker_threads');
const logs = [];
const send = (out) => parentPort.postMessage(out);
const message = (e) => (typeof e === 'object' && e !== null ? (e.name || 'Error') + ': ' + (e.message ?? String(e)) : String(e));
Promise.all([import(input.coreUrl), import(input.variantUrl)]).then(async ([quickjs, variant]) => {
  const runtime = (await quickjs.newQuickJSWASMModuleFromVariant(variant.default)).newRuntime();
  runtime.setMemoryLimit(input.memoryBytes);
  runtime.setMaxStackSize(1024 * 1024);
  runtime.setInterruptHandler(quickjs.shouldInterruptAfterDeadline(input.deadline));
  const vm = runtime.newContext();
  const consoleObject = vm.newObject();
  const log = vm.newFunction('log', (...args) => { logs.push(args.map((a) => String(vm.dump(a))).join(' ')); });
  vm.setProp(consoleObject, 'log', log);
  vm.setProp(vm.global, 'console', consoleObject);
  log.dispose();
  consoleObject.dispose();
  const wrapped = '(async () => {\\n' + input.code + '\\n})().then((v) => { const j = JSON.stringify(v === undefined ? null : v); return j === undefined ? "null" : j; })';
  const started = vm.evalCode(wrapped, 'sandbox.js');
  if (started.error) { send({ ok: false, message: message(vm.dump(started.error)), logs }); return; }
  const settled = vm.resolvePromise(started.value);
  started.value.dispose();
  while (runtime.hasPendingJob()) {
    const ran = runtime.executePendingJobs();
    if (ran.error) { send({ ok: false, message: message(vm.dump(ran.error)), logs }); return; }
  }
  const outcome = await settled;
  if (outcome.error) send({ ok: false, message: message(vm.dump(outcome.error)), logs });
  else send({ ok: true, json: vm.getString(outcome.value), logs });
}).catch((e) => send({ ok: false, message: String(e && e.message || e), logs }));
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

/** Runs `code` (a function body: `return` gives the result; top-level `await` works). */
export function runInSandbox(code: string, opts: { timeoutMs?: number; signal?: AbortSignal; memoryBytes?: number } = {}): Promise<SandboxResult> {
  const timeoutMs = opts.timeoutMs ?? SANDBOX_TIMEOUT_MS;
  const input: WorkerInput = { ...quickjsModuleUrls(), code, deadline: Date.now() + timeoutMs, memoryBytes: opts.memoryBytes ?? SANDBOX_MEMORY_BYTES };
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: input, resourceLimits: { maxOldGenerationSizeMb: 256 } });
  return new Promise<SandboxResult>((resolve, reject) => {
    const finish = (fn: () => void) => {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      void worker.terminate();
      fn();
    };
    const timer = setTimeout(() => finish(() => reject(new SandboxError(`execute_script timed out after ${timeoutMs / 1000}s (the script was stopped)`))), timeoutMs);
    const onAbort = () => finish(() => reject(new SandboxError('execute_script was cancelled (the script was stopped)')));
    if (opts.signal?.aborted) return onAbort();
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    worker.once('message', (out: WorkerOutput) => {
      if (out.ok) finish(() => resolve({ json: out.json, logs: out.logs }));
      else if (/interrupted/i.test(out.message)) finish(() => reject(new SandboxError(`execute_script timed out after ${timeoutMs / 1000}s (the script was stopped)`)));
      else finish(() => reject(new SandboxError(out.message)));
    });
    worker.once('error', (e) => finish(() => reject(new SandboxError(`the sandbox failed: ${e.message}`))));
  });
}
