// A session: its folder, its journal and the state rebuilt from it. Every change goes through
// `commit`, which appends the record and applies it with the same reducer that resume replays.
// Each agent of a session has its own journal, `agents/<agentId>/wire.jsonl` in the session folder:
// the main agent's is the session's own; a subagent's is opened with `Session.forAgent`, and replaying
// it rebuilds that agent's state alone.
import { JournalWriteError, JournalWriter, readJournal } from '../../store/journal';
import { noteActiveSessionDir } from '../../store/crashLog';
import {
  createSessionDir,
  findLatestSession,
  findSessionById,
  journalPathOf,
  writeSessionSummary,
  type SessionLocation,
} from '../../store/sessionStore';
import type { Message } from '../../llm/types';
import { FileStateGuard } from './fileGuard';
import { existsSync } from 'node:fs';
import { MAIN_AGENT_ID } from '../loop/events';
import {
  applyRecord,
  emptyState,
  isJournalRecord,
  RECORD_VERSION,
  type AgentIdentity,
  type JournalRecord,
  type PermissionMode,
  type RecordBody,
  type SessionState,
} from './records';

/** A journal write failed; the turn in progress ends with this message. */
export class SessionNotSavedError extends Error {
  constructor(cause: JournalWriteError) {
    super(
      `${cause.message} The conversation is kept in memory, but this session is no longer saved; fix the disk or the folder and start a new session.`,
      { cause },
    );
    this.name = 'SessionNotSavedError';
  }
}

export class Session {
  readonly state: SessionState = emptyState();
  readonly guard = new FileStateGuard();
  private readonly journal: JournalWriter<JournalRecord>;
  readonly warnings: string[] = [];
  /** Set once a journal write failed: from then on the session lives in memory only. */
  persistError: JournalWriteError | undefined;
  private unreported: SessionNotSavedError | undefined;

  private constructor(
    readonly location: SessionLocation,
    /** Whose journal this is: `main`, or a subagent's id. */
    readonly agentId: string = MAIN_AGENT_ID,
  ) {
    this.journal = new JournalWriter<JournalRecord>(journalPathOf(location.sessionDir, agentId));
    if (agentId === MAIN_AGENT_ID) noteActiveSessionDir(location.sessionDir);
  }

  get id(): string {
    return this.location.sessionId;
  }
  get dir(): string {
    return this.location.sessionDir;
  }
  get journalPath(): string {
    return this.journal.path;
  }

  static create(opts: {
    home: string;
    workDir: string;
    modelAlias: string;
    /** The provider's id of the model (`sessions` lists it for the JARVIS_MODEL_* model). */
    modelId?: string;
    mode: PermissionMode;
    sessionId?: string;
  }): Session {
    const session = new Session(createSessionDir(opts.home, opts.workDir, opts.sessionId));
    session.commit({
      type: 'session_meta',
      sessionId: session.id,
      workDir: opts.workDir,
      modelAlias: opts.modelAlias,
      ...(opts.modelId ? { modelId: opts.modelId } : {}),
      createdAt: new Date().toISOString(),
    });
    session.commit({ type: 'mode', mode: opts.mode });
    session.saveSummary();
    return session;
  }

  /** Rebuilds a session by replaying its journal, then closes anything a crash left open. */
  static open(location: SessionLocation, agentId: string = MAIN_AGENT_ID): Session {
    const session = new Session(location, agentId);
    const { records, warnings } = readJournal(journalPathOf(location.sessionDir, agentId), isJournalRecord);
    session.warnings.push(...warnings);
    for (const r of records) session.applyOnly(r);
    session.repairAfterCrash();
    return session;
  }

