// Which process a pid names, so that a pid read back from disk (a background task's record) is signalled only when
// it is the very process Jarvis started: a pid is reused once its process is gone, but the pair (pid, start time)
// within one boot is not (docs/sessions.md, "Background tasks on resume"). Read from /proc/<pid>/stat on Linux;
// elsewhere nothing can be confirmed, and an unconfirmed process is never signalled. Also the groups no signal may
// ever go to: 0 and 1 (kill(0) and kill(-1) reach far more than one task), a negative number, and our own.
import { readFileSync } from 'node:fs';

export interface ProcessIdentity {
  /** Start time in clock ticks since boot (/proc/<pid>/stat field 22). */
  start: string;
  /** The boot the start time counts from (/proc/sys/kernel/random/boot_id). */
  boot: string;
}

export interface ProcessState extends ProcessIdentity {
  /** Its process group. */
  pgrp: number;
  /** One-letter state (`R`, `S`, `Z` for a zombie…). */
  state: string;
}

let boot: string | undefined;

function bootId(): string | undefined {
  if (boot !== undefined) return boot;
  try {
    boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return undefined; // not Linux, or /proc is not mounted
  }
  return boot;
}

/** What /proc says about `pid` now; undefined when it does not exist (or cannot be read on this system). */
export function processState(pid: number): ProcessState | undefined {
  if (!Number.isSafeInteger(pid) || pid <= 0) return undefined;
  const bootNow = bootId();
  if (bootNow === undefined) return undefined;
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) may hold spaces and parentheses: fields are counted after its closing one.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const start = fields[19];
  const pgrp = Number(fields[2]);
  if (!start || !/^\d+$/.test(start) || !Number.isSafeInteger(pgrp)) return undefined;
  return { start, boot: bootNow, pgrp, state: fields[0] };
}

/** The identity to record for a process this Jarvis just started (undefined where it cannot be read). */
export function processIdentity(pid: number): ProcessIdentity | undefined {
  const now = processState(pid);
  return now && { start: now.start, boot: now.boot };
}

let ownGroup: number | undefined;

/** This process's own group. */
export function ownProcessGroup(): number | undefined {
  ownGroup ??= processState(process.pid)?.pgrp;
  return ownGroup;
}

/** Why a signal may never go to group `pgid`, or undefined when it may. */
export function unsignallableGroup(pgid: number): string | undefined {
  if (!Number.isSafeInteger(pgid) || pgid <= 1)
    return `${String(pgid)} is not a process group Jarvis signals (kill would reach every process it may signal)`;
  if (pgid === process.pid || pgid === ownProcessGroup()) return `${pgid} is Jarvis's own process group`;
  return undefined;
}
