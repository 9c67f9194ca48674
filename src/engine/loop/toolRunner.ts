// Everything that happens around a tool's `execute`: argument parsing and validation, the file
// guard, execution under the step's abort signal, and the central output cap. Approval is decided
// by the caller between `prepareToolCall` and `executeToolCall`.
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import type { ContentPart, ToolCall } from '../../llm/types';
import {
  missingService,
  type AnyServiceKey,
  type BoundaryFacts,
  type Tool,
  type ToolAccess,
  type ToolContext,
  type ToolDisplay,
  type ToolProgress,
  type ToolResult,
  type ToolServices,
} from '../../tools/defineTool';
import type { FileSnapshot, FileStateGuard } from '../session/fileGuard';
import type { CommandRun, FileChange } from '../session/fileHistory';
import type { FileHistoryRecorder } from '../session/fileHistoryRecorder';
import { saveToolOutput } from '../../store/toolOutputs';

export const MAX_TOOL_OUTPUT_CHARS = 50_000;
/** Shares of the limit a preview keeps from the start and from the end (30 000 + 10 000 of 50 000). */
const PREVIEW_HEAD_SHARE = 0.6;
const PREVIEW_TAIL_SHARE = 0.2;

export interface ToolRunEnv {
  cwd: string;
  services: ToolServices;
  guard: FileStateGuard;
  /** Keeps files' prior bytes before writes and notes command runs (absent: no file history). */
  fileHistory?: FileHistoryRecorder;
  onProgress(callId: string, progress: ToolProgress): void;
  /** The calling agent (`main` when absent): saved outputs are named by it, never by the call id. */
  agentId?: string;
  /** Something beside the result went wrong (an output that could not be saved): the user is told. */
  warn?(text: string): void;
}

/** The tools a call may name: a map, or a registry that also says why a tool went away. */
export type ToolLookup =
  | ReadonlyMap<string, Tool>
  | { get(name: string): Tool | undefined; keys(): Iterable<string>; goneReason?(name: string): string | undefined };

export interface PreparedToolCall {
  call: ToolCall;
  tool?: Tool;
  args?: unknown;
  /** Set when the call cannot run: the model sees this as the tool's error result. */
  error?: string;
  subject: string;
  accesses: ToolAccess[];
  /** Shown with an approval question (ToolDefinition.approvalPreview). */
  preview?: ToolDisplay;
  /** The tool's default approval for these arguments, judged with the call's context (ToolDefinition.approvalFor). */
  defaultApproval?: 'auto' | 'ask';
  /** For a call that starts a program: how it meets the trust boundary (docs/trust-boundary.md). */
  boundary?: BoundaryFacts;
}

export function resolvePath(cwd: string, path: string): string {
  if (path === '~') return homedir();
  if (path.startsWith('~/')) return join(homedir(), path.slice(2));
  return isAbsolute(path) ? resolve(path) : resolve(cwd, path);
}

function contextFor(
  call: ToolCall,
  env: ToolRunEnv,
  signal: AbortSignal,
  approved?: readonly ToolAccess[],
): ToolContext<AnyServiceKey> {
  return {
    cwd: env.cwd,
    signal,
    callId: call.id,
    services: env.services,
    ...(approved ? { approved } : {}),
    resolve: (p) => resolvePath(env.cwd, p),
    emitProgress: (progress) => env.onProgress(call.id, progress),
  };
}

/** Parses and validates a model's tool call. Never throws: problems become `error`. */
export function prepareToolCall(call: ToolCall, tools: ToolLookup, env: ToolRunEnv): PreparedToolCall {
  const tool = tools.get(call.name);
  if (!tool) {
    const names = [...tools.keys()].sort().join(', ');
    const gone = 'goneReason' in tools ? tools.goneReason?.(call.name) : undefined;
    if (gone)
      return {
        call,
        subject: call.name,
        accesses: [],
        error: `The tool "${call.name}" is no longer available: ${gone}. Available tools: ${names}.`,
      };
    return { call, subject: call.name, accesses: [], error: `Unknown tool "${call.name}". Available tools: ${names}.` };
  }
  let raw: unknown;
  const text = call.arguments.trim() === '' ? '{}' : call.arguments;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    return {
      call,
      tool,
      subject: tool.name,
      accesses: [],
      error: `The arguments for ${tool.name} are not valid JSON (${why}). Send a single JSON object matching the tool's schema.`,
    };
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return {
      call,
      tool,
      subject: tool.name,
      accesses: [],
      error: `The arguments for ${tool.name} must be a JSON object, got ${Array.isArray(raw) ? 'an array' : typeof raw}.`,
    };
  }
  const checked = tool.validateArgs(raw);
  if (!checked.ok) return { call, tool, subject: tool.name, accesses: [], error: checked.error };
  // A tool's declared services are lent by the runtime that offers it (docs/architecture.md); one that is not is
  // an assembly mistake, refused here before approval instead of throwing inside the tool.
  const missing = missingService(tool, (name) => env.services.find({ name }) !== undefined);
  if (missing) {
    const error = `${tool.name} cannot run in this session: it needs the "${missing}" service, which this session does not provide.`;
    return { call, tool, subject: tool.name, accesses: [], error };
  }
  const ctx = contextFor(call, env, new AbortController().signal);
  try {
    const subject = tool.subject ? tool.subject(checked.args, ctx) : tool.name;
    const accesses = tool.accesses ? tool.accesses(checked.args, ctx) : [];
    const preview = tool.approvalPreview?.(checked.args, ctx);
    const defaultApproval = tool.approvalFor?.(checked.args, ctx) ?? tool.defaultApproval;
    const facts = tool.boundary?.(checked.args, ctx);
    return {
      call,
      tool,
      args: checked.args,
      subject,
      accesses,
      defaultApproval,
      ...(facts ? { boundary: facts } : {}),
      ...(preview ? { preview } : {}),
    };
  } catch (e) {
    return { call, tool, subject: tool.name, accesses: [], error: e instanceof Error ? e.message : String(e) };
  }
}

