// How a tool call looks in an editor: ACP's kind (the icon), a one-line title, the file locations it
// touches (the editor can follow along) and the content of its result (text, or a diff it can review).
import { isAbsolute, relative, resolve } from 'node:path';
import type { ToolCallContent, ToolCallLocation, ToolKind } from '@agentclientprotocol/sdk';
import { MAIN_AGENT_ID } from '../engine/loop/events';
import type { ToolDisplay } from '../tools/defineTool';

const KINDS: Record<string, ToolKind> = {
  Read: 'read',
  ReadMediaFile: 'read',
  Write: 'edit',
  Edit: 'edit',
  Grep: 'search',
  Glob: 'search',
  ToolSearch: 'search',
  Bash: 'execute',
  FetchURL: 'fetch',
  WebSearch: 'fetch',
  TodoList: 'think',
  EnterPlanMode: 'switch_mode',
  ExitPlanMode: 'switch_mode',
};

/**
 * A subagent's calls are shown in the session too, named by the agent (`coder-1: Edit src/a.ts`); their
 * ids carry the agent's id so they cannot clash with the main agent's.
 */
export function editorCallId(agentId: string | undefined, callId: string): string {
  return agentId && agentId !== MAIN_AGENT_ID ? `${agentId}/${callId}` : callId;
}

export function agentTitle(agentId: string | undefined, title: string): string {
  return agentId && agentId !== MAIN_AGENT_ID ? `${agentId}: ${title}` : title;
}

/** The longest command or pattern a title shows before it is cut. */
const TITLE_MAX_CHARS = 120;

export function toolKind(toolName: string): ToolKind {
  return KINDS[toolName] ?? 'other';
}

/** The call's arguments as an object (a call the model garbled has none). */
export function parseToolArgs(raw: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(raw);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function text(args: Record<string, unknown>, key: string): string | undefined {
  const value = args[key];
  return typeof value === 'string' && value.trim() ? value : undefined;
}

function cut(s: string): string {
  const line = s.replace(/\s+/g, ' ').trim();
  return line.length > TITLE_MAX_CHARS ? `${line.slice(0, TITLE_MAX_CHARS - 1)}…` : line;
}

function shown(path: string, cwd: string): string {
  const abs = resolve(cwd, path);
  const rel = relative(cwd, abs);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : abs;
}

/** "Edit src/app.ts", "Bash: npm test", "Grep \"TODO\" in src". */
export function toolTitle(toolName: string, args: Record<string, unknown>, cwd: string): string {
  const path = text(args, 'path') ?? text(args, 'file_path');
  const command = text(args, 'command');
  const pattern = text(args, 'pattern');
  if (toolName === 'Bash' && command) return `Bash: ${cut(command)}`;
  if (toolName === 'Grep' && pattern) return `Grep "${cut(pattern)}"${path ? ` in ${shown(path, cwd)}` : ''}`;
  if (toolName === 'Glob' && pattern) return `Glob ${cut(pattern)}${path ? ` in ${shown(path, cwd)}` : ''}`;
  if (path) return `${toolName} ${shown(path, cwd)}`;
  const target = text(args, 'url') ?? text(args, 'query') ?? text(args, 'description');
  return target ? `${toolName}: ${cut(target)}` : toolName;
}

/** The files a call touches, absolute, for the editor to show or follow. */
export function toolLocations(args: Record<string, unknown>, cwd: string): ToolCallLocation[] {
  const path = text(args, 'path') ?? text(args, 'file_path');
  if (!path) return [];
  const line = typeof args.line_offset === 'number' && args.line_offset > 0 ? args.line_offset : undefined;
  return [{ path: resolve(cwd, path), ...(line ? { line } : {}) }];
}

/** A result as the editor shows it: a diff it can review for Write/Edit, the text otherwise. */
export function resultContent(resultText: string, display: ToolDisplay | undefined): ToolCallContent[] {
  if (display?.kind === 'diff')
    return [{ type: 'diff', path: display.path, oldText: display.before || null, newText: display.after }];
  return resultText ? [{ type: 'content', content: { type: 'text', text: resultText } }] : [];
}
