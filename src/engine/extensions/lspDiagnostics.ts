// The language server's check after a tool (docs/lsp.md "Diagnostics after edits" and "Diagnostics after Bash"): one
// after-tool extension of the loop, not code inside each tool. A call that wrote files (Write, Edit: its write
// accesses) gets the errors its change introduced appended to its result; a foreground Bash command gets those of the
// source files it changed, when a server already runs. When a file could not be checked (no server installed, one
// that cannot run, an untrusted checkout, a server still loading past its bound) the result says so and why: silence
// means checked, never "not looked at".
import { readFile, stat } from 'node:fs/promises';
import type { EditCheck, LspManager } from '../../platform/lsp/lspManager';
import type { LspDiagnostic } from '../../platform/lsp/lspTypes';
import type { ToolResult } from '../../tools/defineTool';
import { boundedLines, formatDiagnostic, shownPath } from '../../tools/lsp/diagnosticLines';
import type { GateContext, ToolCallFacts, ToolCallOutcome, TurnExtension } from '../loop/turnExtension';
import { changedFiles, snapshotBeforeBash, type BashSnapshot } from './commandChanges';

/** A written file larger than this is not sent to a server (the same bound as the check after Bash). */
const MAX_CHECKED_FILE_BYTES = 1024 * 1024;

function withText(result: ToolResult, extra: string): ToolResult {
  if (typeof result.content === 'string') return { ...result, content: `${result.content}${extra}` };
  const parts = [...result.content];
  const last = parts.findLastIndex((p) => p.type === 'text');
  if (last < 0) return { ...result, content: [...parts, { type: 'text', text: extra.trimStart() }] };
  const part = parts[last] as { type: 'text'; text: string };
  parts[last] = { ...part, text: `${part.text}${extra}` };
  return { ...result, content: parts };
}

const notChecked = (check: EditCheck & { kind: 'unchecked' }) =>
  `(Not checked by a language server${check.yet ? ' yet' : ''}: ${check.why})`;

