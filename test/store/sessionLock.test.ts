// The session lock between processes (docs/sessions.md "One process per session"): a stale lock is
// taken over by exactly one of the processes racing for it, and files it writes are private.
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { buildSync } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { acquireSessionLock, SESSION_LOCK_FILE, SessionLockedError } from '../../src/store/sessionLock';

const ROUNDS = 100;

/** A pid that certainly belonged to a process which has ended. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '0']);
  return child.pid!;
}

function staleLock(dir: string, pid: number): void {
  mkdirSync(dir, { recursive: true });
  const owner = { pid, startedAt: '2020-01-01T00:00:00.000Z', host: hostname() };
  writeFileSync(join(dir, SESSION_LOCK_FILE), JSON.stringify(owner));
}

interface RacerReport {
  pid: number;
  rounds: Array<{ won: boolean; owner?: number; error?: string }>;
  /** Rounds won whose lock file still named this process when it finished. */
  stillMine: number[];
}

describe('session lock', () => {
  it('two processes taking over the same stale lock: exactly one holds it, 100 times out of 100', async () => {
    const root = mkdtempSync(join(tmpdir(), 'lock-race-'));
    const dead = deadPid();
    for (let r = 0; r < ROUNDS; r++) staleLock(join(root, `r${r}`), dead);
    const script = join(root, 'racer.mjs');
    buildSync({
      stdin: {
        contents: `import { existsSync, readFileSync, writeFileSync } from 'node:fs';
          import { join } from 'node:path';
          import { acquireSessionLock } from ${JSON.stringify(resolve('src/store/sessionLock.ts'))};
          const [root, me, other, rounds] = process.argv.slice(2);
          const report = { pid: process.pid, rounds: [], stillMine: [] };
          const tick = new Int32Array(new SharedArrayBuffer(4));
          for (let r = 0; r < Number(rounds); r++) {
            // Both racers start each round together: each waits (bounded) for the other's ready file.
            writeFileSync(join(root, 'ready-' + r + '-' + me), '');
            const theirs = join(root, 'ready-' + r + '-' + other);
            for (let i = 0; i < 20000 && !existsSync(theirs); i++) Atomics.wait(tick, 0, 0, 1);
            try {
              acquireSessionLock(join(root, 'r' + r));
              report.rounds.push({ won: true });
            } catch (e) {
              report.rounds.push({ won: false, owner: e.owner?.pid, error: e.message });
            }
          }
          report.rounds.forEach((x, r) => {
            const lock = JSON.parse(readFileSync(join(root, 'r' + r, 'session.lock'), 'utf8'));
            if (x.won && lock.pid === process.pid) report.stillMine.push(r);
          });
          process.stdout.write(JSON.stringify(report));`,
        resolveDir: process.cwd(),
        loader: 'ts',
      },
      bundle: true,
      platform: 'node',
      format: 'esm',
      outfile: script,
      logLevel: 'silent',
    });
    const run = promisify(execFile);
    const racers = [
      run(process.execPath, [script, root, 'a', 'b', String(ROUNDS)]),
      run(process.execPath, [script, root, 'b', 'a', String(ROUNDS)]),
    ];
    const reports = (await Promise.all(racers)).map((r) => JSON.parse(r.stdout) as RacerReport);
    for (let r = 0; r < ROUNDS; r++) {
      const outcomes = reports.map((rep) => rep.rounds[r]);
      expect(
        outcomes.filter((o) => o.won),
        `round ${r}: ${JSON.stringify(outcomes)}`,
      ).toHaveLength(1);
      const loser = outcomes.find((o) => !o.won)!;
      const winner = reports[outcomes.findIndex((o) => o.won)];
      expect(loser.owner).toBe(winner.pid);
      expect(loser.error).toContain(`in use by another jarvis process (pid ${winner.pid}`);
    }
    // Each winner still held its lock at the end: nobody replaced a lock it had taken.
    const won = reports.map((rep) => rep.rounds.flatMap((o, r) => (o.won ? [r] : [])));
    expect(reports.map((rep) => rep.stillMine)).toEqual(won);
    // No takeover claim or draft is left behind.
    for (let r = 0; r < ROUNDS; r++) expect(readdirSync(join(root, `r${r}`))).toEqual([]);
  }, 120_000);

  it('a stale lock is taken over in process; a live owner is named; the lock file is 0600', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lock-'));
    staleLock(dir, deadPid());
    const lock = acquireSessionLock(dir);
    const path = join(dir, SESSION_LOCK_FILE);
    expect(JSON.parse(readFileSync(path, 'utf8')).pid).toBe(process.pid);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    lock.release();
    expect(existsSync(path)).toBe(false);

    // A lock held by a live process (this test's parent) is respected and named.
    writeFileSync(path, JSON.stringify({ pid: process.ppid, startedAt: 'then', host: hostname() }));
    let caught: unknown;
    try {
      acquireSessionLock(dir);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(SessionLockedError);
    expect((caught as SessionLockedError).owner.pid).toBe(process.ppid);
    expect(readdirSync(dir)).toEqual([SESSION_LOCK_FILE]);
  });

  it('a claim left by a process that died mid-takeover does not block the lock for ever', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lock-'));
    staleLock(dir, deadPid());
    const path = join(dir, SESSION_LOCK_FILE);
    // A claim that names an older file (the inode number of a lock long gone) is cleared at once.
    writeFileSync(`${path}.takeover.${statSync(path).ino}`, 'x');
    const lock = acquireSessionLock(dir);
    expect(JSON.parse(readFileSync(path, 'utf8')).pid).toBe(process.pid);
    lock.release();
    expect(readdirSync(dir)).toEqual([]);
  });
});
