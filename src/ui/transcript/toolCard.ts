// Tool cards: compact one-liners for Read/Grep/Glob, diffs for Write/Edit, live output for Bash
// (and for `!` shell commands), a short result for everything else. Ctrl-O expands them all.
import { truncateToWidth, wrapTextWithAnsi } from '@mariozechner/pi-tui';
import { formatBytes } from '../../store/screenshots';
import type { ToolDisplay } from '../../tools/defineTool';
import { diffLines, diffStats, renderDiff } from '../diffView';
import { Block, clipLines, tailLines, type ViewState } from './block';

const COMPACT_TOOLS = new Set(['Read', 'Grep', 'Glob', 'ReadMediaFile', 'TaskList', 'TaskOutput']);
const LIVE_TAIL = 8;
const COLLAPSED_OUTPUT = 10;
const COLLAPSED_DIFF = 24;
/** Live output kept per card; older output is dropped (the model's copy is kept by the engine). */
const MAX_OUTPUT_CHARS = 200_000;

export type CardStatus = 'running' | 'ok' | 'error' | 'rejected';

export interface ToolResultView {
  text: string;
  isError: boolean;
  summary?: string;
  display?: ToolDisplay;
  /** The language server's new errors (docs/lsp.md): a count on the card, the lines when expanded. */
  diagnostics?: { errors: number; lines?: string[] };
}

/** A short, human label for a call: `Read src/a.ts`, `Bash npm test`. */
export function describeCall(name: string, argsJson: string, cwd: string): string {
  let args: Record<string, unknown> = {};
  try {
    const parsed = JSON.parse(argsJson || '{}') as unknown;
    if (parsed && typeof parsed === 'object') args = parsed as Record<string, unknown>;
  } catch {
    return '';
  }
  const pick = ['command', 'path', 'file_path', 'pattern', 'url', 'query', 'task_id', 'description'].find(
    (k) => typeof args[k] === 'string',
  );
  if (!pick) return '';
  let value = String(args[pick]);
  if (value.startsWith(`${cwd}/`)) value = value.slice(cwd.length + 1);
  return value.split('\n')[0];
}

export class ToolCard extends Block {
  status: CardStatus = 'running';
  private waiting = false;
  private output = '';
  private result: ToolResultView | undefined;

  constructor(
    view: ViewState,
    readonly callId: string,
    readonly name: string,
    private readonly label: string,
  ) {
    super(view);
  }

  /** The call waits for the user's answer in the approval panel (docs/ui.md): it is not running yet. */
  get awaitingApproval(): boolean {
    return this.waiting;
  }
  set awaitingApproval(on: boolean) {
    if (on === this.waiting) return;
    this.waiting = on;
    this.changed();
  }

  appendOutput(text: string): void {
    this.output += text;
    if (this.output.length > MAX_OUTPUT_CHARS) this.output = this.output.slice(-MAX_OUTPUT_CHARS);
    this.changed();
  }

  finish(result: ToolResultView, status?: CardStatus): void {
    this.result = result;
    this.status = status ?? (result.isError ? 'error' : 'ok');
    this.done = true;
    this.changed();
  }

