// Tower mode's state on disk (docs/tower.md "Files"): everything under `<repo>/.tower/comms/`, so a
// killed coordinator leaves a state that TowerStatus can read and TowerTeardown can clean. The state
// file is replaced atomically (write a temporary file, then rename) under a file lock between
// processes; messages, findings and the activity log are append-only JSON lines.
import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { withFileLock } from '../../store/fileLock';

export type MissionKind = 'build' | 'research';
export type MissionStatus = 'planned' | 'running' | 'done' | 'failed' | 'merged';

export interface MissionTask {
  text: string;
  done: boolean;
}

export interface MissionEntry {
  at: string;
  by: string;
  text: string;
}

export interface Mission {
  id: string;
  title: string;
  kind: MissionKind;
  /** Globs relative to the repository root (picomatch); every file a build mission changes must match one. */
  scope: string[];
  tasks: MissionTask[];
  dependsOn: string[];
  notes: MissionEntry[];
  blockers: MissionEntry[];
  status: MissionStatus;
  branch: string;
  /** The worker's worktree while it exists. */
  worktree?: string;
  /** The commit of the base branch the mission's branch started from. */
  baseCommit?: string;
  mergedCommit?: string;
}

export type AgentRole = 'worker' | 'reviewer';
export type RosterStatus = 'queued' | 'running' | 'finished' | 'failed' | 'stopped' | 'lost';

export interface RosterEntry {
  agentId: string;
  role: AgentRole;
  mission: string;
  status: RosterStatus;
  worktree: string;
  /** The background task that runs it (its output file holds the final answer). */
  taskId?: string;
  /** The process that ran it: an entry still `running` under a dead process is reported as lost. */
  pid: number;
  startedAt: string;
  endedAt?: string;
  error?: string;
}

export type Verdict = 'approve' | 'request_changes';

export interface Review {
  id: string;
  mission: string;
  reviewer: string;
  /** The branch tip the reviewer was given (its worktree is checked out there). */
  tip: string;
  verdict?: Verdict;
  summary?: string;
  at?: string;
}

export interface TowerState {
  version: 1;
  repoRoot: string;
  baseBranch: string;
  baseCommit: string;
  objective?: string;
  active: boolean;
  createdAt: string;
  /** The coordinating process; another process may not take over while it lives. */
  coordinatorPid: number;
  missions: Mission[];
  roster: RosterEntry[];
  reviews: Review[];
  /** How many messages each reader has seen (TowerStatus counts the rest as unread). */
  readCounts: Record<string, number>;
}

export interface TowerMessage {
  id: number;
  at: string;
  from: string;
  to: string;
  text: string;
}

export type FindingKind = 'bug' | 'improve' | 'vuln' | 'idea';

export interface TowerFindingRecord {
  id: number;
  at: string;
  by: string;
  kind: FindingKind;
  title: string;
  detail: string;
  path?: string;
  mission?: string;
}

export interface ActivityRecord {
  at: string;
  who: string;
  text: string;
}

export const TOWER_DIR = '.tower';
export const COMMS_DIR = 'comms';
export const WORKTREES_DIR = 'worktrees';

/** A state file that cannot be read: the message says which file and what to do. */
export class TowerStateError extends Error {}

export class TowerStore {
  readonly towerDir: string;
  readonly commsDir: string;
  readonly worktreesDir: string;
  readonly statePath: string;

  constructor(readonly repoRoot: string) {
    this.towerDir = join(repoRoot, TOWER_DIR);
    this.commsDir = join(this.towerDir, COMMS_DIR);
    this.worktreesDir = join(this.towerDir, WORKTREES_DIR);
    this.statePath = join(this.commsDir, 'state.json');
  }

  exists(): boolean {
    return existsSync(this.statePath);
  }

  read(): TowerState | undefined {
    if (!this.exists()) return undefined;
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(this.statePath, 'utf8'));
    } catch (e) {
      throw new TowerStateError(
        `${this.statePath} cannot be read (${(e as Error).message}). It is written only by the Tower tools; restore it from the last good copy or run TowerTeardown with force to clean up.`,
      );
    }
    const state = parsed as Partial<TowerState>;
    if (
      state.version !== 1 ||
      !Array.isArray(state.missions) ||
      !Array.isArray(state.roster) ||
      !Array.isArray(state.reviews)
    ) {
      throw new TowerStateError(
        `${this.statePath} is not a Tower state this version understands. Run TowerTeardown with force to clean up, then TowerInit.`,
      );
    }
    return { readCounts: {}, ...state } as TowerState;
  }

  /** Writes a new state atomically (a reader never sees half a file). */
  write(state: TowerState): void {
    mkdirSync(this.commsDir, { recursive: true });
    const tmp = `${this.statePath}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(state, null, 2) + '\n');
    renameSync(tmp, this.statePath);
  }

  /** Read, change and write the state under the file lock; `change` returns the value to hand back. */
  async update<T>(change: (state: TowerState) => T): Promise<T> {
    return withFileLock(this.statePath, () => {
      const state = this.read();
      if (!state) throw new TowerStateError('Tower is not initialised in this repository: call TowerInit first.');
      const result = change(state);
      this.write(state);
      return result;
    });
  }

  private appendLine(file: string, record: object): void {
    mkdirSync(this.commsDir, { recursive: true });
    appendFileSync(join(this.commsDir, file), JSON.stringify(record) + '\n');
  }

  private readLines<T>(file: string): T[] {
    const path = join(this.commsDir, file);
    if (!existsSync(path)) return [];
    const out: T[] = [];
    // A line cut short by a crash is skipped; the lines before and after it are kept.
    for (const line of readFileSync(path, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      try {
        out.push(JSON.parse(line) as T);
      } catch {
        continue;
      }
    }
    return out;
  }

  messages(): TowerMessage[] {
    return this.readLines<TowerMessage>('messages.jsonl');
  }

  addMessage(m: Omit<TowerMessage, 'id' | 'at'>): Promise<TowerMessage> {
    return this.appendNumbered('messages.jsonl', m);
  }

  findings(): TowerFindingRecord[] {
    return this.readLines<TowerFindingRecord>('findings.jsonl');
  }

  addFinding(f: Omit<TowerFindingRecord, 'id' | 'at'>): Promise<TowerFindingRecord> {
    return this.appendNumbered('findings.jsonl', f);
  }

  /** Appends a record numbered after the file's last one (under the file's lock: two writers never share a number). */
  private appendNumbered<T extends object>(file: string, body: T): Promise<T & { id: number; at: string }> {
    return withFileLock(join(this.commsDir, file), () => {
      const record = { id: this.readLines(file).length + 1, at: new Date().toISOString(), ...body };
      this.appendLine(file, record);
      return record;
    });
  }

  activity(): ActivityRecord[] {
    return this.readLines<ActivityRecord>('activity.jsonl');
  }

  log(who: string, text: string): void {
    this.appendLine('activity.jsonl', { at: new Date().toISOString(), who, text });
  }
}
