// Running a prepared sandbox spawn (tools/boundary/commandBoundary.ts) from a test. Asynchronously it is exactly what
// Bash does (platform/processes.ts spawnShell: the seccomp filter through a pipe, the network bridge's channel). spawnSync
// cannot write to a pipe while the child runs, so the synchronous form hands bwrap the same filter bytes as a file
// at the same descriptor; it has no bridge channel, so allowlist plans need the asynchronous one.
import {
  spawnSync,
  type SpawnSyncOptionsWithStringEncoding,
  type SpawnSyncReturns,
  type StdioOptions,
} from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnShell, type SandboxSpawn } from '../../src/platform/processes';
import { SECCOMP_FD } from '../../src/platform/sandbox/sandboxChannels';

export interface SandboxRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** stdout then stderr. */
  out: string;
}

/** Runs `spawn` through spawnShell (stdin closed) and waits for it to end; killed after `timeoutMs`. */
export async function runSandboxSpawn(
  spawn: SandboxSpawn,
  opts: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<SandboxRun> {
  const child = spawnShell('', { cwd: opts.cwd, ...(opts.env ? { env: opts.env } : {}), sandbox: spawn });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const killer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 60_000);
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (c, s) => resolve([c, s]));
  });
  clearTimeout(killer);
  return { code, signal, stdout, stderr, out: stdout + stderr };
}

/** spawnSync of `spawn` with `options` (their env as given), the filter handed as a file at SECCOMP_FD. */
export function spawnSandboxSync(
  spawn: SandboxSpawn,
  options: SpawnSyncOptionsWithStringEncoding,
): SpawnSyncReturns<string> {
  if (spawn.proxySocket) throw new Error('an allowlist plan needs runSandboxSpawn (its bridge talks to this process)');
  if (!spawn.seccomp) return spawnSync(spawn.file, spawn.args, options);
  const dir = mkdtempSync(join(tmpdir(), 'sbx-filter-'));
  const file = join(dir, 'filter.bpf');
  writeFileSync(file, spawn.seccomp);
  const fd = openSync(file, 'r');
  try {
    const stdio: StdioOptions = ['ignore', 'pipe', 'pipe', ...Array<'ignore'>(SECCOMP_FD - 3).fill('ignore'), fd];
    return spawnSync(spawn.file, spawn.args, { ...options, stdio });
  } finally {
    closeSync(fd);
    rmSync(dir, { recursive: true, force: true });
  }
}
