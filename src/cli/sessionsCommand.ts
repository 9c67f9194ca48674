// `jarvis sessions [--json] [--all]` and `jarvis sessions show <id>` (docs/sessions.md, "From the shell"): the
// sessions of this folder (or of every folder) from their journals, for scripts and for `--session <id>`.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { displayPath, jarvisHome, sessionsRoot } from '../store/paths';
import { findSessionById, journalPathOf, listSessions, readSessionSummary } from '../store/sessionStore';
import { parseJournalText } from '../store/journal';
import { UsageError } from './program';
import { ENV_MODEL_ALIAS } from '../types/models';

export interface SessionFacts {
  id: string;
  folder: string;
  title: string;
  created: string | null;
  updated: string;
  turns: number;
  /** The model as a user knows it: the configured alias, or for the JARVIS_MODEL_* variables the model's name. */
  model: string | null;
  /** The provider's id of the model, when the journal says it. */
  modelId: string | null;
  prompts: string[];
}

const TITLE_MAX_CHARS = 60;

/** What the main journal says: a damaged line loses only itself (the journal's own rule, docs/sessions.md). */
export function sessionFacts(id: string, sessionDir: string, fallbackFolder: string): SessionFacts {
  const journal = journalPathOf(sessionDir);
  const facts: SessionFacts = {
    id,
    folder: fallbackFolder,
    title: '',
    created: null,
    updated: new Date(statSync(journal).mtimeMs).toISOString(),
    turns: 0,
    model: null,
    modelId: null,
    prompts: [],
  };
  let alias: string | null = null;
  let requestModel: string | null = null;
  let title: string | undefined;
  // The journal's own reader: a torn last line is skipped, any other damaged line is said on stderr.
  const read = parseJournalText(journal, readFileSync(journal, 'utf8'), isObject);
  for (const warning of read.warnings) process.stderr.write(`jarvis: ${warning}\n`);
  for (const r of read.records) {
    if (r.type === 'session_meta') {
      facts.folder = String(r.workDir ?? facts.folder);
      facts.created = typeof r.createdAt === 'string' ? r.createdAt : null;
      alias = typeof r.modelAlias === 'string' ? r.modelAlias : null;
      facts.modelId = typeof r.modelId === 'string' ? r.modelId : null;
    } else if (r.type === 'model' && typeof r.modelAlias === 'string') {
      alias = r.modelAlias;
      facts.modelId = typeof r.modelId === 'string' ? r.modelId : null;
    } else if (r.type === 'usage' && typeof r.model === 'string') requestModel = r.model;
    else if (r.type === 'title' && typeof r.title === 'string') title = r.title;
    else if (r.type === 'turn_end') facts.turns++;
    else if (r.type === 'turn_start' && r.origin === 'user' && typeof r.prompt === 'string')
      facts.prompts.push(r.prompt);
  }
  // A journal written before the model's id was kept still names it in its requests' usage.
  facts.modelId ??= requestModel;
  facts.model = alias === ENV_MODEL_ALIAS ? facts.modelId : alias;
  const summaryTitle = readSessionSummary(sessionDir)?.title;
  const first = (facts.prompts[0] ?? '').replace(/\s+/g, ' ').trim();
  facts.title =
    title ?? summaryTitle ?? (first.length > TITLE_MAX_CHARS ? `${first.slice(0, TITLE_MAX_CHARS - 1)}…` : first);
  return facts;
}

function allSessions(home: string): SessionFacts[] {
  const root = sessionsRoot(home);
  if (!existsSync(root)) return [];
  const out: SessionFacts[] = [];
  for (const key of readdirSync(root)) {
    const dir = join(root, key);
    if (!statSync(dir).isDirectory()) continue;
    for (const id of readdirSync(dir)) {
      if (existsSync(journalPathOf(join(dir, id)))) out.push(sessionFacts(id, join(dir, id), ''));
    }
  }
  return out.sort((a, b) => (a.updated < b.updated ? 1 : a.updated > b.updated ? -1 : 0));
}

export function runSessionsList(opts: { json?: boolean; all?: boolean }): number {
  const home = jarvisHome();
  const cwd = process.cwd();
  const sessions = opts.all
    ? allSessions(home)
    : listSessions(home, cwd).map((s) => sessionFacts(s.sessionId, s.sessionDir, s.workDir));
  if (opts.json) {
    process.stdout.write(
      `${JSON.stringify(
        sessions.map(({ prompts: _p, ...rest }) => rest),
        null,
        2,
      )}\n`,
    );
    return 0;
  }
  if (!sessions.length) {
    process.stdout.write(
      opts.all ? 'No sessions yet.\n' : 'No sessions in this folder (jarvis sessions --all lists every folder).\n',
    );
    return 0;
  }
  for (const s of sessions) {
    const where = opts.all ? `  ${displayPath(s.folder)}` : '';
    const turns = `${s.turns} turn${s.turns === 1 ? '' : 's'}`;
    process.stdout.write(`${s.id}  ${s.updated}  ${turns}  ${modelLabel(s)}${where}  ${s.title || '(no prompt)'}\n`);
  }
  process.stdout.write('Resume one with jarvis --session <id>; details with jarvis sessions show <id>.\n');
  return 0;
}

/** The model as a user reads it: a JARVIS_MODEL_* model is named, never shown as the variables' internal alias. */
function modelLabel(s: SessionFacts): string {
  return s.model ?? '?';
}

export function runSessionsShow(id: string, opts: { json?: boolean }): number {
  const home = jarvisHome();
  const found = findSessionById(home, id, process.cwd());
  if (!found)
    throw new UsageError(
      `no session "${id}" was found (or the id prefix matches several). List them with jarvis sessions (--all for every folder).`,
    );
  const s = sessionFacts(found.sessionId, found.sessionDir, found.workDir);
  if (opts.json) {
    process.stdout.write(`${JSON.stringify({ ...s, dir: found.sessionDir }, null, 2)}\n`);
    return 0;
  }
  const lines = [
    `Session ${s.id}`,
    `  title:   ${s.title || '(no prompt)'}`,
    `  folder:  ${displayPath(s.folder)}`,
    `  model:   ${modelLabel(s)}`,
    `  created: ${s.created ?? '?'}`,
    `  updated: ${s.updated}`,
    `  turns:   ${s.turns}`,
    `  files:   ${displayPath(found.sessionDir)}`,
    ...(s.prompts.length ? ['  prompts:', ...s.prompts.map((p, i) => `    ${i + 1}. ${p.split('\n')[0]}`)] : []),
    `Resume it with jarvis --session ${s.id}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
