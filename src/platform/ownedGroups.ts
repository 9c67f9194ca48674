// The process groups this process started and must not leave behind (docs/print-mode.md, "Ctrl-C"): MCP servers,
// language servers, background commands, the command a tool is running. Their owners stop them gracefully on the
// normal paths; this registry is the floor under every other way out. Whatever is still owned is sent SIGKILL
// synchronously when the process exits (`process.exit` after a second Ctrl-C, the last-resort handler), and when
// a SIGHUP or SIGTERM arrives — or a SIGINT that no front end handles at that moment — before that signal's
// default action ends the process, which runs no 'exit' handler.
import type { ChildProcess } from 'node:child_process';

/**
 * How long a group stays owned. `command`: until its leader exits (what a finished command left running in the
 * background of its shell is not stopped later, as in a terminal). `service`: until its owner stops it or sees
 * it end (`disownGroup`), or its leader exits and nothing of the group is left.
 */
export type GroupOwnership = 'command' | 'service';

const owned = new Map<number, GroupOwnership>();
const ENDING_SIGNALS = ['SIGHUP', 'SIGTERM'] as const;
let hooksInstalled = false;

/** SIGKILLs every owned group (synchronous: safe in an 'exit' handler and right before `process.exit`). */
export function killOwnedGroupsNow(): void {
  for (const pgid of owned.keys()) {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      // already gone (ESRCH), or a member belongs to someone else (EPERM): nothing more can be done
    }
  }
  owned.clear();
}

/** A SIGHUP or SIGTERM: the groups go first, then the signal's default action unless a front end handles it. */
function onEndingSignal(signal: NodeJS.Signals): void {
  killOwnedGroupsNow();
  reRaiseIfAlone(signal, onEndingSignal);
}

/**
 * A SIGINT reaches this handler in every case, but acts only when no front end listens for it at that moment
 * (between two front-end handlers, in a subcommand that never installs one): then the groups go and the
 * default action follows. With a front end listening, the first Ctrl-C is the front end's to handle gently.
 */
function onInterrupt(): void {
  if (process.listenerCount('SIGINT') > 1) return;
  killOwnedGroupsNow();
  reRaiseIfAlone('SIGINT', onInterrupt);
}

function reRaiseIfAlone(signal: NodeJS.Signals, self: (signal: NodeJS.Signals) => void): void {
  if (process.listenerCount(signal) > 1) return;
  process.off(signal, self);
  process.kill(process.pid, signal);
}

function installHooks(): void {
  if (hooksInstalled) return;
  hooksInstalled = true;
  process.on('exit', killOwnedGroupsNow);
  for (const s of ENDING_SIGNALS) process.on(s, onEndingSignal);
  process.on('SIGINT', onInterrupt);
}

/** Owns the group led by `pgid` (the same group may be owned again to change how long). */
export function ownGroup(pgid: number, how: GroupOwnership): void {
  installHooks();
  owned.set(pgid, how);
}

/** The owner stopped the group or saw it end: nothing to kill at exit. */
export function disownGroup(pgid: number): void {
  owned.delete(pgid);
}

/** How long `pgid` is owned, or undefined (tests, and owners that upgrade a command to a service). */
export function groupOwnership(pgid: number): GroupOwnership | undefined {
  return owned.get(pgid);
}

/**
 * Owns the group `child` leads from its start; when the leader exits, a `command` group is let go, and a
 * `service` group is let go once `isAlive` says nothing of it is left.
 */
export function ownChildGroup(child: ChildProcess, how: GroupOwnership, isAlive: (pgid: number) => Promise<boolean>) {
  const pid = child.pid;
  if (pid === undefined) return;
  ownGroup(pid, how);
  child.once('exit', () => {
    if (owned.get(pid) === 'command') {
      owned.delete(pid);
      return;
    }
    void isAlive(pid).then((alive) => {
      if (!alive) owned.delete(pid);
    });
  });
}