/** What a successful call wrote: each written file with its text before (when the call said) and after. */
async function writtenFiles(call: ToolCallFacts, result: ToolResult) {
  const diff = result.display?.kind === 'diff' ? result.display : undefined;
  const files: Array<{ path: string; before?: string; after: string }> = [];
  for (const access of call.accesses) {
    if (access.kind !== 'write' || !('path' in access) || typeof access.path !== 'string') continue;
    if (diff && diff.path === access.path) {
      files.push({ path: access.path, before: diff.before, after: diff.after });
      continue;
    }
    // A file the call created: no text before; its text now is what the server checks.
    try {
      const s = await stat(access.path);
      if (!s.isFile() || s.size > MAX_CHECKED_FILE_BYTES) continue;
      files.push({ path: access.path, after: await readFile(access.path, 'utf8') });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
  }
  return files;
}

/** The errors found in `checked` files as the lines a result lists, with the count of all of them. */
function errorLines(checked: Array<{ path: string; errors: LspDiagnostic[] }>, lsp: LspManager, cwd: string) {
  const all = checked.flatMap((f) => f.errors.map((d) => `- ${formatDiagnostic(d, shownPath(f.path, cwd))}`));
  return { count: all.length, lines: boundedLines(all, lsp.settings.maxDiagnostics, lsp.settings.maxDiagnosticBytes) };
}

async function afterWrite(
  lsp: LspManager,
  call: ToolCallFacts,
  result: ToolResult,
  ctx: GateContext,
): Promise<ToolResult | undefined> {
  const files = await writtenFiles(call, result);
  if (files.length === 0) return undefined;
  const checks = await Promise.all(
    files.map(async (f) => ({ path: f.path, check: await lsp.checkEdit(f.path, f.before, f.after, ctx.signal) })),
  );
  const checked = checks.flatMap((c) => (c.check.kind === 'checked' ? [{ path: c.path, errors: c.check.errors }] : []));
  const unchecked = checks.flatMap((c) => (c.check.kind === 'unchecked' ? [notChecked(c.check)] : []));
  if (checked.length === 0 && unchecked.length === 0) return undefined;
  const { count, lines } = errorLines(checked, lsp, ctx.cwd);
  let text = '';
  if (count > 0) {
    const head = `This change introduced ${count} new error${count === 1 ? '' : 's'} (language server):`;
    text += `\n\n${head}\n${lines.join('\n')}`;
  }
  if (unchecked.length) text += `\n\n${unchecked.join('\n')}`;
  const counted = checked.length ? { diagnostics: { errors: count, ...(count ? { lines } : {}) } } : {};
  return { ...withText(result, text), ...counted };
}

async function afterCommand(
  lsp: LspManager,
  snap: BashSnapshot,
  result: ToolResult,
  ctx: GateContext,
): Promise<ToolResult | undefined> {
  const skipped = (why: string) =>
    withText(result, `\n\n(The language-server check of changed files was skipped: ${why})`);
  if (snap.problem && !snap.git && snap.files.size === 0) return skipped(snap.problem);
  let changed;
  try {
    changed = await changedFiles(lsp, snap);
  } catch (e) {
    return skipped((e as Error).message);
  }
  const note = snap.problem ? `\n\n(The language-server check of changed files was partial: ${snap.problem})` : '';
  const checks = await Promise.all(
    changed.map(async (c) => ({ path: c.path, check: await lsp.checkEdit(c.path, c.before, c.after, ctx.signal) })),
  );
  const checked = checks.flatMap((c) => (c.check.kind === 'checked' ? [{ path: c.path, errors: c.check.errors }] : []));
  const unchecked = checks.flatMap((c) =>
    c.check.kind === 'unchecked' ? [`- ${shownPath(c.path, ctx.cwd)}: ${notChecked(c.check)}`] : [],
  );
  const { count, lines } = errorLines(checked, lsp, ctx.cwd);
  let text = '';
  if (count > 0) {
    const files = checked.filter((f) => f.errors.length > 0).length;
    text +=
      `\n\nThis command introduced ${count} new error${count === 1 ? '' : 's'}` +
      `${files > 1 ? ` in ${files} files` : ''} (language server):\n${lines.join('\n')}`;
  }
  if (unchecked.length) text += `\n\nChanged files not checked:\n${unchecked.join('\n')}`;
  text += note;
  if (!text && !checked.length) return undefined;
  const counted = checked.length ? { diagnostics: { errors: count, ...(count ? { lines } : {}) } } : {};
  return { ...withText(result, text), ...counted };
}

/** The extension, for the session's language servers (runtime.ts adds it to every agent); git runs with `env`. */
export function lspDiagnosticsExtension(lsp: LspManager, env?: Readonly<NodeJS.ProcessEnv>): TurnExtension {
  const snapshots = new Map<string, BashSnapshot | undefined>();
  const isForegroundBash = (call: ToolCallFacts) =>
    call.toolName === 'Bash' && !(call.args as { run_in_background?: boolean } | undefined)?.run_in_background;
  return {
    async beforeToolRun(call, ctx) {
      // Awaited: the command must not start before its "before" is taken.
      if (isForegroundBash(call)) snapshots.set(call.callId, await snapshotBeforeBash(lsp, ctx.cwd, env));
    },
    async afterToolCall(call: ToolCallFacts, outcome: ToolCallOutcome, ctx: GateContext) {
      const wasBash = snapshots.has(call.callId);
      const snap = snapshots.get(call.callId);
      snapshots.delete(call.callId);
      const { result } = outcome;
      if (ctx.signal.aborted || !lsp.settings.enabled) return undefined;
      const checked = async (): Promise<ToolResult | undefined> => {
        if (wasBash) return snap ? await afterCommand(lsp, snap, result, ctx) : undefined;
        if (result.isError || !call.accesses.some((a) => a.kind === 'write')) return undefined;
        return await afterWrite(lsp, call, result, ctx);
      };
      try {
        const replaced = await checked();
        return replaced ? { result: replaced } : undefined;
      } catch (e) {
        // The call itself succeeded; the model hears that its check could not be made, and why.
        const why = `\n\n(Not checked by a language server: the check failed: ${(e as Error).message})`;
        return { result: withText(result, why) };
      }
    },
  };
}
