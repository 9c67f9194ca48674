// What a runtime plugs into its extension gate and tool registry at start: the `[[hooks]]` of
// config.toml (docs/hooks.md) and the front end's MCP servers (docs/mcp.md). The first turn waits for
// both: SessionStart hooks, and every MCP server being ready or failed, with its tools registered.
import type { HookSpec } from '../../ext/hooks/hookRunner';
import type { McpManager } from '../../ext/mcp/mcpManager';
import { MAIN_AGENT_ID, type EngineEvent } from '../loop/events';
import type { ExtensionGate } from './extensionGate';
import { hookGateHandler } from './hookGate';
import type { TurnExtension } from '../loop/loop';
import { attachMcpTools } from './mcpTools';
import type { ToolRegistry } from '../loop/toolRegistry';

export interface RuntimeExtensionOptions {
  hooks?: readonly HookSpec[];
  mcp?: McpManager;
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
export function attachRuntimeExtensions(opts: RuntimeExtensionOptions): { close(): Promise<void>; extension?: TurnExtension } {
  const warn = (text: string) => opts.emit({ type: 'notice', level: 'warning', text, agentId: MAIN_AGENT_ID });
  const closers: Array<() => Promise<void> | void> = [];
  if (opts.hooks?.length) {
    const hooks = hookGateHandler({ hooks: opts.hooks, title: opts.title, profile: 'agent', warn });
    closers.push(opts.gate.register(hooks), () => hooks.close());
  }
  const mcp = opts.mcp;
  let extension: TurnExtension | undefined;
  if (mcp) {
    const attached = attachMcpTools(mcp, opts.tools, warn);
    closers.push(attached.stop);
    closers.push(
      opts.gate.register({
        name: 'MCP servers',
        async onSessionStart() {
          await mcp.ready();
          await attached.settled();
        },
      }),
    );
    extension = {
      // A tool list the server changed during the last step (list_changed) is offered at this one.
      beforeStep: () => attached.settled(),
    };
  }
  return {
    extension,
    async close() {
      for (const close of closers.reverse()) await close();
    },
  };
}
