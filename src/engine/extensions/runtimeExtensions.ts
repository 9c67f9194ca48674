// What a runtime plugs into its extension gate and tool registry at start: the `[[hooks]]` of
// config.toml (docs/hooks.md) and the front end's MCP servers (docs/mcp.md). The first turn waits for
// SessionStart hooks; its first model request waits for every MCP server that had to start (lazy ones
// do not) being ready or failed, with its tools registered. That wait is inside the turn — the prompt is
// journalled first, the wait is announced with the servers' names, and cancelling the turn ends it.
import { join } from 'node:path';
import { CLAUDE_TRANSCRIPT_FILE, ClaudeTranscript } from '../../ext/hooks/claudeTranscript';
import type { HookSpec } from '../../ext/hooks/hookRunner';
import type { Message } from '../../llm/types';
import { projectRoot } from '../../store/paths';
import type { McpManager } from '../../ext/mcp/mcpManager';
import { MAIN_AGENT_ID, type EngineEvent } from '../loop/events';
import type { ExtensionGate } from './extensionGate';
import { hookGateHandler } from './hookGate';
import type { TurnExtension } from '../loop/loop';
import { attachMcpTools } from './mcpTools';
import { attachMcpResourceTools } from './mcpResources';
import { attachPluginTools } from './pluginTools';
import type { SessionPlugins } from '../../ext/plugins/contributions';
import type { ToolRegistry } from '../loop/toolRegistry';

export interface RuntimeExtensionOptions {
  hooks?: readonly HookSpec[];
  /** The session's environment: what hook commands start from (runtimeShape.ts `env`). */
  env?: Readonly<NodeJS.ProcessEnv>;
  /** The main agent's conversation and mode, for Claude Code hooks' transcript and `permission_mode`. */
  session?: {
    id: string;
    dir: string;
    cwd: string;
    messages(): readonly Message[];
    permissionMode(): string;
  };
  mcp?: McpManager;
  /** Kimi Code plugins' tools (pluginTools.ts). */
  pluginTools?: SessionPlugins['tools'];
  gate: ExtensionGate;
  tools: ToolRegistry;
  emit(event: EngineEvent): void;
  title(): string;
}

/**
 * Registers hooks and MCP tools. `extension` brings a changed MCP tool list in before each model
 * request; `close` detaches everything (after hooks still running end). Plan mode treats MCP tools by
 * their declared capability like every other tool (a tool not marked read-only counts as exec).
 */
export function attachRuntimeExtensions(opts: RuntimeExtensionOptions): {
  close(): Promise<void>;
  extension?: TurnExtension;
} {
  const warn = (text: string) => opts.emit({ type: 'notice', level: 'warning', text, agentId: MAIN_AGENT_ID });
  const emitInfo = (text: string) => opts.emit({ type: 'notice', level: 'info', text, agentId: MAIN_AGENT_ID });
  const closers: Array<() => Promise<void> | void> = [];
  if (opts.hooks?.length) {
    const s = opts.session;
    // Claude Code hooks read a transcript (ext/hooks/claudeTranscript.ts): written only when such a hook exists.
    const claude =
      s && opts.hooks.some((h) => h.dialect === 'claude')
        ? {
            transcript: new ClaudeTranscript(join(s.dir, CLAUDE_TRANSCRIPT_FILE), s),
            permissionMode: s.permissionMode,
            projectDir: projectRoot(s.cwd),
          }
        : undefined;
    const hooks = hookGateHandler({
      hooks: opts.hooks,
      ...(opts.env ? { env: opts.env } : {}),
      title: opts.title,
      profile: 'agent',
      warn,
      inform: emitInfo,
      ...(claude ? { claude } : {}),
    });
    closers.push(opts.gate.register(hooks), () => hooks.close());
  }
  if (opts.pluginTools?.length) for (const w of attachPluginTools(opts.pluginTools, opts.tools, opts.env)) warn(w);
  const mcp = opts.mcp;
  let extension: TurnExtension | undefined;
  if (mcp) {
    const attached = attachMcpTools(mcp, opts.tools, warn);
    for (const w of attachMcpResourceTools(mcp, opts.tools)) warn(w);
    closers.push(attached.stop);
    let announced = false;
    extension = {
      // A tool list the server changed during the last step (list_changed) is offered at this one.
      beforeStep: async (_agent, signal) => {
        const waiting = mcp.startingServers();
        if (waiting.length && !announced) {
          announced = true;
          const names = waiting.map((n) => `"${n}"`).join(', ');
          const plural = waiting.length > 1 ? 's' : '';
          emitInfo(
            `Waiting for MCP server${plural} ${names} to start (each up to its startupTimeoutMs; Ctrl-C stops).`,
          );
        }
        await untilAborted(mcp.ready(), signal);
        await attached.settled();
      },
    };
  }
  return {
    extension,
    async close() {
      for (const close of closers.reverse()) await close();
    },
  };
}

/** `promise`, or a rejection as soon as `signal` aborts (the turn was cancelled during the wait). */
function untilAborted(promise: Promise<void>, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
