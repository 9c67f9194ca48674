// MCP servers that `claude mcp add` keeps in `~/.claude.json` (docs/compatibility.md, "MCP configs"): the top-level
// `mcpServers` (Claude Code's user scope) and `projects["<abs path>"].mcpServers` (its local scope: one project's,
// kept in the user's file). The project's entry is the one whose key is the working folder or its repository root.
// The rest of the file (history, settings, caches) is Claude Code's and not read. Entries are read like every MCP
// entry (mcpConfig.ts `parseServerEntry`); the project's servers follow the same trust rule as `.mcp.json`.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { McpServerConfig, McpTimeoutDefaults } from './mcpConfig';
import { displayPath, expandTilde, projectRoot } from './paths';

export function claudeJsonPath(env: NodeJS.ProcessEnv): string {
  return join(expandTilde('~', env), '.claude.json');
}

export interface ClaudeJsonServers {
  user: McpServerConfig[];
  project: McpServerConfig[];
  /** The `projects` key the project's servers came from, when there was one. */
  projectKey?: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

type ParseEntry = (
  name: string,
  raw: unknown,
  where: { scope: 'user' | 'project'; file: string; defaults: McpTimeoutDefaults; env?: NodeJS.ProcessEnv },
) => { server: McpServerConfig } | { error: string };

/** Reads the file's servers; a broken file or entry is a warning naming it. Never throws. */
export function readClaudeJsonServers(
  projectDir: string,
  defaults: McpTimeoutDefaults,
  warnings: string[],
  env: NodeJS.ProcessEnv,
  parse: ParseEntry,
): ClaudeJsonServers {
  const file = claudeJsonPath(env);
  const out: ClaudeJsonServers = { user: [], project: [] };
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(file, 'utf8').replace(/^\uFEFF/, ''));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return out;
    warnings.push(
      `${displayPath(file)} cannot be read (${code ?? (e as Error).message}); its MCP servers are not used`,
    );
    return out;
  }
  if (!isObject(doc)) {
    warnings.push(`${displayPath(file)} must hold a JSON object; its MCP servers are not used`);
    return out;
  }
  const read = (servers: unknown, scope: 'user' | 'project', label: string): McpServerConfig[] => {
    if (servers === undefined) return [];
    if (!isObject(servers)) {
      warnings.push(`${displayPath(file)}: ${label} must be an object of servers by name; not used`);
      return [];
    }
    const list: McpServerConfig[] = [];
    for (const [name, raw] of Object.entries(servers)) {
      const parsed = parse(name, raw, { scope, file, defaults, env });
      if ('error' in parsed) warnings.push(parsed.error);
      else list.push(parsed.server);
    }
    return list;
  };
  out.user = read(doc.mcpServers, 'user', '"mcpServers"');
  const projects = isObject(doc.projects) ? doc.projects : {};
  const keys = [resolve(projectDir), projectRoot(resolve(projectDir))];
  const key = keys.find((k) => isObject(projects[k]));
  if (key) {
    out.projectKey = key;
    out.project = read(
      (projects[key] as Record<string, unknown>).mcpServers,
      'project',
      `projects["${key}"].mcpServers`,
    );
  }
  return out;
}