  /**
   * A subagent's journal in the same session folder: replayed when it exists (resuming that agent),
   * else started with its identity, the mode it starts in and its system prompt.
   */
  static forAgent(
    parent: Session,
    agent: AgentIdentity & { modelAlias: string; mode: PermissionMode; systemPrompt: string },
  ): { session: Session; resumed: boolean } {
    if (existsSync(journalPathOf(parent.dir, agent.id)))
      return { session: Session.open(parent.location, agent.id), resumed: true };
    const session = new Session(parent.location, agent.id);
    const identity: AgentIdentity = { id: agent.id, parent: agent.parent, ...(agent.name ? { name: agent.name } : {}) };
    session.commit({
      type: 'session_meta',
      sessionId: parent.id,
      workDir: parent.state.workDir,
      modelAlias: agent.modelAlias,
      createdAt: new Date().toISOString(),
      agent: identity,
    });
    session.commit({ type: 'mode', mode: agent.mode });
    session.commit({ type: 'system_prompt', text: agent.systemPrompt });
    return { session, resumed: false };
  }

  static findLatest(home: string, workDir: string): SessionLocation | undefined {
    return findLatestSession(home, workDir);
  }

  static findById(home: string, id: string, workDir: string): SessionLocation | undefined {
    return findSessionById(home, id, workDir);
  }

  /**
   * Applies the record, then appends it. Never throws for a failed write: the state is kept, the
   * failure waits in `takeSaveFailure` for the running turn to end with it, and later records stay in
   * memory only (a journal with a hole in it would replay into a different conversation).
   */
  commit(body: RecordBody): void {
    const record = { v: RECORD_VERSION, ts: Date.now(), ...body } as JournalRecord;
    this.applyOnly(record);
    if (this.persistError) return;
    try {
      this.journal.append(record);
    } catch (e) {
      if (!(e instanceof JournalWriteError)) throw e;
      this.persistError = e;
      this.unreported = new SessionNotSavedError(e);
    }
  }

  /** The journal failure nobody has reported yet (given out once). */
  takeSaveFailure(): SessionNotSavedError | undefined {
    const failure = this.unreported;
    this.unreported = undefined;
    return failure;
  }

  private applyOnly(record: RecordBody): void {
    applyRecord(this.state, record);
    if (record.type === 'file_snapshot') this.guard.apply(record.snapshot);
  }

  /**
   * Writes the session's state.json; only the main agent's journal speaks for the session. A failure
   * there is not worth failing anything for: the journal is the record.
   */
  saveSummary(): void {
    if (this.agentId !== MAIN_AGENT_ID || this.persistError) return;
    try {
      this.writeSummary();
    } catch {
      // the next save writes the index entry again
    }
  }

  private writeSummary(): void {
    writeSessionSummary(this.dir, {
      sessionId: this.id,
      workDir: this.state.workDir,
      title: this.state.title,
      lastPrompt: this.state.lastPrompt,
      createdAt: this.state.createdAt,
      updatedAt: new Date().toISOString(),
      forkedFrom: this.state.forkedFrom,
    });
  }

  /**
   * A process killed mid-turn can leave tool calls without results and a turn without an end.
   * Providers reject such histories, so close them with explicit records (replay stays pure).
   */
  private repairAfterCrash(): void {
    const answered = new Set<string>();
    for (const m of this.state.messages) if (m.role === 'tool') answered.add(m.toolCallId);
    const last = [...this.state.messages].reverse().find((m) => m.role === 'assistant');
    const missing = last && last.role === 'assistant' ? (last.toolCalls ?? []).filter((c) => !answered.has(c.id)) : [];
    for (const call of missing) {
      const message: Message = {
        role: 'tool',
        toolCallId: call.id,
        toolName: call.name,
        content: [
          {
            type: 'text',
            text: `${call.name} did not finish: the session stopped before its result was recorded. Check its effects before retrying.`,
          },
        ],
        isError: true,
      };
      this.commit({ type: 'message', message });
    }
    if (this.state.openTurn) {
      this.commit({
        type: 'turn_end',
        turnId: this.state.openTurn.turnId,
        reason: 'interrupted',
        error: 'the process stopped during this turn',
      });
      this.warnings.push(
        'The previous run stopped in the middle of a turn; the conversation was restored up to the last recorded step.',
      );
    }
  }
}