export interface ToolRunOutcome {
  result: ToolResult;
  snapshots: FileSnapshot[];
  /** Files the call changed, with their versions before and after (for rewind). */
  changes: FileChange[];
  /** Set when the call ran a command: which known files changed meanwhile. */
  command?: CommandRun;
}

/**
 * Runs a prepared, approved call. Never throws: a tool's exception becomes an error result, and a
 * failure around it (the guard, the file history, saving a long output) is said in the result too.
 */
export async function executeToolCall(
  prepared: PreparedToolCall,
  env: ToolRunEnv,
  signal: AbortSignal,
): Promise<ToolRunOutcome> {
  try {
    return await runPrepared(prepared, env, signal);
  } catch (e) {
    const name = prepared.tool?.name ?? prepared.call.name;
    const why = e instanceof Error ? e.message : String(e);
    const content = `${name} could not be completed: ${why}. Check its effects before retrying.`;
    env.warn?.(content);
    return { result: { content, isError: true }, snapshots: [], changes: [] };
  }
}

async function runPrepared(prepared: PreparedToolCall, env: ToolRunEnv, signal: AbortSignal): Promise<ToolRunOutcome> {
  const notRun = (content: string): ToolRunOutcome => ({
    result: { content, isError: true },
    snapshots: [],
    changes: [],
  });
  if (prepared.error || !prepared.tool) return notRun(prepared.error ?? 'Tool call could not be prepared.');
  const guardError = await env.guard.check(prepared.accesses);
  if (guardError) return notRun(guardError);
  const before = env.fileHistory ? await env.fileHistory.beforeWrite(prepared.accesses) : { pending: [] };
  if ('error' in before) return notRun(before.error);
  let result: ToolResult;
  try {
    result = await prepared.tool.execute(prepared.args, contextFor(prepared.call, env, signal, prepared.accesses));
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    result = {
      content: signal.aborted ? `${prepared.tool.name} was interrupted.` : `${prepared.tool.name} failed: ${why}`,
      isError: true,
    };
  }
  const snapshots = result.isError ? [] : await env.guard.capture(prepared.accesses);
  // A failed or interrupted call may still have changed a file: the history notes whatever it left.
  const history = env.fileHistory;
  const changes = history && before.pending.length ? await history.afterWrite(before.pending, snapshots) : [];
  const ran = history && prepared.accesses.some((a) => a.kind === 'exec');
  const command = ran ? await history.afterCommand(prepared.subject, env.guard.entries()) : undefined;
  const { scratchDir } = env.services;
  const capped = await capToolOutput(result, env.agentId ?? 'main', scratchDir, prepared.tool.maxOutputChars);
  if (capped.unsaved) env.warn?.(`The full output of ${prepared.tool.name} was not saved: ${capped.unsaved}.`);
  return { result: capped.result, snapshots, changes, ...(command ? { command } : {}) };
}

/**
 * The central output cap: long text is saved in the session and the model gets a preview plus the
 * path. Never throws: when the output cannot be saved, the preview says so and `unsaved` says why.
 */
export async function capToolOutput(
  result: ToolResult,
  agentId: string,
  scratchDir: string,
  limit = MAX_TOOL_OUTPUT_CHARS,
): Promise<{ result: ToolResult; unsaved?: string }> {
  const parts: ContentPart[] =
    typeof result.content === 'string' ? [{ type: 'text', text: result.content }] : result.content;
  const total = parts.reduce((n, p) => n + (p.type === 'text' ? p.text.length : 0), 0);
  if (total <= limit) return { result };
  const full = parts.map((p) => (p.type === 'text' ? p.text : '')).join('\n');
  const saved = await saveToolOutput(scratchDir, agentId, full);
  // Head and tail scale with the limit, so they never overlap: together they keep 80 % of it.
  const head = Math.floor(limit * PREVIEW_HEAD_SHARE);
  const tail = Math.floor(limit * PREVIEW_TAIL_SHARE);
  const omitted = full.length - head - tail;
  const where =
    'path' in saved
      ? `The full output is saved at ${saved.path}; ` +
        'read slices of it with Read (line_offset / n_lines) or search it with Grep.'
      : `The full output could not be saved: ${saved.error}. Only this preview exists; ` +
        'rerun the call with narrower output if you need the omitted part.';
  const preview =
    `${full.slice(0, head)}\n\n[… ${omitted} characters omitted: the output was ${full.length} characters, ` +
    `over the ${limit}-character limit. ${where}]\n\n` +
    (tail > 0 ? full.slice(full.length - tail) : '');
  const images = parts.filter((p) => p.type !== 'text');
  const capped = { ...result, content: [{ type: 'text' as const, text: preview }, ...images] };
  return 'path' in saved ? { result: capped } : { result: capped, unsaved: saved.error };
}

/** Two calls may run at the same time unless one writes what the other touches, or either runs a command. */
export function accessesConflict(a: readonly ToolAccess[], b: readonly ToolAccess[]): boolean {
  for (const x of a) {
    for (const y of b) {
      if (x.kind === 'read' && y.kind === 'read') continue;
      // A command's footprint is unknown: it may write anything, so it runs alone.
      if (x.kind === 'exec' || y.kind === 'exec') return true;
      if (x.path === y.path || isInside(x.path, y.path) || isInside(y.path, x.path)) return true;
    }
  }
  return false;
}

function isInside(child: string, parent: string): boolean {
  return child.startsWith(parent.endsWith('/') ? parent : `${parent}/`);
}
