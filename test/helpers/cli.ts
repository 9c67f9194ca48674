// Runs the built binary (bin/jarvis → dist/) as a child process, the way a user would.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const BIN = resolve(__dirname, '../../bin/jarvis');
export const DIST = resolve(__dirname, '../../dist/jarvis.js');

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliDirs {
  home: string;
  cwd: string;
}

export function makeCliDirs(): CliDirs {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'jarvis-cli-')));
  const dirs = { home: join(root, 'home'), cwd: join(root, 'work') };
  mkdirSync(dirs.home, { recursive: true });
  mkdirSync(dirs.cwd, { recursive: true });
  return dirs;
}

/** Environment with nothing of the caller's model settings, plus what the test gives. */
export function cliEnv(dirs: CliDirs, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('JARVIS_')) env[k] = v;
  // Automatic memory extraction makes a model request after every turn; tests about it turn it back on.
  return {
    ...env,
    JARVIS_CODE_HOME: dirs.home,
    HOME: dirs.home,
    NO_COLOR: '1',
    JARVIS_MEMORY_EXTRACTION_ENABLED: 'false',
    ...extra,
  };
}

export function mockModelEnv(baseUrl: string, type = 'openai'): Record<string, string> {
  return {
    JARVIS_MODEL_NAME: 'mock-model',
    JARVIS_MODEL_API_KEY: 'test-key',
    JARVIS_MODEL_PROVIDER_TYPE: type,
    JARVIS_MODEL_BASE_URL: baseUrl,
  };
}

/** The account a test runs jarvis as (test/helpers/testUser.ts); absent: the test's own. */
export interface RunAs {
  uid: number;
  gid: number;
}

/** `keepStdinOpen`: the test talks to the process over stdin (jarvis acp) and ends it itself. */
export function spawnJarvis(
  args: string[],
  opts: { env: NodeJS.ProcessEnv; cwd: string; input?: string; keepStdinOpen?: boolean; as?: RunAs },
): ChildProcess {
  if (!existsSync(DIST))
    throw new Error('dist/jarvis.js is missing: the build failed (see the start of the test output)');
  // Node drops the supplementary groups when it changes the user, so the child holds none of root's.
  const child = spawn(process.execPath, [BIN, ...args], {
    env: opts.env,
    cwd: opts.cwd,
    stdio: ['pipe', 'pipe', 'pipe'],
    ...(opts.as ? { uid: opts.as.uid, gid: opts.as.gid } : {}),
  });
  if (opts.input !== undefined) child.stdin!.end(opts.input);
  else if (!opts.keepStdinOpen) child.stdin!.end();
  return child;
}

export function collect(child: ChildProcess, timeoutMs = 20_000): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`jarvis did not exit within ${timeoutMs} ms\nstdout:\n${stdout}\nstderr:\n${stderr}`));
    }, timeoutMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolvePromise({ code, signal, stdout, stderr });
    });
  });
}

export function runJarvis(
  args: string[],
  opts: { env: NodeJS.ProcessEnv; cwd: string; input?: string; timeoutMs?: number; as?: RunAs },
): Promise<CliResult> {
  return collect(spawnJarvis(args, opts), opts.timeoutMs);
}

export async function waitUntil(check: () => boolean, timeoutMs = 10_000, what = 'condition'): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The newest session folder under a CLI test's home. */
export function latestSessionDir(home: string): string {
  const root = join(home, 'sessions');
  const [key] = readdirSync(root);
  const sessions = readdirSync(join(root, key)).sort();
  return join(root, key, sessions[sessions.length - 1]);
}

/** The main journal of the newest session, one parsed record per line. */
export function latestJournal(home: string): Array<Record<string, unknown>> {
  const file = join(latestSessionDir(home), 'agents', 'main', 'wire.jsonl');
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}
