import { describe, expect, it } from 'vitest';
import {
  readWorkflowMeta,
  runWorkflowScript,
  WORKFLOW_LIMITS,
  type WorkflowAgentCall,
  type WorkflowLimits,
  type WorkflowMeta,
} from '../../../src/tools/workflow/workflowRun';

const META: WorkflowMeta = { name: 't', description: '', phases: ['fan out', 'merge'] };

/** Runs a script with subagents answered in-process; records the calls and the most that ran at once. */
async function run(
  source: string,
  opts: { args?: string; limits?: Partial<WorkflowLimits>; barrier?: { size: number; total: number } } = {},
) {
  const calls: WorkflowAgentCall[] = [];
  const progress: string[] = [];
  let running = 0;
  let peak = 0;
  // With a barrier, calls wait until `size` run at once (or `total` have started): overlap without timing.
  const held: Array<() => void> = [];
  const result = runWorkflowScript(source, {
    args: opts.args ?? '',
    meta: META,
    limits: { ...WORKFLOW_LIMITS, ...opts.limits },
    signal: new AbortController().signal,
    hooks: {
      progress: (line) => progress.push(line),
      async runAgent(call) {
        calls.push(call);
        running++;
        peak = Math.max(peak, running);
        try {
          if (opts.barrier && running < opts.barrier.size && calls.length < opts.barrier.total)
            await new Promise<void>((r) => held.push(r));
          else for (const release of held.splice(0)) release();
          return `answer to ${call.prompt}`;
        } finally {
          running--;
        }
      },
    },
  });
  return { result, calls, progress, peak: () => peak };
}

