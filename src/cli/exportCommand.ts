// `jarvis export [sessionId]`: a ZIP of the session folder (journals, plans, task output…) plus the
// global log, for bug reports and moving a session elsewhere. Without an id it takes the latest
// session of the current folder, after a confirmation (-y skips it; without a terminal to ask on,
// it refuses rather than guess).
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { GLOBAL_LOG_NAME } from '../store/crashLog';
import { jarvisHome, logsDir } from '../store/paths';
import { findLatestSession, findSessionById, readSessionSummary, type SessionLocation } from '../store/sessionStore';
import { directoryEntries, readZip, writeZip, type ZipEntry } from '../platform/zip';

export interface ExportCommandOptions {
  output?: string;
  yes?: boolean;
  /** Commander's `--no-include-global-log` sets this to false. */
  includeGlobalLog?: boolean;
}

export interface ExportIo {
  cwd: string;
  env: NodeJS.ProcessEnv;
  isTTY: boolean;
  ask(question: string): Promise<string>;
  out(text: string): void;
  err(text: string): void;
  now?: Date;
}

/** `jarvis-session-<id>-<UTC timestamp>.zip`. */
export function exportZipName(sessionId: string, now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-');
  return `jarvis-session-${sessionId}-${stamp}.zip`;
}

function describe(location: SessionLocation): string {
  const summary = readSessionSummary(location.sessionDir);
  const label = summary?.title ?? summary?.lastPrompt;
  const short = label && label.length > 60 ? `${label.slice(0, 57)}…` : label;
  return short ? `${location.sessionId} ("${short.replace(/\s+/g, ' ')}")` : location.sessionId;
}

/** The archive's contents: `<sessionId>/…` mirrors the session folder, `logs/…` the global log. */
export function sessionArchiveEntries(
  home: string,
  location: SessionLocation,
  includeGlobalLog: boolean,
  now: Date,
): ZipEntry[] {
  const entries = directoryEntries(location.sessionDir, `${location.sessionId}/`);
  const log = join(logsDir(home), GLOBAL_LOG_NAME);
  const withLog = includeGlobalLog && existsSync(log);
  if (withLog) entries.push({ name: `logs/${GLOBAL_LOG_NAME}`, data: readFileSync(log), mtime: statSync(log).mtime });
  const manifest = {
    sessionId: location.sessionId,
    workDir: location.workDir,
    exportedAt: now.toISOString(),
    globalLog: withLog,
  };
  entries.push({
    name: 'export-manifest.json',
    data: Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`),
    mtime: now,
  });
  return entries;
}

export async function exportSessionZip(
  sessionId: string | undefined,
  opts: ExportCommandOptions,
  io: ExportIo,
): Promise<number> {
  const home = jarvisHome(io.env);
  const now = io.now ?? new Date();
  let location: SessionLocation | undefined;
  if (sessionId !== undefined) {
    location = findSessionById(home, sessionId, io.cwd);
    if (!location) {
      io.err(
        `jarvis export: no session "${sessionId}" was found (or the id prefix matches several). Resume it with jarvis --session to see its id.\n`,
      );
      return 1;
    }
  } else {
    location = findLatestSession(home, io.cwd);
    if (!location) {
      io.err(
        `jarvis export: there is no session in ${io.cwd} to export. Pass a session id, or run it from the folder the session was started in.\n`,
      );
      return 1;
    }
    if (!opts.yes) {
      if (!io.isTTY) {
        io.err(
          `jarvis export: no session id given, so this would export the latest session of this folder, ${describe(location)}. Confirm with -y, or pass the session id.\n`,
        );
        return 1;
      }
      const answer = await io.ask(`Export the latest session of this folder, ${describe(location)}? [y/N] `);
      if (!/^y(es)?$/i.test(answer.trim())) {
        io.err('Nothing was exported.\n');
        return 1;
      }
    }
  }
  const target = exportTarget(io.cwd, opts.output, exportZipName(location.sessionId, now));
  if (!target.ok) {
    io.err(`jarvis export: ${target.message}\n`);
    return 1;
  }
  const entries = sessionArchiveEntries(home, location, opts.includeGlobalLog !== false, now);
  try {
    await writeZip(target.path, entries);
    // Read it back before saying it worked: a truncated archive is worse than an error.
    if ((await readZip(readFileSync(target.path))).length !== entries.length)
      throw new Error('the archive did not read back completely');
  } catch (e) {
    io.err(`jarvis export: could not write ${target.path}: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
  io.out(`Exported session ${location.sessionId} to ${target.path} (${entries.length} files)\n`);
  return 0;
}

/**
 * Where the archive goes (docs/sessions.md, "Export"): `-o` ending in a slash, or naming an existing folder, is a
 * folder — created when missing — and the archive gets its default name inside; otherwise `-o` is the file, and its
 * folder must exist (never a zip file named like the folder that was meant).
 */
export function exportTarget(
  cwd: string,
  output: string | undefined,
  defaultName: string,
): { ok: true; path: string } | { ok: false; message: string } {
  if (output === undefined) return { ok: true, path: resolve(cwd, defaultName) };
  const path = resolve(cwd, output);
  const meansFolder = /[\\/]$/.test(output) || (existsSync(path) && statSync(path).isDirectory());
  if (meansFolder) {
    if (existsSync(path) && !statSync(path).isDirectory())
      return {
        ok: false,
        message: `-o ${output} names a folder, but ${path} is a file. Give another folder or a .zip name.`,
      };
    try {
      mkdirSync(path, { recursive: true });
    } catch (e) {
      return { ok: false, message: `could not create the folder ${path}: ${(e as Error).message}` };
    }
    return { ok: true, path: join(path, defaultName) };
  }
  const parent = dirname(path);
  if (!existsSync(parent) || !statSync(parent).isDirectory())
    return {
      ok: false,
      message: `the folder ${parent} does not exist. Create it, or end -o with a slash (-o ${output}/) to export into a new folder of that name.`,
    };
  return { ok: true, path };
}

export async function runExportCommand(sessionId: string | undefined, opts: ExportCommandOptions): Promise<number> {
  return exportSessionZip(sessionId, opts, {
    cwd: process.cwd(),
    env: process.env,
    isTTY: Boolean(process.stdin.isTTY && process.stderr.isTTY),
    async ask(question) {
      const rl = createInterface({ input: process.stdin, output: process.stderr });
      try {
        return await rl.question(question);
      } finally {
        rl.close();
      }
    },
    out: (text) => void process.stdout.write(text),
    err: (text) => void process.stderr.write(text),
  });
}
