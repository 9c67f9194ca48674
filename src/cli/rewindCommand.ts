// `jarvis rewind [--session ID | --continue] [--turns N] [--files-only | --conversation-only] [--overwrite]`:
// the /rewind of the terminal UI from the shell (docs/sessions.md "Rewind"). Default: the latest session
// of this folder, the last prompt, conversation and files. Prints what it restored and what it skipped,
// and exits 1 when it skipped anything (or could not rewind at all).
import { relative, resolve } from 'node:path';
import { rewind, RewindError, type RewindResult, type RewindScope } from '../engine/session/rewind';
import { Session } from '../engine/session/session';
import { ConfigError, loadConfig } from '../store/config';
import { jarvisHome } from '../store/paths';
import { acquireSessionLock, SessionLockedError } from '../store/sessionLock';
import { LinkInTheWayError } from '../store/privateFiles';
import type { SessionLocation } from '../store/sessionStore';
import { canonicalPath } from '../tools/file/pathPolicy';
import { UsageError } from './program';

export interface RewindCommandOptions {
  /** Folders the session worked in besides its own (its --add-dir folders): files there may be restored too. */
  addDir?: string[];
  session?: string;
  continue?: boolean;
  turns?: string;
  filesOnly?: boolean;
  conversationOnly?: boolean;
  overwrite?: boolean;
}

export interface RewindIo {
  cwd: string;
  env: NodeJS.ProcessEnv;
  out(text: string): void;
  err(text: string): void;
}

function scopeOf(opts: RewindCommandOptions): RewindScope {
  if (opts.filesOnly && opts.conversationOnly)
    throw new UsageError('--files-only and --conversation-only exclude each other; leave both out to rewind both.');
  if (opts.overwrite && opts.conversationOnly)
    throw new UsageError('--overwrite is about files; it has no effect with --conversation-only.');
  return opts.filesOnly ? 'files' : opts.conversationOnly ? 'conversation' : 'both';
}

function turnsOf(raw: string | undefined): number {
  if (raw === undefined) return 1;
  const n = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || !Number.isInteger(n) || n < 1)
    throw new UsageError(`--turns takes a whole number of prompts (1 or more), got "${raw}".`);
  return n;
}

function findSession(opts: RewindCommandOptions, home: string, cwd: string): SessionLocation | string {
  if (opts.session !== undefined && opts.continue)
    throw new UsageError('--continue and --session both choose a session; use one of them.');
  if (opts.session !== undefined) {
    return (
      Session.findById(home, opts.session, cwd) ??
      `no session "${opts.session}" was found (or the id prefix matches several); run it from the folder the session was started in.`
    );
  }
  return (
    Session.findLatest(home, cwd) ??
    `there is no session in ${cwd} to rewind; pass --session <id>, or run it from the folder the session was started in.`
  );
}

const SCOPE_WORDS: Record<RewindScope, string> = {
  conversation: 'the conversation',
  files: 'the files',
  both: 'the conversation and the files',
};

export function formatRewindReport(result: RewindResult, label: string, workDir: string): string {
  const shown = (path: string) => {
    const rel = relative(workDir, path);
    return rel && !rel.startsWith('..') ? rel : path;
  };
  const lines = [`Rewound ${SCOPE_WORDS[result.scope]} to before "${label}".`];
  if (result.withdrawn.length)
    lines.push(
      `Withdrew ${result.withdrawn.length === 1 ? '1 prompt' : `${result.withdrawn.length} prompts`} from the conversation.`,
    );
  if (result.scope !== 'conversation') {
    if (!result.restored.length && !result.skipped.length) lines.push('No file needed restoring.');
    for (const r of result.restored) lines.push(`restored  ${shown(r.path)} (${r.action})`);
    for (const s of result.skipped) lines.push(`skipped   ${shown(s.path)}: ${s.reason}`);
  }
  if (result.commands.length) {
    lines.push('Commands ran since then; what they changed is not restored:');
    for (const c of result.commands) lines.push(`  ${c.subject} (in "${c.turn}")`);
  }
  return `${lines.join('\n')}\n`;
}

export async function runRewind(opts: RewindCommandOptions, io: RewindIo): Promise<number> {
  const scope = scopeOf(opts);
  const turns = turnsOf(opts.turns);
  const home = jarvisHome(io.env);
  const cwd = resolve(io.cwd);
  let maxFileBytes: number;
  try {
    maxFileBytes = loadConfig(home).config.rewind.max_file_bytes;
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    io.err(
      `jarvis rewind: invalid configuration\n${e.message}\nFix the file (run \`jarvis doctor\` to check it); nothing was rewound.\n`,
    );
    return 1;
  }
  const location = findSession(opts, home, cwd);
  if (typeof location === 'string') {
    io.err(`jarvis rewind: ${location}\n`);
    return 1;
  }
  let lock;
  try {
    lock = acquireSessionLock(location.sessionDir);
  } catch (e) {
    if (!(e instanceof SessionLockedError)) throw e;
    io.err(`jarvis rewind: ${e.message}\nNothing was rewound: use /rewind in that jarvis, or close it first.\n`);
    return 1;
  }
  try {
    const session = Session.open(location);
    for (const warning of session.warnings) io.err(`warning: ${warning}\n`);
    // Files go back only into the session's folder, its scratch folder and the folders named with --add-dir.
    const roots = [location.workDir, session.scratchDir, ...(opts.addDir ?? []).map((d) => resolve(cwd, d))];
    const workspace = { roots: roots.map((r) => canonicalPath(r)) };
    const result = await rewind({ session, workspace, maxFileBytes }, { turns, scope, overwrite: !!opts.overwrite });
    const label = session.state.fileHistory.turns.find((t) => t.turnId === result.turnId)?.label ?? '';
    io.out(formatRewindReport(result, label, session.state.workDir || cwd));
    if (session.persistError) {
      io.err(`jarvis rewind: ${session.persistError.message}\n`);
      return 1;
    }
    if (result.skipped.length) {
      io.err(
        `jarvis rewind: ${result.skipped.length === 1 ? '1 file was' : `${result.skipped.length} files were`} not restored (see above)${result.skipped.some((s) => /confirm to overwrite/.test(s.reason)) ? '; add --overwrite to replace files changed outside the agent' : ''}.\n`,
      );
      return 1;
    }
    return 0;
  } catch (e) {
    if (e instanceof LinkInTheWayError) {
      io.err(`jarvis rewind: ${e.message}\nNothing was rewound.\n`);
      return 1;
    }
    if (!(e instanceof RewindError)) throw e;
    io.err(`jarvis rewind: ${e.message}${/files only/.test(e.message) ? ' (--files-only)' : ''}\n`);
    return 1;
  } finally {
    lock.release();
  }
}

export async function runRewindCommand(opts: RewindCommandOptions): Promise<number> {
  return runRewind(opts, {
    cwd: process.cwd(),
    env: process.env,
    out: (t) => process.stdout.write(t),
    err: (t) => process.stderr.write(t),
  });
}
