// Runs tools the way the engine does (parse → validate → guard → execute → cap), without a model.
import { mkdtempSync, mkdirSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileStateGuard } from '../../src/engine/session/fileGuard';
import { executeToolCall, prepareToolCall, type ToolRunEnv } from '../../src/engine/loop/toolRunner';
import type { ServiceKey, Tool, ToolProgress, ToolResult, ToolServices } from '../../src/tools/defineTool';

export interface ToolHarness {
  cwd: string;
  sessionDir: string;
  /** The session's scratch folder (services.scratchDir): saved outputs and task output go there. */
  scratchDir: string;
  guard: FileStateGuard;
  progress: Array<{ callId: string; progress: ToolProgress }>;
  services: ToolServices;
  register<T>(key: ServiceKey<T>, value: T): void;
  /** Runs one call with raw arguments (an object, or a JSON string sent verbatim). */
  run(
    tool: Tool,
    args: unknown,
    opts?: { signal?: AbortSignal; tools?: Tool[] },
  ): Promise<ToolResult & { text: string }>;
}

export function makeToolHarness(
  opts: { cwd?: string; nonInteractive?: boolean; mainAgent?: boolean } = {},
): ToolHarness {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'jarvis-tool-')));
  const cwd = opts.cwd ?? join(root, 'work');
  const sessionDir = join(root, 'session');
  const scratchDir = join(sessionDir, 'scratch');
  mkdirSync(cwd, { recursive: true });
  mkdirSync(scratchDir, { recursive: true });
  const registry = new Map<string, unknown>();
  const services: ToolServices = {
    scratchDir,
    nonInteractive: opts.nonInteractive ?? false,
    mainAgent: opts.mainAgent ?? true,
    get<T>(key: ServiceKey<T>): T {
      if (!registry.has(key.name)) throw new Error(`service ${key.name} is not registered in this harness`);
      return registry.get(key.name) as T;
    },
    find<T>(key: ServiceKey<T>): T | undefined {
      return registry.get(key.name) as T | undefined;
    },
  };
  const guard = new FileStateGuard();
  const progress: ToolHarness['progress'] = [];
  const env: ToolRunEnv = { cwd, services, guard, onProgress: (callId, p) => progress.push({ callId, progress: p }) };
  let n = 0;
  return {
    cwd,
    sessionDir,
    scratchDir,
    guard,
    progress,
    services,
    register: (key, value) => registry.set(key.name, value),
    async run(tool, args, runOpts = {}) {
      const tools = new Map((runOpts.tools ?? [tool]).map((t) => [t.name, t]));
      const call = {
        id: `call_${++n}`,
        name: tool.name,
        arguments: typeof args === 'string' ? args : JSON.stringify(args),
      };
      const prepared = prepareToolCall(call, tools, env);
      const { result } = await executeToolCall(prepared, env, runOpts.signal ?? new AbortController().signal);
      const text =
        typeof result.content === 'string'
          ? result.content
          : result.content.map((p) => (p.type === 'text' ? p.text : `[${p.type}]`)).join('\n');
      return { ...result, text };
    },
  };
}
