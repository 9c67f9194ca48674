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
import { recordSigner, type RecordSigner } from '../../store/recordKey';
import { sessionScratchDir } from '../../store/paths';
import { mkdirPrivateSync } from '../../store/privateFiles';
import { FileStateGuard } from './fileGuard';
import { existsSync } from 'node:fs';
import {
  authenticate,
  isAuthentic,
  isPermissionRecord,
  unauthenticatedWarning,
  type PermissionRecord,
} from './recordAuth';
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
  /** Authenticates permission records (recordAuth.ts); undefined when the data root's key cannot be used. */
  private readonly signer: RecordSigner | undefined;
  private restoredMode = false;

  private constructor(
    readonly location: SessionLocation,
    /** Whose journal this is: `main`, or a subagent's id. */
    readonly agentId: string = MAIN_AGENT_ID,
    signer?: RecordSigner,
  ) {
    this.journal = new JournalWriter<JournalRecord>(journalPathOf(location.sessionDir, agentId), location.sessionDir);
    if (agentId === MAIN_AGENT_ID) noteActiveSessionDir(location.sessionDir);
    this.signer = signer ?? this.signerOf(location);
  }

  private signerOf(location: SessionLocation): RecordSigner | undefined {
    if (!location.home) return undefined;
    const key = recordSigner(location.home);
    if ('signer' in key) return key.signer;
    this.warnings.push(
      `${key.error}: the permission mode and the approvals of this session will not be restored when it is resumed.`,
    );
    return undefined;
  }

  get id(): string {
    return this.location.sessionId;
  }
  get dir(): string {
    return this.location.sessionDir;
  }
  /** The session's scratch folder (store/paths.ts): what commands and the file tools may write. */
  get scratchDir(): string {
    return sessionScratchDir(this.location.sessionDir);
  }
  get journalPath(): string {
    return this.journal.path;
  }
  /** Whether an authenticated mode record of the journal set the mode (else the mode the session is started with applies). */
  get modeRestored(): boolean {
    return this.restoredMode;
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
    mkdirPrivateSync(session.scratchDir);
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
    return Session.replayed(new Session(location, agentId));
  }

  /** Replays the journal; permission records are applied only when authentic (recordAuth.ts). */
  private static replayed(session: Session): Session {
    const path = session.journalPath;
    const { records, warnings } = readJournal(path, session.dir, isJournalRecord);
    session.warnings.push(...warnings);
    const skipped: PermissionRecord[] = [];
    for (const r of records) {
      if (isPermissionRecord(r)) {
        if (!isAuthentic(r, session.signer, session.state.sessionId, session.agentId)) {
          skipped.push(r);
          continue;
        }
        if (r.type === 'mode') session.restoredMode = true;
      }
      session.applyOnly(r);
    }
    const warning = unauthenticatedWarning(path, skipped);
    if (warning) session.warnings.push(warning);
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
      return { session: Session.replayed(new Session(parent.location, agent.id, parent.signer)), resumed: true };
    const session = new Session(parent.location, agent.id, parent.signer);
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
    const signed =
      this.signer && isPermissionRecord(body)
        ? authenticate(body, this.signer, this.state.sessionId, this.agentId)
        : body;
    const record = { v: RECORD_VERSION, ts: Date.now(), ...signed } as JournalRecord;
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
