// The external status-line command (tui.toml `[status_line] command`, docs/ui.md "Status line"): a
// shell command that gets a JSON snapshot of the session on stdin and whose first stdout line replaces
// the footer's first line. It never holds up the UI: it runs in the background, is killed (with its
// whole process group) after STATUS_LINE_TIMEOUT_MS, starts at most once per STATUS_LINE_INTERVAL_MS
// and only when the snapshot changed; the last good line stays on screen until a new run ends. A run
// that fails or is too slow puts the built-in line back and reports the failure once (not each run).
import type { ChildProcess } from 'node:child_process';
import { signalGroup, spawnShell } from '../platform/processes';

export const STATUS_LINE_TIMEOUT_MS = 300;
export const STATUS_LINE_INTERVAL_MS = 1000;
/** More output than this is not read: only the first line is shown. */
const MAX_OUTPUT_BYTES = 8192;

export interface StatusLineCommandOptions {
  command: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** A new line (or the built-in line again): the footer should be drawn. */
  onChange(): void;
  /** A run failed for a reason not reported since the last success. */
  onError(message: string): void;
  timeoutMs?: number;
  intervalMs?: number;
}

export class StatusLineCommand {
  /** The line to show; undefined = the built-in line (no run finished yet, or the last one failed). */
  line: string | undefined;
  private lastSnapshot: string | undefined;
  private pending: string | undefined;
  private running: ChildProcess | undefined;
  private lastStart = -Infinity;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private reportedError: string | undefined;
  private disposed = false;
  /** Runs started (tests check the throttle with it). */
  runs = 0;

  constructor(private readonly opts: StatusLineCommandOptions) {}

  /** The session's state now; a run starts (later, if the throttle says so) when it differs from the last one. */
  update(snapshot: object): void {
    if (this.disposed) return;
    const json = JSON.stringify(snapshot);
    if (json === this.lastSnapshot || json === this.pending) return;
    this.pending = json;
    this.schedule();
  }

  private schedule(): void {
    if (this.running || this.timer || this.pending === undefined || this.disposed) return;
    const wait = this.lastStart + (this.opts.intervalMs ?? STATUS_LINE_INTERVAL_MS) - Date.now();
    if (wait > 0) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.schedule();
      }, wait);
      this.timer.unref();
      return;
    }
    const json = this.pending;
    this.pending = undefined;
    this.lastSnapshot = json;
    this.start(json);
  }

  private start(json: string): void {
    this.lastStart = Date.now();
    this.runs++;
    let child: ChildProcess;
    try {
      child = spawnShell(this.opts.command, { cwd: this.opts.cwd, env: this.opts.env, stdin: 'pipe', output: 'pipe' });
    } catch (e) {
      this.finish(undefined, `could not start: ${(e as Error).message}`);
      return;
    }
    this.running = child;
    let out = '';
    let err = '';
    let settled = false;
    const settle = (line: string | undefined, error?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      if (child.pid) signalGroup(child.pid, 'SIGKILL');
      this.running = undefined;
      this.finish(line, error);
    };
    const limit = this.opts.timeoutMs ?? STATUS_LINE_TIMEOUT_MS;
    // The check waits one turn of the event loop: when the UI itself was busy past the limit, an
    // answer that arrived in time is still waiting to be read and must win.
    const deadline = setTimeout(
      () => setImmediate(() => settle(undefined, `took longer than ${limit} ms and was stopped`)),
      limit,
    );
    deadline.unref();
    child.stdout?.on('data', (d: Buffer) => {
      if (out.length < MAX_OUTPUT_BYTES) out += d.toString('utf8');
    });
    child.stderr?.on('data', (d: Buffer) => {
      if (err.length < MAX_OUTPUT_BYTES) err += d.toString('utf8');
    });
    child.on('error', (e) => settle(undefined, `could not start: ${e.message}`));
    child.on('close', (code, signal) => {
      if (code === 0) return settle(firstLine(out));
      const why = code !== null ? `exited with code ${code}` : `was killed by ${signal}`;
      const detail = err.trim().split('\n')[0];
      settle(undefined, detail ? `${why}: ${detail.slice(0, 200)}` : why);
    });
    // A command that does not read its input must not fail on a closed pipe.
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(json);
  }

  private finish(line: string | undefined, error?: string): void {
    if (this.disposed) return;
    const before = this.line;
    this.line = error ? undefined : line;
    if (error) {
      if (error !== this.reportedError)
        this.opts.onError(`The status-line command ${error}; showing the built-in status line.`);
      this.reportedError = error;
    } else this.reportedError = undefined;
    if (this.line !== before) this.opts.onChange();
    this.schedule();
  }

  /** Stops a running command and any pending run (/reload-tui, exit). */
  dispose(): void {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.running?.pid) signalGroup(this.running.pid, 'SIGKILL');
    this.running = undefined;
  }
}

/**
 * The first non-empty line, with colours kept but every other escape sequence and control character
 * removed: a status line must not move the cursor or change terminal modes.
 */
export function firstLine(output: string): string | undefined {
  for (const raw of output.split('\n')) {
    const line = raw
      .replace(/\r$/, '')
      .replace(
        /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-Z\\-_]?|[\x00-\x08\x0b-\x1f\x7f]/g,
        (m) => (/^\x1b\[[0-9;]*m$/.test(m) ? m : ''),
      )
      .replace(/\t/g, ' ');
    if (line.replace(/\x1b\[[0-9;]*m/g, '').trim()) return line;
  }
  return undefined;
}
