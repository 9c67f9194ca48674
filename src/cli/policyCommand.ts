// `jarvis policy test '<Tool(subject)>' [--mode manual|yolo|auto|plan] [--add-dir <dir>] [--json]`: what the approval
// chain would decide for a call, which rule (file and line) or policy decides it, and for Bash the
// simple commands the line runs. For users checking their rules, and for scripts: the exit status is
// 0 allow, 3 ask, 4 deny (docs/approvals.md).
import { homedir } from 'node:os';
import { isAbsolute, resolve } from 'node:path';
import { decideApproval, shellAnalysisFor, type PolicyDecision } from '../engine/policy/approvals';
import { parseSubject } from '../engine/policy/permissionRules';
import { planModeRefusal } from '../engine/policy/planMode';
import type { PermissionMode } from '../engine/session/records';
import { workspaceOf } from '../engine/policy/workspace';
import { ConfigError, loadConfig } from '../store/config';
import { jarvisHome } from '../store/paths';
import type { Tool, ToolAccess } from '../tools/defineTool';
import { isSensitivePath } from '../tools/file';
import { canonicalPath } from '../tools/file/pathPolicy';
import { builtinTools } from '../tools/registry';
import { UsageError } from './program';
import { sandboxNote, sandboxRows, type SandboxNote } from './policySandbox';
import { sandboxSettingsFromConfig } from '../engine/runtime/startup/sandboxStartup';
import { permissionRulesOf } from '../engine/runtime/startup/startup';

export type PolicyTestMode = PermissionMode | 'plan';

export interface PolicyTestOptions {
  mode?: PolicyTestMode;
  json?: boolean;
  /** Folders added with --add-dir: inside the workspace like cwd. */
  addDir?: string[];
}

export interface PolicyIo {
  cwd: string;
  env: NodeJS.ProcessEnv;
  out(text: string): void;
  err(text: string): void;
}

const EXIT_CODE: Record<PolicyDecision['decision'], number> = { allow: 0, ask: 3, deny: 4 };
const READ_PATH_TOOLS = new Set(['Read', 'Grep', 'Glob', 'ReadMediaFile']);
const WRITE_PATH_TOOLS = new Set(['Write', 'Edit']);

/** The path as the file tools would report it: absolute and canonical (engine/policy/workspace.ts compares those). */
function absolute(path: string, cwd: string): string {
  if (path === '~' || path.startsWith('~/')) return canonicalPath(homedir() + path.slice(1));
  return canonicalPath(isAbsolute(path) ? path : resolve(cwd, path));
}

/** Without a tool's arguments: a tool that is not read-only (or unknown, like an MCP tool) is taken to run something. */
function effectOf(tool: string, builtin: Tool | undefined, cwd: string): ToolAccess[] {
  return tool === 'Bash' || !builtin?.readOnly ? [{ kind: 'exec', cwd }] : [];
}

/** The call as the tools present it to the rules: paths made absolute, and what it touches. */
function callOf(
  text: string,
  cwd: string,
): { toolName: string; subject: string; accesses: ToolAccess[]; defaultApproval: 'auto' | 'ask' } {
  const { tool, arg } = parseSubject(text.trim());
  if (!/^[A-Za-z][\w-]*$/.test(tool))
    throw new UsageError(
      `"${text}" is not a tool call. Write it as a rule sees it: 'Bash(git push)', 'Read(src/a.ts)', 'WebSearch'.`,
    );
  const builtin = builtinTools().find((t) => t.name === tool);
  if (!builtin && !tool.startsWith('mcp__')) {
    const names = builtinTools()
      .map((t) => t.name)
      .join(', ');
    throw new UsageError(
      `there is no tool named "${tool}". Built-in tools: ${names}; MCP tools are named mcp__<server>__<tool>.`,
    );
  }
  const defaultApproval = builtin?.defaultApproval ?? 'ask';
  if (arg === undefined)
    return { toolName: tool, subject: tool, accesses: effectOf(tool, builtin, cwd), defaultApproval };
  if (READ_PATH_TOOLS.has(tool) || WRITE_PATH_TOOLS.has(tool)) {
    const path = absolute(arg, cwd);
    const access: ToolAccess = WRITE_PATH_TOOLS.has(tool) ? { kind: 'write', path } : { kind: 'read', path };
    return { toolName: tool, subject: `${tool}(${path})`, accesses: [access], defaultApproval };
  }
  return { toolName: tool, subject: `${tool}(${arg})`, accesses: effectOf(tool, builtin, cwd), defaultApproval };
}

