// How an official plugin's MCP server runs (docs/plugins-official.md, "For developers"): over stdio, behind the
// build's launcher (scripts/pluginLauncher.mjs) through the streams it hands over, and closing what it holds when
// Jarvis closes its stdin or stops it with a signal.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Readable, Writable } from 'node:stream';

export async function serveStdio(server: McpServer, close: () => Promise<void>): Promise<void> {
  const stop = async () => {
    await close();
    process.exit(0);
  };
  process.stdin.on('end', () => void stop());
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
  const streams = (globalThis as { __jarvisPluginStdio?: { stdin: Readable; stdout: Writable } }).__jarvisPluginStdio;
  await server.connect(new StdioServerTransport(streams?.stdin, streams?.stdout));
}
