import { describe, expect, it } from 'vitest';
import { runInSandbox } from '../../../src/platform/sandbox/quickjsSandbox';

const run = (code: string, timeoutMs = 20_000) => runInSandbox(code, { timeoutMs });
const value = async (code: string) => JSON.parse((await run(code)).json) as unknown;

// Each call starts a worker and loads QuickJS's WebAssembly: seconds on a busy machine.
describe('the QuickJS sandbox', { timeout: 120_000 }, () => {
  it('computes, awaits, maps undefined to null, captures console.log', async () => {
    expect(await value('return [1, 2, 3].map((x) => x * 2)')).toEqual([2, 4, 6]);
    expect(await value('const v = await Promise.resolve(41); await null; return v + 1')).toBe(42);
    expect(await value('const x = 1;')).toBeNull();
    expect((await run('console.log("hi", 2); return 1')).logs).toEqual(['hi 2']);
  });

  it('an error thrown by the code surfaces with its message', async () => {
    await expect(run('throw new TypeError("bad input")')).rejects.toThrow('TypeError: bad input');
    await expect(run('return (')).rejects.toThrow(/SyntaxError/);
  });

  it.each([
    ['process', 'return typeof process'],
    ['require', 'return typeof require'],
    ['fetch', 'return typeof fetch'],
    ['document', 'return typeof document'],
    ['setTimeout', 'return typeof setTimeout'],
    [
      'globalThis.constructor chain',
      'return typeof globalThis.constructor.constructor("return typeof process")() === "string" ? globalThis.constructor.constructor("return typeof process")() : "none"',
    ],
    ['Function constructor', 'return Function("return typeof process + typeof require + typeof fetch")()'],
    ['a prototype chain', 'return (() => {}).constructor("return typeof globalThis.process")()'],
  ])('has no host access: %s', async (_label, code) => {
    expect(await value(code)).toMatch(/^(undefined)+$/);
  });

  it('import() of a host module fails', async () => {
    await expect(run('return await import("node:fs")')).rejects.toThrow();
    await expect(run('return await import("fs")')).rejects.toThrow();
  });

  it('a busy loop is stopped at its deadline', async () => {
    await expect(run('while (true) {}', 1500)).rejects.toThrow(
      'execute_script timed out after 1.5s (the script was stopped)',
    );
  });

  it('an abort stops a running script', async () => {
    const controller = new AbortController();
    const running = runInSandbox('while (true) {}', { timeoutMs: 20_000, signal: controller.signal });
    controller.abort();
    await expect(running).rejects.toThrow('cancelled');
  });

  it('a memory bomb hits the memory limit', async () => {
    await expect(
      runInSandbox('let s = "x"; const keep = []; while (true) { s = s + s; keep.push(s); }', {
        timeoutMs: 20_000,
        memoryBytes: 16 * 1024 * 1024,
      }),
    ).rejects.toThrow(/memory|InternalError/i);
  });
});
