// Runs the built binary (bin/jarvis → dist/) as a child process, the way a user would.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
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

/**
 * Two model aliases in the home's config.toml, as a user writes them: a comment, `default_model` (the JARVIS_MODEL_*
 * variables of mockModelEnv still win), a provider with its key, `fast`, and `deep` with a display name, a smaller
 * input window and thinking. Both talk to `baseUrl` (the mock server), as `fast-model-v1` and `deep-model-v2`.
 */
export function writeTwoModelConfig(home: string, baseUrl: string): void {
  writeFileSync(
    join(home, 'config.toml'),
    [
      '# models on the team gateway',
      'default_model = "fast"',
      '',
      '[providers.gateway]',
      'type = "openai"',
      `base_url = "${baseUrl}"`,
      'api_key = "sk-gateway-test"',
      '',
      '[models.fast]',
      'provider = "gateway"',
      'model = "fast-model-v1"',
      'max_context_size = 128000',
      '',
      '[models.deep]',
      'provider    = "gateway"',
      'model       = "deep-model-v2"',
      'display_name = "Deep thinker"',
      'max_context_size = 200_000',
      'max_input_size = 180_000',
      'capabilities = ["thinking", "tool_use"]',
      '',
    ].join('\n'),
  );
}

/** Starts a program in place of another (as another user: test/helpers/sandboxUsers.ts asUser). */
export type Launcher = (file: string, args: string[]) => { file: string; args: string[] };

/**
 * `keepStdinOpen`: the test talks to the process over stdin (jarvis acp) and ends it itself. `launcher`: how the
 * Node running the binary is started (by default, directly).
 */
export function spawnJarvis(
  args: string[],
  opts: { env: NodeJS.ProcessEnv; cwd: string; input?: string; keepStdinOpen?: boolean; launcher?: Launcher },
): ChildProcess {
  if (!existsSync(DIST))
    throw new Error('dist/jarvis.js is missing: the build failed (see the start of the test output)');
  const launch = (opts.launcher ?? ((file, rest) => ({ file, args: rest })))(process.execPath, [BIN, ...args]);
  const child = spawn(launch.file, launch.args, {
    env: opts.env,
    cwd: opts.cwd,
    stdio: ['pipe', 'pipe', 'pipe'],
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
  opts: { env: NodeJS.ProcessEnv; cwd: string; input?: string; timeoutMs?: number; launcher?: Launcher },
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
