// Kimi Code plugins' tools in the tool registry (docs/compatibility.md "Kimi plugins"): one source per plugin, each
// tool named `<plugin>__<tool>` (so two plugins, or a plugin and a built-in, never clash), its arguments checked
// against the manifest's JSON Schema. A call asks in manual mode as an MCP tool does (the plugin's program runs as
// you, outside the sandbox, as Kimi Code runs it); rules match the name (`acme__*`). The run: ext/plugins/kimiPlugin.ts.
import type { SessionPlugins } from '../../ext/plugins/contributions';
import { pluginToolName, runKimiTool } from '../../ext/plugins/kimiPlugin';
import { defineJsonSchemaTool } from '../../tools/jsonSchemaTool';
import type { Tool } from '../../tools/defineTool';
import type { ToolRegistry } from '../loop/toolRegistry';

const MAX_OUTPUT_CHARS = 100_000;

/** Offers every plugin tool; returns the registry's warnings (a name clash, a schema that does not compile). */
export function attachPluginTools(
  tools: NonNullable<SessionPlugins['tools']>,
  registry: ToolRegistry,
  env?: Readonly<NodeJS.ProcessEnv>,
): string[] {
  const warnings: string[] = [];
  const byPlugin = new Map<string, Tool[]>();
  for (const { plugin, root, tool } of tools) {
    try {
      const built = defineJsonSchemaTool({
        name: pluginToolName(plugin, tool.name),
        description: tool.description,
        inputSchema: tool.parameters,
        readOnly: false,
        defaultApproval: 'ask',
        maxOutputChars: MAX_OUTPUT_CHARS,
        async execute(args, ctx) {
          const r = await runKimiTool(tool, root, args, ctx.signal, env);
          return r.ok
            ? { content: r.output || '(no output)', summary: `${plugin}: ${tool.name}` }
            : { content: r.error, isError: true };
        },
      });
      byPlugin.set(plugin, [...(byPlugin.get(plugin) ?? []), built]);
    } catch (e) {
      warnings.push(`plugin ${plugin}: tool "${tool.name}" is not offered: ${(e as Error).message}`);
    }
  }
  for (const [plugin, list] of byPlugin)
    warnings.push(...registry.setSource({ id: `plugin:${plugin}`, kind: 'plugin' }, list));
  return warnings;
}
