// `${VAR}` and `${VAR:-default}` in an MCP server entry's command, args, env, url and headers, the way Claude Code's
// `.mcp.json` writes them (docs/mcp.md "Variables"). An unset variable without a default is an error naming the
// variable: the server is not started with the text passed literally or emptied silently. A `$` not followed by `{`
// is literal text.

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

export class McpVariableError extends Error {
  constructor(
    readonly field: string,
    readonly variable: string,
  ) {
    super(
      `${field} uses \${${variable}}, which is not set; set it in the environment or write \${${variable}:-default}`,
    );
  }
}

/** `vars` (e.g. a plugin's root) are looked up before the environment. Unset or empty counts as unset for `:-`. */
export function expandMcpText(text: string, field: string, env: NodeJS.ProcessEnv, vars: Record<string, string> = {}) {
  return text.replace(REFERENCE, (_whole, name: string, fallback: string | undefined) => {
    const value = Object.hasOwn(vars, name) ? vars[name] : env[name];
    if (fallback !== undefined) return value ? value : fallback;
    if (value === undefined) throw new McpVariableError(field, name);
    return value;
  });
}

export interface ExpandableEntry {
  command?: string;
  args: string[];
  env: Record<string, string>;
  url?: string;
  headers: Record<string, string>;
}

/** A copy of the entry with every reference replaced; throws McpVariableError at the first unset one. */
export function expandMcpEntry<T extends ExpandableEntry>(
  entry: T,
  env: NodeJS.ProcessEnv,
  vars: Record<string, string> = {},
): T {
  const map = (table: Record<string, string>, key: string) =>
    Object.fromEntries(Object.entries(table).map(([k, v]) => [k, expandMcpText(v, `${key}.${k}`, env, vars)]));
  return {
    ...entry,
    command: entry.command === undefined ? undefined : expandMcpText(entry.command, 'command', env, vars),
    args: entry.args.map((a, i) => expandMcpText(a, `args[${i}]`, env, vars)),
    env: map(entry.env, 'env'),
    url: entry.url === undefined ? undefined : expandMcpText(entry.url, 'url', env, vars),
    headers: map(entry.headers, 'headers'),
  };
}