/** Plan mode's constraints come before the permission chain; there is no plan file here (engine/policy/planMode.ts). */
function planRefusal(toolName: string, accesses: readonly ToolAccess[]): PolicyDecision | undefined {
  const reason = planModeRefusal(toolName, accesses, undefined);
  return reason === undefined ? undefined : { decision: 'deny', by: 'plan mode', reason };
}

function report(subject: string, mode: PolicyTestMode, d: PolicyDecision, sandbox: SandboxNote | undefined): string {
  const rows: Array<[string, string]> = [
    ['call', subject],
    ['mode', mode],
    ['decision', d.decision],
    ['by', d.by],
  ];
  if (d.reason) rows.push(['why', d.reason]);
  // The line as bash reads it (continuations joined), shown when it differs from the call as written.
  (d.normalised?.split('\n') ?? []).forEach((l, i) => rows.push([i === 0 ? 'reads as' : '', l]));
  (d.commands ?? []).forEach((c, i) => rows.push([i === 0 ? 'commands' : '', c]));
  if (sandbox) rows.push(...sandboxRows(sandbox));
  return rows.map(([k, v]) => `${k.padEnd(9)} ${v}`.trimEnd()).join('\n');
}

export async function runPolicyTestCommand(call: string, opts: PolicyTestOptions, io: PolicyIo): Promise<number> {
  let loaded;
  try {
    loaded = loadConfig(jarvisHome(io.env));
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    io.err(
      `jarvis: invalid configuration\n${e.message}\nFix the file (run \`jarvis doctor\` to check it); it was not changed.\n`,
    );
    return 1;
  }
  const mode = opts.mode ?? loaded.config.default_permission_mode;
  const c = callOf(call, io.cwd);
  const shell = await shellAnalysisFor(c.toolName, c.subject);
  const workspaceDirs = [io.cwd, ...(opts.addDir ?? []).map((d) => resolve(io.cwd, d))];
  const input = {
    ...c,
    mode: mode === 'plan' ? ('manual' as const) : mode,
    rules: permissionRulesOf(loaded),
    sessionApprovals: [],
    cwd: io.cwd,
    workspace: workspaceOf({ cwd: io.cwd, additionalDirs: workspaceDirs.slice(1) }),
    isSensitivePath,
    shell,
  };
  const chain = decideApproval(input);
  const refusal = mode === 'plan' ? planRefusal(c.toolName, c.accesses) : undefined;
  const decision = refusal ? { ...refusal, commands: chain.commands, normalised: chain.normalised } : chain;
  // A Bash command that would run is confined by the sandbox, not by the rules alone: say how (docs/approvals.md).
  const sandbox =
    c.toolName === 'Bash' && decision.decision !== 'deny'
      ? await sandboxNote(sandboxSettingsFromConfig(loaded.config, io.env), workspaceDirs, () =>
          decideApproval({ ...input, boundary: { confinement: 'unsandboxed', escalation: true } }),
        )
      : undefined;
  io.out(
    `${opts.json ? JSON.stringify({ call: c.subject, mode, ...decision, ...(sandbox ? { sandbox } : {}) }) : report(c.subject, mode, decision, sandbox)}\n`,
  );
  return EXIT_CODE[decision.decision];
}
