// A tmux driver for end-to-end tests of the terminal UI: one private tmux server per session
// (`tmux -L <unique socket>`), a fixed window size, keys in, screen text out, and polling waits.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';

export interface TmuxOptions {
  command: string[];
  cwd: string;
  env?: Record<string, string>;
  width?: number;
  height?: number;
  /** Server options (`set-option -s`) set before the program starts, e.g. `extended-keys on`: set after, the
   * program's own terminal requests made at start-up may already have been ignored. */
  serverOptions?: Record<string, string>;
  /** Appends every byte the program writes, from its very start, to this file (see `recordOutput`). */
  recordTo?: string;
}

function sh(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

export class TmuxSession {
  readonly socket = `jarvis-test-${process.pid}-${randomBytes(4).toString('hex')}`;
  private closed = false;

  constructor(private readonly opts: TmuxOptions) {
    const width = String(opts.width ?? 120);
    const height = String(opts.height ?? 40);
    const env = Object.entries(opts.env ?? {})
      .map(([k, v]) => `${k}=${sh(v)}`)
      .join(' ');
    // `remain-on-exit` keeps the pane (and its last screen) after the program ends, so a test can read it.
    const script = `env ${env} ${opts.command.map(sh).join(' ')}; echo "[exit $?]"; sleep 600`;
    // Commands in one tmux invocation run in order in the new server, so these options hold before the program runs.
    const serverOptions = Object.entries(opts.serverOptions ?? {}).flatMap(([k, v]) => ['set-option', '-s', k, v, ';']);
    this.tmux(
      '-f',
      '/dev/null',
      ...serverOptions,
      'new-session',
      '-d',
      '-s',
      'main',
      '-x',
      width,
      '-y',
      height,
      '-c',
      opts.cwd,
      'bash',
      '--norc',
      '--noprofile',
      '-c',
      script,
      // In the same invocation, so the recording starts before the program has written anything.
      ...(opts.recordTo ? [';', 'pipe-pane', '-o', '-t', 'main', `cat >> ${sh(opts.recordTo)}`] : []),
    );
    this.tmux('set-option', '-g', 'history-limit', '50000');
  }

  private tmux(...args: string[]): string {
    return execFileSync('tmux', ['-L', this.socket, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  }

  /** Sends tmux key names (`Enter`, `C-c`, `Escape`, `Up`…). */
  keys(...keys: string[]): void {
    this.tmux('send-keys', '-t', 'main', ...keys);
  }

  /** Types literal text (no key-name interpretation). */
  type(text: string): void {
    this.tmux('send-keys', '-t', 'main', '-l', text);
  }

  /** Pastes text as a bracketed paste. */
  paste(text: string): void {
    this.tmux('set-buffer', '-b', 'p', text);
    this.tmux('paste-buffer', '-p', '-b', 'p', '-t', 'main');
  }

  /** The visible screen as plain text. */
  screen(): string {
    return this.tmux('capture-pane', '-p', '-t', 'main');
  }

  /** The visible screen with its colours and attributes as SGR sequences (`capture-pane -e`). */
  styledScreen(): string {
    return this.tmux('capture-pane', '-p', '-e', '-t', 'main');
  }

  /** A tmux format about the pane, e.g. `#{alternate_on}` (1 while the program uses the alternate screen). */
  display(format: string): string {
    return this.tmux('display-message', '-p', '-t', 'main', format).trim();
  }

  /** Resizes the window (the program gets SIGWINCH, as when a user resizes the terminal). */
  resize(width: number, height: number): void {
    this.tmux('resize-window', '-t', 'main', '-x', String(width), '-y', String(height));
  }

  /** Appends every byte the program writes from now on to `file` (for checks on the raw output). */
  recordOutput(file: string): void {
    this.tmux('pipe-pane', '-o', '-t', 'main', `cat >> ${sh(file)}`);
  }

  /** The visible screen plus scrollback. */
  all(): string {
    return this.tmux('capture-pane', '-p', '-S', '-', '-t', 'main');
  }

  async waitFor(match: string | RegExp, opts: { timeoutMs?: number; scrollback?: boolean } = {}): Promise<string> {
    const deadline = Date.now() + (opts.timeoutMs ?? 15_000);
    let text = '';
    while (Date.now() < deadline) {
      text = opts.scrollback ? this.all() : this.screen();
      if (typeof match === 'string' ? text.includes(match) : match.test(text)) return text;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`timed out waiting for ${String(match)}; the screen was:\n${text}`);
  }

  async waitForGone(match: string | RegExp, timeoutMs = 15_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    let text = '';
    while (Date.now() < deadline) {
      text = this.screen();
      if (!(typeof match === 'string' ? text.includes(match) : match.test(text))) return text;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`timed out waiting for ${String(match)} to disappear; the screen was:\n${text}`);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      this.tmux('kill-server');
    } catch {
      // already gone
    }
  }
}
