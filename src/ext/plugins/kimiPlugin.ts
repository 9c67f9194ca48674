// Kimi Code plugins (docs/compatibility.md "Kimi plugins"): a root `plugin.json` whose `tools` are programs the model
// calls. A call runs the tool's `command` (a program and its arguments, no shell) in the plugin folder, in its own
// process group, with the call's arguments as one JSON object on stdin; what it prints on stdout is the result, a
// non-zero exit an error carrying what it printed on stderr. Bounded: 120 s (as Kimi Code bounds it), then the
// group is stopped; 1 MiB of output. Its environment is Jarvis's without secret-looking variables. Kimi Code's credentials injection (`config_file`, `inject`) is not done: Jarvis
// hands no API key or endpoint to plugins.
import { releasePipes, spawnInGroup, terminateGroup, waitForExit } from '../../platform/processes';
import { sandboxEnv } from '../../platform/sandbox/sandboxEnv';

export interface KimiTool {
  name: string;
  description: string;
  /** The program and its arguments, run in the plugin folder. */
  command: string[];
  /** JSON Schema of the arguments (an object schema); `{type: "object"}` when the manifest gives none. */
  parameters: Record<string, unknown>;
}

/** Kimi Code manifest fields Jarvis does not take, and why (empty: read silently, it only records the install). */
export const KIMI_UNSUPPORTED: Record<string, string> = {
  config_file: 'credentials injection is not supported (Jarvis gives plugins no API key or endpoint)',
  inject: 'credentials injection is not supported (Jarvis gives plugins no API key or endpoint)',
  runtime: '',
};

export const KIMI_TOOL_TIMEOUT_MS = 120_000;
export const KIMI_TOOL_MAX_OUTPUT_BYTES = 1024 * 1024;
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;
const STOP_GRACE_MS = 2_000;
const PIPE_DRAIN_MS = 2_000;

/** The name the model calls a plugin's tool by: `<plugin>__<tool>`, cut to 64 characters. */
export function pluginToolName(plugin: string, tool: string): string {
  return `${plugin}__${tool}`.slice(0, 64);
}

/** The manifest's `tools`, each checked; a bad entry is a diagnostic naming it and is left out. */
export function readKimiTools(value: unknown, diag: (text: string) => void): KimiTool[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    diag('"tools" must be an array of {name, description, command, parameters}; ignored');
    return [];
  }
  const tools: KimiTool[] = [];
  value.forEach((raw: unknown, i) => {
    const t = (raw && typeof raw === 'object' && !Array.isArray(raw) ? raw : {}) as Record<string, unknown>;
    const label = typeof t.name === 'string' ? `tools[${i}] "${t.name}"` : `tools[${i}]`;
    const problem =
      typeof t.name !== 'string' || !TOOL_NAME.test(t.name)
        ? '"name" must be 1-64 letters, digits, "_" or "-"'
        : typeof t.description !== 'string' || !t.description.trim()
          ? '"description" is required'
          : !Array.isArray(t.command) || !t.command.length || !t.command.every((c) => typeof c === 'string' && c)
            ? '"command" must be a non-empty array of strings (the program and its arguments)'
            : t.parameters !== undefined &&
                (typeof t.parameters !== 'object' || t.parameters === null || Array.isArray(t.parameters))
              ? '"parameters" must be a JSON Schema object'
              : tools.some((x) => x.name === t.name)
                ? 'the name is used by an earlier tool'
                : undefined;
    if (problem) {
      diag(`${label}: ${problem}; the tool is not offered`);
      return;
    }
    tools.push({
      name: t.name as string,
      description: t.description as string,
      command: t.command as string[],
      parameters: (t.parameters as Record<string, unknown> | undefined) ?? { type: 'object', properties: {} },
    });
  });
  return tools;
}

export type KimiToolResult = { ok: true; output: string } | { ok: false; error: string };

/**
 * Runs one call of `tool` from the plugin at `root`; `signal` stops it (and everything it started). `env`: the
 * session's environment (default process.env), which the program gets without its secrets.
 */
export async function runKimiTool(
  tool: KimiTool,
  root: string,
  args: unknown,
  signal: AbortSignal,
  env: Readonly<NodeJS.ProcessEnv> = process.env,
): Promise<KimiToolResult> {
  const child = spawnInGroup(tool.command[0], tool.command.slice(1), {
    cwd: root,
    // Without secret-looking variables (API keys, tokens: platform/sandbox/sandboxEnv.ts): the program is the plugin's.
    env: { ...sandboxEnv(env), JARVIS_PLUGIN_ROOT: root },
    stdin: 'pipe',
  });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  let size = 0;
  let stopped: string | undefined;
  const stop = (why: string) => {
    if (stopped || child.pid === undefined) return;
    stopped = why;
    void terminateGroup(child.pid, { graceMs: STOP_GRACE_MS });
  };
  const keep = (into: Buffer[]) => (chunk: Buffer) => {
    size += chunk.length;
    if (size > KIMI_TOOL_MAX_OUTPUT_BYTES) stop(`it printed more than ${KIMI_TOOL_MAX_OUTPUT_BYTES} bytes`);
    else into.push(chunk);
  };
  child.stdout?.on('data', keep(out));
  child.stderr?.on('data', keep(err));
  // A program that exits without reading its input closes the pipe: that is no failure of the call.
  child.stdin?.on('error', () => undefined);
  child.stdin?.end(JSON.stringify(args ?? {}));
  const timer = setTimeout(() => stop(`it ran longer than ${KIMI_TOOL_TIMEOUT_MS / 1000} s`), KIMI_TOOL_TIMEOUT_MS);
  const onAbort = () => stop('the call was cancelled');
  signal.addEventListener('abort', onAbort, { once: true });
  const exit = await waitForExit(child);
  // What it printed just before exiting may still be in the pipes (a program it left running may hold them open).
  await releasePipes(child, PIPE_DRAIN_MS);
  clearTimeout(timer);
  signal.removeEventListener('abort', onAbort);
  const stdout = Buffer.concat(out).toString('utf8').trim();
  const stderr = Buffer.concat(err).toString('utf8').trim();
  const name = `Plugin tool ${tool.name}`;
  if (exit.error)
    return { ok: false, error: `${name} could not be started (${tool.command[0]}): ${exit.error.message}` };
  if (stopped) return { ok: false, error: `${name} was stopped: ${stopped}.${stdout ? `\n${stdout}` : ''}` };
  if (exit.code !== 0) {
    const how = exit.code === null ? `was ended by ${exit.signal}` : `exited with ${exit.code}`;
    return { ok: false, error: `${name} ${how}${stderr || stdout ? `: ${stderr || stdout}` : ''}` };
  }
  return { ok: true, output: stdout };
}
