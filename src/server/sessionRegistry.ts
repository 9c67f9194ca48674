// The sessions a server knows (docs/server.md "Sessions"): every session on disk whose folder lies inside one of
// the server's workspace roots, opened on first use and then held (its lock too) until archived or the server
// stops. Sessions are ordinary sessions: `jarvis --continue` in the same folder resumes one once the server has
// let it go. Archiving is the server's own list (server-archive.json under JARVIS_CODE_HOME); the session stays.
import { existsSync, readFileSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { forkSession, ForkError } from '../engine/session/fork';
import { StartupError } from '../engine/runtime/startup/startup';
import { readSessionSummary, journalPathOf, type SessionLocation } from '../store/sessionStore';
import { sessionIndexPath } from '../store/paths';
import { SessionLockedError } from '../store/sessionLock';
import { ApiError, Codes } from './envelope';
import { ServerSession } from './serverSession';

export interface RegistryOptions {
  home: string;
  env: NodeJS.ProcessEnv;
  roots: string[];
  epoch: string;
  approvalExpiryMs: number;
  warn(text: string): void;
  /** Events about the set of sessions (created, archived), for every client. */
  broadcast(type: string, payload: unknown): void;
}

export interface SessionRow {
  session_id: string;
  cwd: string;
  title: string | null;
  last_prompt: string | null;
  created_at: string | null;
  updated_at: string;
  forked_from: string | null;
  archived: boolean;
  open: boolean;
  busy: boolean;
}

export class SessionRegistry {
  private readonly open = new Map<string, Promise<ServerSession>>();
  private readonly archivePath: string;

  constructor(private readonly opts: RegistryOptions) {
    this.archivePath = join(opts.home, 'server-archive.json');
  }

  /** The real folder if it lies inside a workspace root (symlinks resolved first), else 40410. */
  workspaceFolder(cwd: string): string {
    let real: string;
    try {
      real = realpathSync(cwd);
      if (!statSync(real).isDirectory()) throw new Error('not a folder');
    } catch {
      throw new ApiError(Codes.workspace, `${cwd} is not a folder on this machine`);
    }
    if (!this.opts.roots.some((r) => real === r || real.startsWith(r.endsWith(sep) ? r : r + sep)))
      throw new ApiError(
        Codes.workspace,
        `${cwd} is outside the server's workspace roots (${this.opts.roots.join(', ')})`,
      );
    return real;
  }

  private archived(): Set<string> {
    if (!existsSync(this.archivePath)) return new Set();
    const parsed: unknown = JSON.parse(readFileSync(this.archivePath, 'utf8'));
    return new Set(Array.isArray(parsed) ? parsed.filter((x): x is string => typeof x === 'string') : []);
  }

  private setArchived(id: string, on: boolean): void {
    const ids = this.archived();
    if (on) ids.add(id);
    else ids.delete(id);
    writeFileSync(this.archivePath, `${JSON.stringify([...ids])}\n`, { mode: 0o600 });
  }

  /** Every session on disk in the roots (from the session index), newest first. */
  private onDisk(): SessionLocation[] {
    const path = sessionIndexPath(this.opts.home);
    if (!existsSync(path)) return [];
    const seen = new Map<string, SessionLocation>();
    for (const line of readFileSync(path, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      let entry: SessionLocation;
      try {
        entry = JSON.parse(line) as SessionLocation;
      } catch {
        continue;
      }
      if (typeof entry.sessionId !== 'string' || typeof entry.workDir !== 'string') continue;
      if (!existsSync(journalPathOf(entry.sessionDir))) continue;
      try {
        this.workspaceFolder(entry.workDir);
      } catch {
        continue;
      }
      seen.set(entry.sessionId, entry);
    }
    return [...seen.values()];
  }

  private locate(id: string): SessionLocation {
    if (!/^[0-9A-Z]{26}$/.test(id)) throw new ApiError(Codes.session, `no session ${id}`);
    const found = this.onDisk().find((s) => s.sessionId === id);
    if (!found) throw new ApiError(Codes.session, `no session ${id} in the server's workspace roots`);
    return found;
  }

  async list(opts: { includeArchive: boolean; archivedOnly: boolean; busy?: boolean }): Promise<SessionRow[]> {
    const archived = this.archived();
    const rows: SessionRow[] = [];
    for (const loc of this.onDisk()) {
      const isArchived = archived.has(loc.sessionId);
      if (opts.archivedOnly ? !isArchived : isArchived && !opts.includeArchive) continue;
      const live = this.open.has(loc.sessionId)
        ? await this.open.get(loc.sessionId)!.catch(() => undefined)
        : undefined;
      const summary = readSessionSummary(loc.sessionDir);
      const row: SessionRow = {
        session_id: loc.sessionId,
        cwd: loc.workDir,
        title: summary?.title ?? null,
        last_prompt: summary?.lastPrompt ?? null,
        created_at: summary?.createdAt ?? null,
        updated_at: new Date(statSync(journalPathOf(loc.sessionDir)).mtimeMs).toISOString(),
        forked_from: summary?.forkedFrom ?? null,
        archived: isArchived,
        open: !!live,
        busy: live?.busy ?? false,
      };
      if (opts.busy === undefined || row.busy === opts.busy) rows.push(row);
    }
    return rows.sort((a, b) => (a.updated_at < b.updated_at ? 1 : a.updated_at > b.updated_at ? -1 : 0));
  }

  private async launch(cwd: string, resume?: string, model?: string): Promise<ServerSession> {
    try {
      return await ServerSession.open({
        cwd,
        env: this.opts.env,
        epoch: this.opts.epoch,
        approvalExpiryMs: this.opts.approvalExpiryMs,
        resume,
        model,
        warn: this.opts.warn,
      });
    } catch (e) {
      if (e instanceof SessionLockedError)
        throw new ApiError(Codes.sessionLocked, `session ${resume} is open in another jarvis: ${e.message}`);
      if (e instanceof StartupError) throw new ApiError(Codes.modelUnresolved, e.message.replace(/^jarvis: /, ''));
      throw e;
    }
  }

  async create(cwd: string, model?: string): Promise<ServerSession> {
    const folder = this.workspaceFolder(cwd);
    const session = await this.launch(folder, undefined, model);
    this.open.set(session.id, Promise.resolve(session));
    this.opts.broadcast('event.session.created', { session_id: session.id, cwd: folder });
    return session;
  }

  /** The session, opened (resumed) on first use. */
  get(id: string): Promise<ServerSession> {
    const known = this.open.get(id);
    if (known) return known;
    const loc = this.locate(id);
    if (this.archived().has(id)) throw new ApiError(Codes.session, `session ${id} is archived; restore it first`);
    const opening = this.launch(loc.workDir, id);
    this.open.set(id, opening);
    opening.catch(() => this.open.delete(id));
    return opening;
  }

  async fork(id: string): Promise<string> {
    const source = await this.get(id);
    let copy;
    try {
      copy = forkSession({ session: source.runtime.session, agent: source.runtime.agent }, { home: this.opts.home });
    } catch (e) {
      if (e instanceof ForkError) throw new ApiError(Codes.busy, e.message);
      throw e;
    }
    this.opts.broadcast('event.session.created', { session_id: copy.sessionId, cwd: source.cwd, forked_from: id });
    return copy.sessionId;
  }

  async archive(id: string): Promise<void> {
    this.locate(id);
    const live = this.open.get(id);
    if (live) {
      this.open.delete(id);
      await (await live).close();
    }
    this.setArchived(id, true);
    this.opts.broadcast('event.session.archived', { session_id: id, archived: true });
  }

  async restore(id: string): Promise<void> {
    this.locate(id);
    this.setArchived(id, false);
    this.opts.broadcast('event.session.archived', { session_id: id, archived: false });
  }

  /** A session opened elsewhere and lent to the server (the terminal UI's, `/remote`; docs/remote.md). */
  adopt(session: ServerSession): void {
    this.open.set(session.id, Promise.resolve(session));
  }

  /** Sessions already open (for a subscriber naming one before it was opened, nothing is opened by watching). */
  openNow(id: string): Promise<ServerSession> | undefined {
    return this.open.get(id);
  }

  async closeAll(): Promise<void> {
    const all = [...this.open.values()];
    this.open.clear();
    await Promise.all(all.map(async (p) => (await p.catch(() => undefined))?.close()));
  }
}
