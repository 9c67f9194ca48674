// Prepares a call the way the engine does before approval, to see its subject and declared accesses.
import { prepareToolCall, type PreparedToolCall } from '../../../src/engine/loop/toolRunner';
import type { Tool } from '../../../src/tools/defineTool';
import type { ToolHarness } from '../../helpers/toolHarness';

export function prepareCall(h: ToolHarness, tool: Tool, args: unknown): PreparedToolCall {
  return prepareToolCall(
    { id: 'prep', name: tool.name, arguments: JSON.stringify(args) },
    new Map([[tool.name, tool]]),
    {
      cwd: h.cwd,
      services: h.services,
      guard: h.guard,
      onProgress: () => undefined,
    },
  );
}