// Each run starts a worker and loads QuickJS's WebAssembly: seconds on a busy machine.
describe('workflow scripts', { timeout: 120_000 }, () => {
  it('fans out 10 subagents in one phase (at most 8 at once) and merges them in a second', async () => {
    const r = await run(
      `
      export const meta = { name: 'fan', description: 'fan out and merge', phases: ['fan out', 'merge'] };
      export default async function ({ args, phase, agent, parallel, log }) {
        phase('fan out');
        const topics = args.split(',');
        const notes = await parallel(topics.map((t) => () => agent({ prompt: 'research ' + t, type: 'explore', description: t })));
        log('got', notes.length, 'notes');
        phase('merge');
        return await agent({ prompt: 'merge: ' + notes.join(' | ') });
      }`,
      { args: 'a,b,c,d,e,f,g,h,i,j', barrier: { size: 8, total: 10 } },
    );
    expect(await r.result).toBe(
      'answer to merge: answer to research a | answer to research b | answer to research c | answer to research d | answer to research e | answer to research f | answer to research g | answer to research h | answer to research i | answer to research j',
    );
    expect(r.calls).toHaveLength(11);
    expect(r.calls[0]).toEqual({ prompt: 'research a', type: 'explore', description: 'a' });
    expect(r.peak()).toBe(8);
    expect(r.progress).toContain('== phase 1/2: fan out');
    expect(r.progress).toContain('== phase 2/2: merge');
    expect(r.progress).toContain('got 10 notes');
  });

  it('the 65th subagent stops the run with a message naming the limit', async () => {
    const r = await run(`
      export const meta = { name: 'greedy', description: '', phases: [] };
      export default async function ({ agent }) {
        for (let i = 0; i < 100; i++) { try { await agent({ prompt: 'p' + i }); } catch (e) { /* swallowing does not help */ } }
        return 'finished anyway';
      }`);
    await expect(r.result).rejects.toThrow(
      'Workflow limit exceeded: the script asked for subagent number 65, and a run may start at most 64. The run was stopped.',
    );
    expect(r.calls).toHaveLength(64);
  });

  it('parallel() over the concurrency limit, bad agent() calls and a missing default export get clear errors', async () => {
    const over = await run(
      `export const meta = { name: 'x' }; export default async ({ parallel }) => parallel([() => 1], { concurrency: 9 });`,
    );
    await expect(over.result).rejects.toThrow(
      'RangeError: parallel(): concurrency 9 is over the workflow limit of 8 subagents at once',
    );
    const bad = await run(
      `export const meta = { name: 'x' }; export default async ({ agent }) => agent({ prompt: '' });`,
    );
    await expect(bad.result).rejects.toThrow(/agent\(\): prompt: agent\(\) needs a non-empty prompt/);
    const none = await run(`export const meta = { name: 'x' };`);
    await expect(none.result).rejects.toThrow(/must export a default async function/);
  });

  it('an infinite loop is terminated at its deadline', async () => {
    const r = await run(
      `export const meta = { name: 'spin' }; export default async ({ phase }) => { await phase('spin'); while (true) {} };`,
      { limits: { wallMs: 2_000 } },
    );
    await expect(r.result).rejects.toThrow('the workflow timed out after 2s (the script was stopped)');
  });

  it('a script over its memory limit is stopped with a message naming the limit', async () => {
    const r = await run(
      `export const meta = { name: 'hog' }; export default async () => { const keep = []; while (true) keep.push(new Array(100000).fill(7)); };`,
      { limits: { memoryBytes: 16 * 1024 * 1024 } },
    );
    await expect(r.result).rejects.toThrow(
      'Workflow limit exceeded: the script used more than 16 MB of memory. The run was stopped.',
    );
  });

  it('reads meta without running the workflow; a script without meta is refused', async () => {
    expect(
      await readWorkflowMeta(
        `export const meta = { name: 'm', description: 'd', phases: ['one', 'two'] }; export default async () => { while (true) {} };`,
      ),
    ).toEqual({ name: 'm', description: 'd', phases: ['one', 'two'] });
    await expect(readWorkflowMeta('export default async () => 1;')).rejects.toThrow(/must export `meta = \{ name/);
    await expect(readWorkflowMeta('export const meta = {')).rejects.toThrow(/does not load: SyntaxError/);
  });
});

describe('the workflow sandbox holds', { timeout: 120_000 }, () => {
  it('no host globals, no constructor-chain escape, no imports', async () => {
    const r = await run(`
      export const meta = { name: 'escape' };
      export default async function (api) {
        const out = {};
        for (const name of ['process', 'require', 'fetch', 'setTimeout', 'setInterval', 'setImmediate', 'queueMicrotask', 'XMLHttpRequest', 'WebAssembly', 'Buffer', 'module', 'global', 'Deno', 'Bun', 'std', 'os']) out[name] = typeof globalThis[name];
        const probe = 'return typeof process + "," + typeof require + "," + typeof fetch';
        out.viaAgent = api.agent.constructor.constructor(probe)();
        out.viaParallel = await api.parallel.constructor(probe)();
        out.viaAsync = (async () => {}).constructor(probe)().constructor.name;
        out.viaApi = Object.getPrototypeOf(api).constructor.constructor(probe)();
        for (const spec of ['node:fs', 'fs', 'workflow.js', 'main.js', 'child_process']) {
          try { await import(spec); out['import ' + spec] = 'loaded'; } catch (e) { out['import ' + spec] = 'refused'; }
        }
        return out;
      }`);
    const out = JSON.parse(await r.result) as Record<string, string>;
    for (const name of [
      'process',
      'require',
      'fetch',
      'setTimeout',
      'setInterval',
      'setImmediate',
      'queueMicrotask',
      'XMLHttpRequest',
      'WebAssembly',
      'Buffer',
      'module',
      'global',
      'Deno',
      'Bun',
      'std',
      'os',
    ])
      expect(out[name], name).toBe('undefined');
    expect(out.viaAgent).toBe('undefined,undefined,undefined');
    expect(out.viaParallel).toBe('undefined,undefined,undefined');
    expect(out.viaApi).toBe('undefined,undefined,undefined');
    for (const spec of ['node:fs', 'fs', 'workflow.js', 'main.js', 'child_process'])
      expect(out[`import ${spec}`], spec).toBe('refused');
  });

  it('prototype pollution of the API objects stays inside the sandbox; the host sees only validated fields', async () => {
    const r = await run(`
      export const meta = { name: 'pollute' };
      export default async function (api) {
        Object.prototype.polluted = 'yes';
        Object.prototype.type = 'coder-evil';
        Array.prototype.push = () => { throw new Error('hijacked'); };
        const realStringify = JSON.stringify;
        JSON.stringify = () => '{"prompt":"forged","type":"evil"}';
        try { api.agent = async () => 'replaced'; } catch (e) {}
        try { Object.getPrototypeOf(api).hacked = true; } catch (e) {}
        const direct = await __host.agent('{"prompt":"direct","__proto__":{"polluted":"host"},"constructor":{"prototype":{"polluted":"host"}},"extra":"dropped"}');
        const viaApi = await api.agent({ prompt: 'via api' });
        JSON.stringify = realStringify;
        let junk;
        try { await __host.agent('not json'); } catch (e) { junk = String(e); }
        let notString;
        try { await __host.agent({ toString() { return '{"prompt":"obj"}'; } }); } catch (e) { notString = String(e); }
        return { direct, viaApi, junk, notString, replaced: api.agent.toString().includes('replaced') };
      }`);
    const out = JSON.parse(await r.result) as Record<string, unknown>;
    expect(out.replaced).toBe(false);
    expect(r.calls.map((c) => c.prompt)).toEqual(['direct', 'forged']);
    // The forged JSON.stringify only changes what this script sends — still validated, still only prompt/type/description.
    expect(Object.keys(r.calls[0]).sort()).toEqual(['description', 'prompt', 'type']);
    expect(r.calls[0].type).toBeUndefined();
    expect(out.junk).toMatch(/SyntaxError|JSON/);
    expect(out.notString).toMatch(/SyntaxError|JSON|Unexpected/);
    // Nothing leaked into this process.
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted')).toBe(false);
    expect(([] as unknown[]).push(1)).toBe(1);
  });
});
