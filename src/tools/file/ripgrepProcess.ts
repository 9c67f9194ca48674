// Runs ripgrep as a child process (no shell) and hands its output to the caller record by record,
// so a search can stop as soon as it has enough, on timeout, or when the step is aborted.
import { spawn } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';

export interface RipgrepRun {
  rgPath: string;
  args: string[];
  cwd: string;
  /** What rg starts from: the session's environment (tools/sessionEnv.ts); default process.env. */
  env?: NodeJS.ProcessEnv;
  signal: AbortSignal;
  timeoutMs: number;
  /** Output records are separated by this character (`\n` for JSON lines, `\0` for `--null` lists). */
  separator: '\n' | '\0';
  /** Stop reading after this many bytes of output. */
  maxOutputBytes: number;
  /** Receives each record; returning false stops the search. */
  onRecord(record: string): boolean;
}

export interface RipgrepOutcome {
  exitCode: number | null;
  stderr: string;
  timedOut: boolean;
  /** The caller had enough and stopped the search. */
  stoppedEarly: boolean;
  /** Output went past maxOutputBytes. */
  outputCapped: boolean;
}

const MAX_STDERR_CHARS = 4000;

export function runRipgrep(run: RipgrepRun): Promise<RipgrepOutcome> {
  return new Promise((resolve, reject) => {
    run.signal.throwIfAborted();
    const child = spawn(run.rgPath, run.args, {
      cwd: run.cwd,
      env: run.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      shell: false,
    });
    const outcome: RipgrepOutcome = {
      exitCode: null,
      stderr: '',
      timedOut: false,
      stoppedEarly: false,
      outputCapped: false,
    };
    const decoder = new StringDecoder('utf8');
    let pending = '';
    let bytes = 0;
    let stopped = false;
    let aborted = false;

    const stop = (): void => {
      if (stopped) return;
      stopped = true;
      child.stdout.removeAllListeners('data');
      child.stdout.resume();
      child.kill('SIGKILL');
    };
    const onAbort = (): void => {
      aborted = true;
      stop();
    };
    run.signal.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(() => {
      outcome.timedOut = true;
      stop();
    }, run.timeoutMs);

    const deliver = (text: string): void => {
      pending += text;
      let at = pending.indexOf(run.separator);
      while (at !== -1 && !stopped) {
        const record = pending.slice(0, at);
        pending = pending.slice(at + 1);
        if (record.length > 0 && !run.onRecord(record)) {
          outcome.stoppedEarly = true;
          stop();
        }
        at = pending.indexOf(run.separator);
      }
    };

    child.stdout.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      deliver(decoder.write(chunk));
      if (bytes > run.maxOutputBytes && !stopped) {
        outcome.outputCapped = true;
        stop();
      }
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (outcome.stderr.length < MAX_STDERR_CHARS) outcome.stderr += chunk.toString('utf8');
    });
    child.on('error', (e) => {
      clearTimeout(timer);
      run.signal.removeEventListener('abort', onAbort);
      reject(new Error(`could not run ripgrep at ${run.rgPath}: ${e.message}`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      run.signal.removeEventListener('abort', onAbort);
      if (aborted) {
        reject(run.signal.reason instanceof Error ? run.signal.reason : new Error('Grep was aborted'));
        return;
      }
      if (!stopped) {
        const rest = pending + decoder.end();
        if (rest.length > 0) deliver(rest + run.separator);
      }
      outcome.exitCode = code;
      outcome.stderr = outcome.stderr.slice(0, MAX_STDERR_CHARS).trim();
      resolve(outcome);
    });
  });
}