  protected build(width: number): string[] {
    const { theme, expanded } = this.view;
    const { fg } = theme;
    const dot = {
      running: fg.warning(this.waiting ? '?' : '○'),
      ok: fg.success('●'),
      error: fg.error('●'),
      rejected: fg.error('●'),
    }[this.status];
    const head = truncateToWidth(
      `${dot} ${theme.bold(this.name)}${this.label ? fg.textDim(` ${this.label}`) : ''}`,
      width,
    );
    const lines = ['', head];
    const indent = (l: string) => `  ${fg.border('⎿')} ${l}`;
    const pad = (l: string) => `    ${l}`;
    const wrap = (text: string, style: (t: string) => string) =>
      text
        .replace(/\s+$/, '')
        .split('\n')
        .flatMap((l) => wrapTextWithAnsi(style(l), Math.max(1, width - 4)));

    if (this.status === 'running') {
      if (this.output) lines.push(...tailLines(wrap(this.output, fg.textDim), LIVE_TAIL, theme).map(pad));
      else lines.push(indent(fg.textMuted(this.waiting ? 'waiting for your approval' : 'running…')));
      return lines;
    }
    const r = this.result!;
    if (this.status === 'rejected') {
      lines.push(indent(fg.error(r.text.split('\n')[0])));
      return lines;
    }
    // A command that ran and exited non-zero reads as its output and `exit code N` (below), not as the
    // model's text with its <stdout>/<stderr> wrapper; one that never ran shows the error as it is.
    const exited = r.display?.kind === 'command' && r.display.exitCode !== null && this.output.trim() !== '';
    if (r.isError && !exited) {
      const body = wrap(r.text, fg.error);
      lines.push(...clipLines(body, expanded ? body.length : 6, theme).map((l, i) => (i === 0 ? indent(l) : pad(l))));
      return lines;
    }
    if (r.display?.kind === 'diff') {
      const ops = diffLines(r.display.before, r.display.after);
      const { added, removed } = diffStats(ops);
      const count = errorCount(r, fg.error);
      lines.push(
        indent(`${r.summary ?? 'Updated'} ${fg.diffAdded(`+${added}`)} ${fg.diffRemoved(`-${removed}`)}${count}`),
      );
      const diff = renderDiff(ops, theme).map((l) => truncateToWidth(pad(l), width));
      lines.push(...clipLines(diff, expanded ? diff.length : COLLAPSED_DIFF, theme));
      if (expanded) lines.push(...errorLines(r, (t) => wrap(t, fg.error)).map(pad));
      return lines;
    }
    if (this.name === 'Bash' || r.display?.kind === 'command') {
      const out = this.output || r.text;
      const body = out.trim() ? wrap(out, fg.textDim) : [fg.textMuted('(no output)')];
      lines.push(...clipLines(body, expanded ? body.length : COLLAPSED_OUTPUT, theme).map(pad));
      const code = r.display?.kind === 'command' ? r.display.exitCode : undefined;
      if (code !== undefined && code !== null && code !== 0) lines.push(indent(fg.error(`exit code ${code}`)));
      // What the tool said before `Exit code:` (a sandbox boundary it hit, a time-out…) stays on the card.
      const note = exited ? r.text.slice(0, Math.max(0, r.text.indexOf('\nExit code: '))).trim() : '';
      if (note) lines.push(...wrap(note, fg.error).map(pad));
      const count = errorCount(r, fg.error).trimStart();
      if (count) lines.push(indent(count));
      if (expanded) lines.push(...errorLines(r, (t) => wrap(t, fg.error)).map(pad));
      return lines;
    }
    const summary = r.summary ?? firstLine(r.text);
    if (r.display?.kind === 'image') {
      // A screenshot (docs/computer-use.md): what was done, then the image's size and where it is kept.
      const { width, height, bytes, path } = r.display;
      lines.push(
        indent(fg.textDim(summary)),
        pad(fg.textMuted(`image ${width}×${height}, ${formatBytes(bytes)} · ${path}`)),
      );
      return lines;
    }
    if (COMPACT_TOOLS.has(this.name) && !expanded) {
      lines.push(indent(fg.textDim(summary)));
      return lines;
    }
    const body = wrap(r.text, fg.textDim);
    if (expanded) lines.push(indent(fg.textDim(summary)), ...body.map(pad));
    else lines.push(...clipLines(body, 3, theme).map((l, i) => (i === 0 ? indent(l) : pad(l))));
    return lines;
  }
}

/** ` 2 errors` in the error colour when the language server found new ones, else ''. */
function errorCount(r: ToolResultView, style: (t: string) => string): string {
  const n = r.diagnostics?.errors ?? 0;
  return n > 0 ? ` ${style(`${n} error${n === 1 ? '' : 's'}`)}` : '';
}

/** The new errors' lines, for the expanded card (Ctrl-O). */
function errorLines(r: ToolResultView, wrap: (t: string) => string[]): string[] {
  if (!r.diagnostics?.errors || !r.diagnostics.lines?.length) return [];
  return r.diagnostics.lines.flatMap(wrap);
}

function firstLine(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}
