// A virtual X11 desktop for the computer-use tests: Xvfb on a display number it picks itself (-displayfd, so tests
// running at once never share one), optionally the openbox window manager (GTK dialogs need one), and applications
// started on it. Everything waits for a condition — the display number, the window manager's check window, a
// window with a title — never for a fixed time.
import { spawn, type ChildProcess } from 'node:child_process';
import { Atoms, getCardinals } from '../../src/platform/x11/x11Requests';
import { X11Connection } from '../../src/platform/x11/x11Connection';
import { listWindows, type DesktopWindow } from '../../src/platform/x11/x11Windows';
import { hasCommand } from './requireAll';

export interface VirtualDisplay {
  /** `:N` */
  display: string;
  /** What an X client needs to reach it. */
  env: Record<string, string>;
  /** Starts a program on the display; it is stopped by close(). */
  launch(command: string, args?: string[], opts?: { cwd?: string; env?: NodeJS.ProcessEnv }): ChildProcess;
  /** Waits until a window whose title matches is listed (by the window manager when there is one). */
  waitForWindow(title: RegExp, timeoutMs?: number): Promise<DesktopWindow>;
  windows(): Promise<DesktopWindow[]>;
  close(): Promise<void>;
}

/** Whether this machine can run the desktop tests (Xvfb and openbox). */
export function hasVirtualDesktop(): boolean {
  return hasCommand('Xvfb') && hasCommand('openbox');
}

async function until<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function startVirtualDisplay(
  /** `auth`: an Xauthority file; the server then admits only clients that show its cookie. */
  opts: { width?: number; height?: number; windowManager?: boolean; auth?: string } = {},
): Promise<VirtualDisplay> {
  const size = `${opts.width ?? 1600}x${opts.height ?? 1000}x24`;
  const auth = opts.auth ? ['-auth', opts.auth] : [];
  const server = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', size, '-nolisten', 'tcp', '-noreset', ...auth], {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
  });
  let log = '';
  server.stderr!.on('data', (d) => (log += d));
  const number = await new Promise<string>((resolve, reject) => {
    let got = '';
    (server.stdio[3] as NodeJS.ReadableStream).on('data', (d) => {
      got += d;
      if (got.includes('\n')) resolve(got.trim());
    });
    server.on('exit', (code) => reject(new Error(`Xvfb exited (${code}) before it had a display: ${log}`)));
  });
  const display = `:${number}`;
  const env: Record<string, string> = { DISPLAY: display, ...(opts.auth ? { XAUTHORITY: opts.auth } : {}) };
  const children: ChildProcess[] = [];
  const connection = await X11Connection.open({ HOME: '/nonexistent', ...env });
  const atoms = new Atoms(connection);
  const launch = (command: string, args: string[] = [], o: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) => {
    const child = spawn(command, args, {
      cwd: o.cwd,
      env: { ...process.env, ...o.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    return child;
  };
  if (opts.windowManager ?? true) {
    launch('openbox', ['--sm-disable']);
    await until('openbox to manage the display', 15_000, async () => {
      const [check] = await getCardinals(
        connection,
        connection.screen.root,
        await atoms.get('_NET_SUPPORTING_WM_CHECK'),
      );
      return check || undefined;
    });
  }
  const windows = () => listWindows(connection, atoms);
  return {
    display,
    env,
    launch,
    windows,
    waitForWindow: (title, timeoutMs = 20_000) =>
      until(`a window titled ${title}`, timeoutMs, async () => (await windows()).find((w) => title.test(w.title))),
    async close() {
      connection.close();
      for (const child of children.reverse()) child.kill('SIGKILL');
      server.kill('SIGTERM');
      await new Promise((r) => (server.exitCode !== null ? r(undefined) : server.once('exit', r)));
    },
  };
}
