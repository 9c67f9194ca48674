// opencode's JSON config files (docs/compatibility.md "opencode.json"): `opencode.json` / `opencode.jsonc` (JSON with
// comments and trailing commas) in opencode's global folder and at the project root (also in `.opencode/`). Jarvis
// reads their `command` (`commands`), `agent` (`agents`) and `mcp` sections; opencode's `{env:NAME}` becomes Jarvis's
// `${NAME}` (an unset one keeps an MCP server off, as in every MCP source) and `{file:path}` the file's text.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { expandTilde } from './paths';
import { opencodeConfigDir, type CompatSettings } from './compat';
import { sha256 } from './mcpLaunch';

export interface OpencodeConfigFile {
  path: string;
  scope: 'project' | 'user';
  data: Record<string, unknown>;
  /** SHA-256 of the bytes parsed (workspace trust pins a project file's MCP servers to them: store/mcpTrust.ts). */
  digest: string;
}

/** Where opencode's config files are, user first, then the project's (a later file wins on a name, as in opencode). */
export function opencodeConfigPaths(
  root: string,
  env: NodeJS.ProcessEnv,
): Array<{ path: string; scope: 'project' | 'user' }> {
  const user = opencodeConfigDir(env);
  return [
    ...['config.json', 'opencode.json', 'opencode.jsonc'].map((f) => ({ path: join(user, f), scope: 'user' as const })),
    ...[
      join(root, 'opencode.json'),
      join(root, 'opencode.jsonc'),
      join(root, '.opencode', 'opencode.json'),
      join(root, '.opencode', 'opencode.jsonc'),
    ].map((path) => ({ path, scope: 'project' as const })),
  ];
}

/** JSON with `//` and `/* *\/` comments and trailing commas, as opencode (and VS Code) read it, to plain JSON. */
export function jsoncToJson(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (ch === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (ch === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (ch === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 2;
    } else if (ch === ',') {
      // A comma that only comments and spaces separate from `}` or `]` is a trailing comma.
      const next = text[skipBlank(text, i + 1)];
      if (next !== '}' && next !== ']') out += ch;
      i++;
    } else {
      out += ch;
      i++;
    }
  }
  return out;
}

/** Where the next character that is no space and no comment is. */
function skipBlank(text: string, from: number): number {
  let i = from;
  for (;;) {
    while (i < text.length && /\s/.test(text[i])) i++;
    if (text.startsWith('//', i)) while (i < text.length && text[i] !== '\n') i++;
    else if (text.startsWith('/*', i)) {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 2;
    } else return i;
  }
}

/** `{env:NAME}` → `${NAME}`, so the MCP variable rules apply; elsewhere the value as the environment has it. */
export function opencodeEnvRefs(text: string): string {
  return text.replace(/\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g, (_all, name: string) => `\${${name}}`);
}

/** `{file:./prompt.txt}` (relative to the config file, `~/` the home): the file's text, or an error naming it. */
export function opencodeFileRef(
  value: string,
  configFile: string,
  env: NodeJS.ProcessEnv,
): { text: string } | { error: string } {
  const m = /^\{file:([^}]+)\}$/.exec(value.trim());
  if (!m) return { text: value };
  const path = resolve(dirname(configFile), expandTilde(m[1].trim(), env));
  try {
    return {
      text: readFileSync(path, 'utf8')
        .replace(/^\uFEFF/, '')
        .replace(/\r\n?/g, '\n'),
    };
  } catch (e) {
    return { error: `${configFile}: {file:${m[1]}} cannot be read (${(e as NodeJS.ErrnoException).code ?? e})` };
  }
}

