// An mcp.json file as a whole (docs/mcp.md): read once — parsed and digested from the same bytes (regularFile.ts) —
// and rewritten with only its `mcpServers` key replaced, so whatever else the file holds survives.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { sha256 } from './mcpLaunch';
import { displayPath } from './paths';
import { readRegular } from './regularFile';

/** A parsed mcp.json: the whole document (kept for rewriting), its `mcpServers` table, and the SHA-256 of its bytes. */
export interface McpFileDocument {
  document: Record<string, unknown>;
  servers: Record<string, unknown>;
  /** Of the very bytes parsed here (one read: a file swapped meanwhile cannot be parsed from one and judged by another). */
  digest: string;
}

/** Undefined when the file does not exist; throws an Error with an actionable message when it is broken. */
export function readMcpFile(file: string): McpFileDocument | undefined {
  const read = readRegular(file);
  if ('missing' in read) return undefined;
  if ('problem' in read) throw new Error(`${displayPath(file)} ${read.problem}; its MCP servers are not used`);
  const bytes = read.bytes;
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch (e) {
    throw new Error(
      `${displayPath(file)} is not valid JSON (${(e as Error).message}); its MCP servers are not used until it is fixed`,
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error(
      `${displayPath(file)} must hold a JSON object like {"mcpServers": {…}}; its MCP servers are not used until it is fixed`,
    );
  }
  const document = value as Record<string, unknown>;
  const servers = document.mcpServers ?? {};
  if (typeof servers !== 'object' || servers === null || Array.isArray(servers)) {
    throw new Error(
      `${displayPath(file)}: "mcpServers" must be an object of servers by name; its MCP servers are not used until it is fixed`,
    );
  }
  return { document, servers: servers as Record<string, unknown>, digest: sha256(bytes) };
}

/**
 * Replaces `mcpServers` and writes atomically; every other key of the document is kept as it was. Returns the
 * SHA-256 of the bytes written (what a trusted project file's approval moves to).
 */
export function writeMcpServers(
  file: string,
  doc: McpFileDocument | undefined,
  servers: Record<string, unknown>,
): string {
  const document = { ...(doc?.document ?? {}), mcpServers: servers };
  const bytes = Buffer.from(`${JSON.stringify(document, null, 2)}\n`);
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, bytes);
  renameSync(tmp, file);
  return sha256(bytes);
}