/** The files that exist and parse; a broken one is a warning naming it (nothing of it is used). */
export function readOpencodeConfigs(
  root: string,
  compat: CompatSettings,
  env: NodeJS.ProcessEnv,
  warnings: string[],
): OpencodeConfigFile[] {
  if (!compat.opencode) return [];
  const out: OpencodeConfigFile[] = [];
  for (const { path, scope } of opencodeConfigPaths(root, env)) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(path);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR' && code !== 'EISDIR')
        warnings.push(`${path}: cannot be read (${code})`);
      continue;
    }
    try {
      const data = JSON.parse(jsoncToJson(bytes.toString('utf8').replace(/^\uFEFF/, ''))) as unknown;
      if (!data || typeof data !== 'object' || Array.isArray(data)) throw new Error('the file is not a JSON object');
      out.push({ path, scope, data: data as Record<string, unknown>, digest: sha256(bytes) });
    } catch (e) {
      warnings.push(`${path}: not valid JSON(C) (${(e as Error).message}); nothing of it is used`);
    }
  }
  return out;
}

/** A section as a map of named entries (`command` or opencode 2's `commands`…); anything else is said. */
export function opencodeSection(
  file: OpencodeConfigFile,
  names: readonly string[],
  warnings: string[],
): Array<[string, Record<string, unknown>]> {
  const out: Array<[string, Record<string, unknown>]> = [];
  for (const key of names) {
    const section = file.data[key];
    if (section === undefined) continue;
    if (!section || typeof section !== 'object' || Array.isArray(section)) {
      warnings.push(`${file.path}: "${key}" must be an object of named entries; ignored`);
      continue;
    }
    for (const [name, entry] of Object.entries(section as Record<string, unknown>)) {
      if (entry && typeof entry === 'object' && !Array.isArray(entry))
        out.push([name, entry as Record<string, unknown>]);
      else warnings.push(`${file.path}: ${key}.${name} must be an object; ignored`);
    }
  }
  return out;
}

/**
 * The `mcp` section as mcp.json entries: `{type: "local", command: [cmd, ...args], environment, enabled, timeout}` →
 * `{command, args, env, enabled, startupTimeoutMs}`; `{type: "remote", url, headers, enabled}` → `{url, headers,
 * enabled}` (streamable HTTP, as opencode tries first). `{env:NAME}` in values becomes `${NAME}`; what has no
 * counterpart (`oauth`) is said.
 */
export function opencodeMcpEntries(
  file: OpencodeConfigFile,
  warnings: string[],
): Array<{ name: string; entry: Record<string, unknown> }> {
  const out: Array<{ name: string; entry: Record<string, unknown> }> = [];
  for (const [name, raw] of opencodeSection(file, ['mcp'], warnings)) {
    const e = JSON.parse(opencodeEnvRefs(JSON.stringify(raw))) as Record<string, unknown>;
    const where = `${file.path}: MCP server "${name}"`;
    const common: Record<string, unknown> = {};
    if (typeof e.enabled === 'boolean') common.enabled = e.enabled;
    if (typeof e.timeout === 'number' && e.timeout >= 1) common.startupTimeoutMs = e.timeout;
    for (const k of Object.keys(e).filter(
      (k) => !['type', 'command', 'environment', 'url', 'headers', 'enabled', 'timeout'].includes(k),
    ))
      warnings.push(`${where}: "${k}" is not applied (Jarvis has no counterpart for it)`);
    if (e.type === 'local') {
      const cmd = Array.isArray(e.command) ? e.command : typeof e.command === 'string' ? [e.command] : [];
      if (!cmd.length || !cmd.every((c) => typeof c === 'string')) {
        warnings.push(`${where}: a local server needs "command", a list of strings (program and arguments); skipped`);
        continue;
      }
      out.push({
        name,
        entry: { ...common, command: cmd[0], args: cmd.slice(1), ...(e.environment ? { env: e.environment } : {}) },
      });
    } else if (e.type === 'remote') {
      out.push({ name, entry: { ...common, url: e.url, ...(e.headers ? { headers: e.headers } : {}) } });
    } else warnings.push(`${where}: "type" must be "local" or "remote"; skipped`);
  }
  return out;
}
